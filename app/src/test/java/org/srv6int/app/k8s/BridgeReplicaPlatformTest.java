// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.k8s;

import java.util.Optional;
import java.util.SortedSet;
import org.srv6int.app.testing.FakeInventory;
import org.srv6int.app.api.model.ReplicaInfo;
import org.junit.Test;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.k8s.bridge.BridgeException;
import org.srv6int.k8s.bridge.ReplicaNames;
import org.srv6int.k8s.bridge.ReplicaRequest;
import org.srv6int.k8s.bridge.ReplicaStatus;
import org.srv6int.k8s.bridge.VnfReplicaManager;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * The loop's platform port over the bridge interface: exact bridge calls, replica indices,
 * readiness and errors. The bridge is a recording fake of {@link VnfReplicaManager} (its real
 * implementation is tested against a kube-apiserver in k8s-bridge).
 */
public class BridgeReplicaPlatformTest {

    private static final VnfKey VNF = VnfKey.of(SfcId.of(2), 1);

    /** Keeps replicas like the bridge: deterministic names, idempotent ensure. */
    private static final class RecordingBridge implements VnfReplicaManager {
        final List<String> calls = new ArrayList<>();
        final Map<Integer, ReplicaStatus> replicas = new TreeMap<>();
        boolean neverReady;
        ReplicaRequest lastRequest;

        @Override
        public ReplicaStatus ensureReplica(ReplicaRequest r) {
            lastRequest = r;
            calls.add("ensure " + r.chainId() + "/" + r.vnfIndex() + "/r" + r.replicaIndex() + " on " + r.nodeName()
                              + " image " + r.image() + " cpu " + r.requests().get("cpu"));
            String name = ReplicaNames.replicaName(r.chainId(), r.vnfIndex(), r.replicaIndex());
            return replicas.computeIfAbsent(r.replicaIndex(), k -> new ReplicaStatus(
                    name, k, ReplicaNames.podName(name), r.nodeName(), null, false, "Pending"));
        }

        @Override
        public ReplicaStatus awaitReady(String chainId, int vnfIndex, int replicaIndex, Duration timeout) {
            calls.add("awaitReady " + chainId + "/" + vnfIndex + "/r" + replicaIndex);
            if (neverReady) {
                throw new BridgeException("pod not Ready within " + timeout + ", phase Pending", 0, 0, null);
            }
            ReplicaStatus s = replicas.get(replicaIndex);
            ReplicaStatus ready = new ReplicaStatus(s.name(), replicaIndex, s.podName(), s.nodeName(),
                                                    "10.244.0." + (replicaIndex + 10), true, "Running");
            replicas.put(replicaIndex, ready);
            return ready;
        }

        @Override
        public List<ReplicaStatus> scale(String chainId, int vnfIndex, List<ReplicaRequest> desired) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean removeReplica(String chainId, int vnfIndex, int replicaIndex) {
            calls.add("remove " + chainId + "/" + vnfIndex + "/r" + replicaIndex);
            return replicas.remove(replicaIndex) != null;
        }

        @Override
        public int removeChain(String chainId) {
            throw new UnsupportedOperationException();
        }

        @Override
        public SortedSet<String> listChainIds() {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<ReplicaStatus> listReplicas(String chainId, int vnfIndex) {
            calls.add("list " + chainId + "/" + vnfIndex);
            return new ArrayList<>(replicas.values());
        }

        // The bridge's watch: established or not; its listeners.
        boolean watching = true;
        final List<org.srv6int.k8s.bridge.ReplicaListener> listeners = new ArrayList<>();

        @Override
        public Optional<List<ReplicaStatus>> watchedReplicas(String chainId, int vnfIndex) {
            return watching ? Optional.of(new ArrayList<>(replicas.values())) : Optional.empty();
        }

        @Override
        public void addListener(org.srv6int.k8s.bridge.ReplicaListener l) {
            listeners.add(l);
        }

        @Override
        public void removeListener(org.srv6int.k8s.bridge.ReplicaListener l) {
            listeners.remove(l);
        }

        @Override
        public Map<String, org.srv6int.k8s.bridge.NodeResources> nodeFreeResources() {
            return Map.of("w1", new org.srv6int.k8s.bridge.NodeResources("w1", 1500, 2L << 30, 4000, 8L << 30));
        }
    }

