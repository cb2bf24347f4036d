// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cluster.atomix;

import io.atomix.primitive.PrimitiveState;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.FixMethodOrder;
import org.junit.Test;
import org.junit.runners.MethodSorters;
import org.onosproject.store.serializers.KryoNamespaces;
import org.onosproject.store.service.ConsistentMap;
import org.onosproject.store.service.Serializer;
import org.onosproject.store.service.Versioned;

import java.io.File;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

/**
 * The listener-fed local copy ({@link LocalCopy}) on three real Atomix members in this JVM: member
 * m1 reads a map from its copy while m2 writes it through Raft without one. Every case uses maps
 * of its own name; the last one restarts m3. Waits poll with generous deadlines (loaded CI).
 */
@FixMethodOrder(MethodSorters.NAME_ASCENDING)
public class LocalCopyTest {

    private static final Serializer SERIALIZER = Serializer.using(KryoNamespaces.BASIC);

    private static InJvmMembers cluster;

    @BeforeClass
    public static void startCluster() throws Exception {
        cluster = InJvmMembers.start("rou-localcopy");
    }

    @AfterClass
    public static void stopCluster() {
        cluster.stop();
    }

    private static AtomixConsistentMap<String, Integer> map(int member, String name, boolean copy) {
        return map(member, name, copy, cluster.nodes.get(member)::hasQuorum);
    }

    private static AtomixConsistentMap<String, Integer> map(int member, String name, boolean copy,
                                                            BooleanSupplier majority) {
        return (AtomixConsistentMap<String, Integer>) new AtomixStorageService(
                cluster.nodes.get(member), copy ? Set.of(name) : Set.of(), majority)
                .<String, Integer>consistentMapBuilder().withName(name).withSerializer(SERIALIZER).build();
    }

    // value and version (the Raft index); a creation time is the reading member's clock
    private static Map<String, String> contents(ConsistentMap<String, Integer> m) {
        Map<String, String> out = new TreeMap<>();
        m.entrySet().forEach(e -> out.put(e.getKey(), e.getValue().value() + "@" + e.getValue().version()));
        return out;
    }

    @Test
    public void t1EventsKeepTheCopyCurrentInOrderAndAMemberReadsItsOwnWrites() throws Exception {
        AtomixConsistentMap<String, Integer> reader = map(0, "rou-t1", true);
        AtomixConsistentMap<String, Integer> writer = map(1, "rou-t1", false);
        writer.put("seed", 0);
        assertEquals(Integer.valueOf(0), reader.get("seed").value());
        assertEquals(1, reader.localCopyFills());
        // many writes to few keys from another member: a copy applying events out of order would
        // end on an older value or keep a removed key
        for (int i = 0; i < 300; i++) {
            String k = "k" + (i % 5);
            if (i % 7 == 6) {
                writer.remove(k);
            } else {
                writer.put(k, i);
            }
        }
        Map<String, String> raft = contents(writer);
        InJvmMembers.await("m1's copy equal to the map in Raft " + raft, () -> raft.equals(contents(reader)));
        assertEquals("the copy was kept by events, not refilled", 1, reader.localCopyFills());
        // own writes: the session delivers a write's event before the write's answer
        for (int i = 0; i < 50; i++) {
            reader.put("own", i);
            assertEquals(Integer.valueOf(i), reader.get("own").value());
            reader.remove("own");
            assertNull(reader.get("own"));
        }
        assertEquals(1, reader.localCopyFills());
    }

    @Test
    public void t2ASuspendedSessionOnAMemberWithoutAMajorityDropsTheCopyAndReadsGoThroughRaftUntilConnected()
            throws Exception {
        AtomicBoolean majority = new AtomicBoolean(false);
        AtomixConsistentMap<String, Integer> reader = map(0, "rou-t2", true, majority::get);
        AtomixConsistentMap<String, Integer> writer = map(1, "rou-t2", false);
        writer.put("a", 1);
        assertEquals(Integer.valueOf(1), reader.get("a").value());
        long fills = reader.localCopyFills();
        // what Atomix reports on a partition (the session cannot reach its partition's leader)
        reader.localCopy().state(PrimitiveState.SUSPENDED);
        writer.put("a", 2);
        // cut off from the majority: no copy, each read goes through Raft (linearizable), none is kept
        assertEquals(Integer.valueOf(2), reader.get("a").value());
        writer.put("a", 3);
        assertEquals(Integer.valueOf(3), reader.get("a").value());
        // the majority back while still suspended: the dropped copy is not served again
        majority.set(true);
        writer.put("a", 4);
        assertEquals(Integer.valueOf(4), reader.get("a").value());
        assertEquals(fills, reader.localCopyFills());
        assertEquals(0, reader.localCopySuspendedReads());
        reader.localCopy().state(PrimitiveState.CONNECTED);
        writer.put("a", 5);
        assertEquals(Integer.valueOf(5), reader.get("a").value());
        assertEquals("refilled once after the reconnect", fills + 1, reader.localCopyFills());
    }

