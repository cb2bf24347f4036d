// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.store;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.Before;
import org.junit.Test;
import org.srv6int.app.api.SfcException;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.testing.AppHarness;
import org.srv6int.app.testing.PaperTestbed;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;
import static org.srv6int.app.testing.PaperTestbed.SFC2;

/**
 * A replica added under a caller's name (the global loop names replicas after their Kubernetes
 * workloads): SID and port allocated as for a generated name; a taken or invalid name is refused.
 */
public class NamedReplicaTest {

    private AppHarness app;

    @Before
    public void setUp() {
        app = new AppHarness();
        app.deployFig5();
        app.settle();
    }

    @Test
    public void addsUnderTheGivenNameAndRefusesTakenOrInvalidNames() {
        VnfKey snort = VnfKey.of(SFC2, 0);
        VnfReplica r = app.inventory.addReplica(snort, "worker2", "sfc-2-vnf0-r0");
        assertEquals("sfc-2-vnf0-r0", r.id().name());
        assertEquals(PaperTestbed.SW3, r.deviceId());
        assertEquals("fc00:0:3:f::2", r.sid().toString());
        assertEquals(r, app.inventory.getReplica(r.id()).orElseThrow());
        try {
            app.inventory.addReplica(snort, "worker2", "sfc-2-vnf0-r0");
            fail("taken name");
        } catch (SfcException e) {
            assertEquals(SfcException.Reason.CONFLICT, e.reason());
        }
        try {
            app.inventory.addReplica(snort, "worker2", "Not_A_Label");
            fail("invalid name");
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("DNS label"));
        }
        // a generated name still takes the smallest free r<n>
        assertEquals("r1", app.inventory.addReplica(snort, "worker2").id().name());
    }

    /** The global loop reserves a replica's identity before its pod exists, so the pod can carry it. */
    @Test
    public void reservationHoldsASidUntilReadyAndIsIdempotent() {
        VnfKey snort = VnfKey.of(SFC2, 0);
        VnfReplica r = app.inventory.reserveReplica(snort, "worker2", "sfc-2-vnf0-r1");
        assertEquals(org.srv6int.app.api.model.ReplicaState.PENDING, r.state());
        assertEquals(0, r.weight());
        assertEquals(PaperTestbed.SW3, r.deviceId());
        // Repeating the reservation (a new leader, a retried create) returns the same identity.
        assertEquals(r, app.inventory.reserveReplica(snort, "worker2", "sfc-2-vnf0-r1"));
        // The SID is taken: the next replica on that switch gets another one.
        assertNotEquals(r.sid(), app.inventory.addReplica(snort, "worker2").sid());
        try {
            app.inventory.reserveReplica(snort, "worker1", "sfc-2-vnf0-r1");
            fail("same name on another node");
        } catch (SfcException e) {
            assertEquals(SfcException.Reason.CONFLICT, e.reason());
            assertTrue(e.getMessage(), e.getMessage().contains("worker2"));
        }
    }
    /**
     * The platform reserves the replicas of one scale-out on several threads at once (and in a
     * cluster, on several instances): each gets a SID of its own. Before session 9 two of them could
     * read the same free SID and both store it (seen on the real API server: sfc-2-vnf0-r4 and r6 both
     * fc00:0:3:f::3, so draining r6 left "its" SID in 36 buckets that were r4's).
     */
    @Test
    public void concurrentReservationsGetDistinctSids() throws Exception {
        VnfKey snort = VnfKey.of(SFC2, 0);
        int n = 12;
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            for (int round = 0; round < 20; round++) {
                CyclicBarrier start = new CyclicBarrier(n);
                List<Future<VnfReplica>> fs = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    String name = "sfc-2-vnf0-r" + (round * n + i);
                    fs.add(pool.submit(() -> {
                        start.await();
                        return app.inventory.reserveReplica(snort, "worker2", name);
                    }));
                }
                Set<String> sids = new HashSet<>();
                for (Future<VnfReplica> f : fs) {
                    VnfReplica r = f.get(10, TimeUnit.SECONDS);
                    assertTrue("round " + round + ": SID " + r.sid() + " given twice", sids.add(r.sid().toString()));
                }
                Set<String> stored = new HashSet<>();
                for (VnfReplica r : app.inventory.getReplicas()) {
                    assertTrue("stored twice: " + r.sid(), stored.add(r.sid().toString()));
                }
                for (Future<VnfReplica> f : fs) {
                    app.inventory.removeReplica(f.get().id());
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