    private final RecordingBridge bridge = new RecordingBridge();
    private final Map<String, Integer> ledger = new ConcurrentHashMap<>();
    private final FakeInventory inventory = new FakeInventory();
    private final ReplicaIdentities identities = new ReplicaIdentities() {
        @Override
        public org.srv6int.app.api.model.VnfReplica reserve(VnfKey vnf, String node, String replicaName) {
            return inventory.reserveReplica(vnf, node, replicaName);
        }

        @Override
        public boolean release(VnfKey vnf, String replicaName) {
            org.srv6int.app.api.model.VnfReplicaId id = org.srv6int.app.api.model.VnfReplicaId.of(vnf, replicaName);
            if (inventory.getReplica(id).map(r -> r.state() == org.srv6int.app.api.model.ReplicaState.PENDING)
                    .orElse(false)) {
                inventory.removeReplica(id);
                return true;
            }
            return false;
        }
    };
    private final BridgeReplicaPlatform platform = platform();

    private BridgeReplicaPlatform platform() {
        return new BridgeReplicaPlatform(
                bridge, v -> ReplicaRequest.builder().vnfType("snort").image("snort:3").request("cpu", "1"),
                Duration.ofSeconds(60), Runnable::run, ledger, identities);
    }

    @Test
    public void createsTheNextFreeReplicaAndWaitsForReady() {
        bridge.replicas.put(0, new ReplicaStatus("sfc-2-vnf1-r0", 0, "sfc-2-vnf1-r0-0", "w1", "10.244.0.9",
                                                 true, "Running"));
        ReplicaInfo r = platform.createReplica(VNF, "w2", "d1-0").toCompletableFuture().join();
        assertEquals("sfc-2-vnf1-r1", r.id());
        assertEquals("w2", r.node());
        assertEquals("10.244.0.11", r.podIp());
        assertEquals(List.of("list 2/1", "ensure 2/1/r1 on w2 image snort:3 cpu 1", "awaitReady 2/1/r1"),
                     bridge.calls);
        // The pod carries the identity the inventory reserved before it was made (PENDING until Ready).
        org.srv6int.app.api.model.VnfReplica reserved =
                inventory.getReplica(org.srv6int.app.api.model.VnfReplicaId.of(VNF, "sfc-2-vnf1-r1")).orElseThrow();
        assertEquals(org.srv6int.app.api.model.ReplicaState.PENDING, reserved.state());
        assertEquals(Map.of(ReplicaNames.ANNOTATION_SID, reserved.sid().toString(),
                            ReplicaNames.ANNOTATION_SWITCH_DEVICE, "device:s2",
                            ReplicaNames.ANNOTATION_SWITCH_PORT, "3"),
                     bridge.lastRequest.annotations());
        assertEquals(1, platform.nodeFreeResources().size());
        assertEquals(1500, platform.nodeFreeResources().get(0).freeCpuMillis());
    }

    /** The NUMA node placement reserved with the identity is written on the pod (srv6int.org/numa-node). */
    @Test
    public void theReservedNumaNodeIsWrittenOnThePod() {
        ReplicaIdentities numa = new ReplicaIdentities() {
            @Override
            public org.srv6int.app.api.model.VnfReplica reserve(VnfKey vnf, String node, String replicaName) {
                return identities.reserve(vnf, node, replicaName).withNumaNode(1);
            }

            @Override
            public boolean release(VnfKey vnf, String replicaName) {
                return identities.release(vnf, replicaName);
            }
        };
        ReplicaInfo r = new BridgeReplicaPlatform(bridge, v -> ReplicaRequest.builder().vnfType("snort")
                .image("snort:3"), Duration.ofSeconds(60), Runnable::run, ledger, numa)
                .createReplica(VNF, "w2", "d1-0").toCompletableFuture().join();
        assertEquals("1", bridge.lastRequest.annotations().get("srv6int.org/numa-node"));
        assertEquals(4, bridge.lastRequest.annotations().size());
        // The scale-out decision lists the ready replicas: with the NUMA node their pods ask for.
        assertEquals("sfc-2-vnf1-r0@w2:numa1(10.244.0.10)", r.toString());
    }