    @Test
    public void t2bASuspendedSessionOnAMemberWithAMajorityServesTheCopyKeptByEventsAndRefillsOnReconnect()
            throws Exception {
        AtomicBoolean majority = new AtomicBoolean(true);
        AtomixConsistentMap<String, Integer> reader = map(0, "rou-t2b", true, majority::get);
        AtomixConsistentMap<String, Integer> writer = map(1, "rou-t2b", false);
        writer.put("a", 1);
        assertEquals(Integer.valueOf(1), reader.get("a").value());
        long fills = reader.localCopyFills();
        // one partition re-elects: the leader's loop reads its copy instead of waiting on Raft
        reader.localCopy().state(PrimitiveState.SUSPENDED);
        writer.put("a", 2);
        writer.put("b", 7);
        InJvmMembers.await("the suspended copy follows events",
              () -> Integer.valueOf(2).equals(reader.get("a").value()) && reader.get("b") != null);
        assertEquals("served from the copy, not refilled", fills, reader.localCopyFills());
        assertTrue("reads counted while suspended", reader.localCopySuspendedReads() > 0);
        // the reconnect may follow an expired session (Atomix reports SUSPENDED, then CONNECTED
        // with a new session, its events in between lost): the copy is refilled from Raft
        reader.localCopy().state(PrimitiveState.CONNECTED);
        long served = reader.localCopySuspendedReads();
        assertEquals(contents(writer), contents(reader));
        assertEquals("refilled once after the reconnect", fills + 1, reader.localCopyFills());
        assertEquals("no suspended reads once connected", served, reader.localCopySuspendedReads());
        // losing the majority during a suspension drops the copy at the next read
        reader.localCopy().state(PrimitiveState.SUSPENDED);
        assertEquals(Integer.valueOf(2), reader.get("a").value());
        majority.set(false);
        writer.put("a", 3);
        assertEquals("through Raft once cut off", Integer.valueOf(3), reader.get("a").value());
        reader.localCopy().state(PrimitiveState.EXPIRED);
        reader.localCopy().state(PrimitiveState.CONNECTED);
        assertEquals(Integer.valueOf(3), reader.get("a").value());
        assertEquals(fills + 2, reader.localCopyFills());
    }

    @Test
    public void t3ACompareAndSetOnAStaleReadFailsCleanlyAndTheRetrySucceeds() throws Exception {
        AtomixConsistentMap<String, Integer> reader = map(0, "rou-t3", true);
        AtomixConsistentMap<String, Integer> writer = map(1, "rou-t3", false);
        writer.put("x", 1);
        Versioned<Integer> read = reader.get("x");
        writer.put("x", 2);
        assertFalse("a write on an older version must lose", reader.replace("x", read.version(), 10));
        assertFalse(reader.remove("x", read.version()));
        assertEquals(Integer.valueOf(2), writer.get("x").value());
        // the lost compare-and-set dropped the copy: the retry reads the current version
        Versioned<Integer> again = reader.get("x");
        assertEquals(Integer.valueOf(2), again.value());
        assertTrue(reader.replace("x", again.version(), 20));
        assertEquals(Integer.valueOf(20), writer.get("x").value());
        InJvmMembers.await("m1's copy sees its own compare-and-set",
              () -> Integer.valueOf(20).equals(reader.get("x").value()));
    }

    @Test
    public void t4ARestartedMemberGetsAFreshCopy() throws Exception {
        AtomixConsistentMap<String, Integer> writer = map(0, "rou-t4", false);
        writer.put("before", 1);
        AtomixConsistentMap<String, Integer> old = map(2, "rou-t4", true);
        assertEquals(Integer.valueOf(1), old.get("before").value());
        cluster.nodes.get(2).stop();
        writer.put("before", 2);
        writer.put("during", 3);
        AtomixNode restarted = new AtomixNode("m3", cluster.members, new File(cluster.dir, "m3"));
        cluster.nodes.set(2, restarted);
        restarted.start(InJvmMembers.FORM);
        AtomixConsistentMap<String, Integer> fresh = map(2, "rou-t4", true);
        assertNotNull(fresh.get("during"));
        assertEquals(Integer.valueOf(2), fresh.get("before").value());
        assertEquals(contents(writer), contents(fresh));
        writer.put("after", 4);
        InJvmMembers.await("the rejoined member's copy follows events",
              () -> fresh.get("after") != null && fresh.get("after").value() == 4);
    }
}
