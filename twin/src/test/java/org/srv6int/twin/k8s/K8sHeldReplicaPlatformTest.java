// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.k8s;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.After;
import org.junit.Test;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.NodeResources;
import org.srv6int.app.api.model.ReplicaInfo;
import org.srv6int.app.api.ReplicaPlatform;

/**
 * Holding simulated time to wall time while an operation is in flight, and the worker/node
 * name translation, on a platform whose operations take a known wall time (no Kubernetes).
 */
public class K8sHeldReplicaPlatformTest {
    private static final VnfKey VNF = VnfKey.of(SfcId.of(2), 3);
    private static final long OP_MS = 400;

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final List<String> createdOn = new ArrayList<>();

    /** Creates complete OP_MS after the call, on node n1 or n2; deletes likewise. */
    private final ReplicaPlatform slow = new ReplicaPlatform() {
        @Override
        public List<NodeResources> nodeFreeResources() {
            return List.of(new NodeResources("n1", 1000, 1), new NodeResources("n2", 2000, 2),
                           new NodeResources("other", 3000, 3));
        }

        @Override
        public CompletionStage<ReplicaInfo> createReplica(VnfKey vnf, String node, String requestId) {
            if (node.equals("n2")) {
                throw new IllegalStateException("n2 refuses synchronously");
            }
            createdOn.add(node);
            CompletableFuture<ReplicaInfo> f = new CompletableFuture<>();
            timer.schedule(() -> f.complete(new ReplicaInfo("r0", node, "10.0.0.1")), OP_MS, TimeUnit.MILLISECONDS);
            return f;
        }

        @Override
        public CompletionStage<Void> deleteReplica(VnfKey vnf, String replicaId) {
            CompletableFuture<Void> f = new CompletableFuture<>();
            timer.schedule(() -> f.complete(null), OP_MS, TimeUnit.MILLISECONDS);
            return f;
        }
    };

    private final HeldReplicaPlatform held = new HeldReplicaPlatform(slow, Map.of("Worker 1", "n1", "Worker 2", "n2"));

    @After
    public void stop() {
        timer.shutdownNow();
    }

    /** Advances in 1 ms ticks from {@code fromS} until the stage is done; returns the simulated time then. */
    private double tickUntilDone(CompletionStage<?> s, double fromS) {
        CompletableFuture<?> f = s.toCompletableFuture();
        double t = fromS;
        while (!f.isDone()) {
            t += 0.001;
            held.advanceTo(t);
            if (t > fromS + 600) {
                fail("operation not done after 600 simulated s");
            }
        }
        return t;
    }

    private void tick(double fromS, double toS) {
        for (double t = fromS; t < toS; t += 0.001) {
            held.advanceTo(t);
        }
    }

    @Test
    public void noPacingWithoutAnOperation() {
        tick(0, 20);
        assertEquals(0.0, held.heldSeconds(), 0.0);
    }

    @Test
    public void anOperationHoldsSimulatedTimeToWallTimeUntilItCompletes() {
        tick(0, 5);
        long t0 = System.nanoTime();
        CompletionStage<ReplicaInfo> c = held.createReplica(VNF, "Worker 1", "t1-0");
        double doneAt = tickUntilDone(c, 5);
        double wall = (System.nanoTime() - t0) / 1e9;
        ReplicaInfo r = c.toCompletableFuture().join();
        assertEquals("the node's name goes out as the worker's", "Worker 1", r.node());
        assertEquals(List.of("n1"), createdOn);
        // Simulated time never ran ahead of the wall time since the create began...
        assertTrue("simulated " + (doneAt - 5) + " s > wall " + wall + " s", doneAt - 5 <= wall + 0.002);
        // ...and the loop ticked as fast as it was let: the 0.4 s appear in simulated time (less only
        // by what a loaded machine delays this thread between ticks).
        assertTrue("create took " + (doneAt - 5) + " simulated s", doneAt - 5 >= OP_MS / 1000.0 - 0.1);
        assertTrue("held " + held.heldSeconds() + " s", held.heldSeconds() >= OP_MS / 1000.0 - 0.15);
        double heldAfterCreate = held.heldSeconds();
        tick(doneAt, doneAt + 20);
        assertEquals("no pacing once it completed", heldAfterCreate, held.heldSeconds(), 0.0);

        double deletedAt = tickUntilDone(held.deleteReplica(VNF, r.id()), doneAt + 20);
        assertTrue("delete took " + (deletedAt - doneAt - 20) + " simulated s",
                   deletedAt - doneAt - 20 >= OP_MS / 1000.0 - 0.1);
    }

    @Test
    public void aFailedOperationReleasesTheHold() {
        CompletableFuture<ReplicaInfo> f = held.createReplica(VNF, "Worker 2", "t2-0").toCompletableFuture();
        assertTrue(f.isCompletedExceptionally());
        tick(0, 20);
        assertEquals(0.0, held.heldSeconds(), 0.0);
    }

    @Test
    public void unknownWorkerIsRefusedWithTheKnownOnes() {
        try {
            held.createReplica(VNF, "worker9", "t3-0").toCompletableFuture().join();
            fail("created on an unknown worker");
        } catch (CompletionException e) {
            assertTrue(e.getCause().getMessage(), e.getCause().getMessage().contains("worker9"));
            assertTrue(e.getCause().getMessage(), e.getCause().getMessage().contains("Worker 1"));
        }
        assertTrue(createdOn.isEmpty());
    }

    @Test
    public void freeResourcesNameTheWorkersOnly() {
        List<String> names = new ArrayList<>();
        for (NodeResources r : held.nodeFreeResources()) {
            names.add(r.node() + "=" + r.freeCpuMillis());
        }
        names.sort(null);
        assertEquals(List.of("Worker 1=1000", "Worker 2=2000"), names);
        held.useHosts(Map.of("Worker 2", "n2"));
        assertEquals(1, held.nodeFreeResources().size());
        assertEquals("Worker 2", held.nodeFreeResources().get(0).node());
    }
}