    @Test
    public void aRepeatedRequestGetsTheSameReplicaOnAnyInstance() {
        bridge.replicas.put(0, new ReplicaStatus("sfc-2-vnf1-r0", 0, "sfc-2-vnf1-r0-0", "w1", "10.244.0.9",
                                                 true, "Running"));
        ReplicaInfo first = platform.createReplica(VNF, "w2", "d7-0").toCompletableFuture().join();
        ReplicaInfo other = platform.createReplica(VNF, "w2", "d7-1").toCompletableFuture().join();
        // A new leader (another instance's platform over the cluster's ledger) repeats d7-0.
        ReplicaInfo again = platform().createReplica(VNF, "w2", "d7-0").toCompletableFuture().join();
        assertEquals("sfc-2-vnf1-r1", first.id());
        assertEquals("sfc-2-vnf1-r2", other.id());
        assertEquals(first.id(), again.id());
        assertEquals(List.of("ensure 2/1/r1 on w2 image snort:3 cpu 1", "ensure 2/1/r2 on w2 image snort:3 cpu 1",
                             "ensure 2/1/r1 on w2 image snort:3 cpu 1"),
                     bridge.calls.stream().filter(c -> c.startsWith("ensure")).collect(Collectors.toList()));
        // Deleting the replica frees its index for later requests.
        platform.deleteReplica(VNF, "sfc-2-vnf1-r1").toCompletableFuture().join();
        assertEquals(Map.of(VNF + "/d7-1", 2), ledger);
    }

    @Test
    public void notReadyFailsTheStage() {
        bridge.neverReady = true;
        try {
            platform.createReplica(VNF, "w2", "d1-0").toCompletableFuture().join();
            fail("expected a failure");
        } catch (CompletionException e) {
            assertTrue(e.getCause() instanceof BridgeException);
        }
        // Nothing is left of a replica that never became Ready: no SID held, no workload.
        assertTrue(inventory.replicas().isEmpty());
        assertEquals("remove 2/1/r0", bridge.calls.get(bridge.calls.size() - 1));
        assertTrue(bridge.replicas.isEmpty());
    }

    /** A give-back whose store call fails (a cluster electing) is retried: no SID and no workload stay. */
    @Test
    public void aGiveBackThatFailsIsRetried() {
        bridge.neverReady = true;
        List<String> releases = new ArrayList<>();
        ReplicaIdentities flaky = new ReplicaIdentities() {
            @Override
            public org.srv6int.app.api.model.VnfReplica reserve(VnfKey vnf, String node, String replicaName) {
                return identities.reserve(vnf, node, replicaName);
            }

            @Override
            public boolean release(VnfKey vnf, String replicaName) {
                releases.add(replicaName);
                if (releases.size() == 1) {
                    throw new IllegalStateException("request timed out");
                }
                return identities.release(vnf, replicaName);
            }
        };
        try {
            new BridgeReplicaPlatform(bridge, v -> ReplicaRequest.builder().vnfType("snort").image("snort:3"),
                                      Duration.ofSeconds(60), Runnable::run, ledger, flaky)
                    .createReplica(VNF, "w2", "d1-0").toCompletableFuture().join();
            fail("expected a failure");
        } catch (CompletionException e) {
            // the create's own failure, with the give-back's on it
            assertTrue(e.getCause() instanceof BridgeException);
            assertEquals(1, e.getCause().getSuppressed().length);
        }
        assertEquals(List.of("sfc-2-vnf1-r0", "sfc-2-vnf1-r0"), releases);
        assertTrue(inventory.replicas().isEmpty());
        assertTrue(bridge.replicas.isEmpty());
    }

    @Test
    public void aFailedRetryKeepsAReplicaThatCarriesTraffic() {
        platform.createReplica(VNF, "w2", "d1-0").toCompletableFuture().join();
        VnfKey vnf = VNF;
        org.srv6int.app.api.model.VnfReplicaId id = org.srv6int.app.api.model.VnfReplicaId.of(vnf, "sfc-2-vnf1-r0");
        inventory.updateReplica(id, org.srv6int.app.api.model.ReplicaState.ACTIVE, 1);
        bridge.neverReady = true;
        try {
            platform().createReplica(VNF, "w2", "d1-0").toCompletableFuture().join();
            fail("expected a failure");
        } catch (CompletionException e) {
            assertTrue(e.getCause() instanceof BridgeException);
        }
        assertTrue(inventory.getReplica(id).isPresent());
        assertTrue(bridge.calls.stream().noneMatch(c -> c.startsWith("remove")));
    }

    @Test
    public void deletesByTheBridgeName() {
        platform.createReplica(VNF, "w2", "d1-0").toCompletableFuture().join();
        platform.deleteReplica(VNF, "sfc-2-vnf1-r0").toCompletableFuture().join();
        assertEquals("remove 2/1/r0", bridge.calls.get(bridge.calls.size() - 1));
        try {
            platform.deleteReplica(VNF, "r0x").toCompletableFuture().join();
            fail("expected a failure");
        } catch (CompletionException e) {
            assertTrue(e.getCause() instanceof IllegalArgumentException);
        }
    }

    @Test
    public void readinessIsTheBridgesWatchByReplicaNameWithoutAnApiCall() {
        bridge.replicas.put(0, new ReplicaStatus("sfc-2-vnf1-r0", 0, "sfc-2-vnf1-r0-0", "w1", "10.244.0.9",
                                                 true, "Running"));
        bridge.replicas.put(1, new ReplicaStatus("sfc-2-vnf1-r1", 1, "sfc-2-vnf1-r1-0", "w2", "10.244.0.10",
                                                 false, "Running"));
        // A StatefulSet whose pod is gone.
        bridge.replicas.put(2, new ReplicaStatus("sfc-2-vnf1-r2", 2, null, null, null, false,
                                                 ReplicaStatus.PHASE_ABSENT));
        Map<String, Boolean> r = platform.replicaReadiness(VNF).orElseThrow();
        assertEquals(Map.of("sfc-2-vnf1-r0", true, "sfc-2-vnf1-r1", false, "sfc-2-vnf1-r2", false), r);
        assertEquals(List.of(), bridge.calls);
        // Watch not established (starting, reconnecting, refused): unknown, not "not Ready".
        bridge.watching = false;
        assertEquals(Optional.empty(), platform.replicaReadiness(VNF));
    }

    @Test
    public void theBridgesReadinessChangesReachTheListenerAsTheLoopsReplicas() {
        List<String> told = new ArrayList<>();
        org.srv6int.app.api.ReadinessListener l = (vnf, id, ready) -> told.add(vnf + " " + id + " " + ready);
        platform.addReadinessListener(l);
        platform.addReadinessListener(l); // once only
        assertEquals(1, bridge.listeners.size());
        bridge.listeners.get(0).readinessChanged("2", 1, new ReplicaStatus("sfc-2-vnf1-r0", 0, "sfc-2-vnf1-r0-0",
                                                                          "w1", "10.244.0.9", true, "Running"));
        // A workload of the bridge that is no chain of the app's is not the loop's.
        bridge.listeners.get(0).readinessChanged("it-x", 0, new ReplicaStatus("sfc-it-x-vnf0-r0", 0, null, null,
                                                                             null, false, ReplicaStatus.PHASE_DELETED));
        bridge.listeners.get(0).readinessChanged("2", 1, new ReplicaStatus("sfc-2-vnf1-r0", 0, null, null, null,
                                                                          false, ReplicaStatus.PHASE_DELETED));
        assertEquals(List.of(VNF + " sfc-2-vnf1-r0 true", VNF + " sfc-2-vnf1-r0 false"), told);
        platform.removeReadinessListener(l);
        assertEquals(List.of(), bridge.listeners);
    }
}
