// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.k8s;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.srv6int.app.testing.FakeInventory;
import org.srv6int.app.api.model.ReplicaInfo;
import org.junit.After;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;
import org.onosproject.net.config.InvalidFieldException;
import org.onosproject.net.config.NetworkConfigEvent;
import org.srv6int.app.api.model.NodeResources;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.SfcService;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfSpec;
import org.srv6int.app.api.model.FlowClassifier;
import org.srv6int.app.config.KubernetesSettings;
import org.srv6int.app.config.Srv6IntAppConfig;
import org.srv6int.app.testing.FakeConfigService;
import org.srv6int.app.testing.InMemorySfcService;
import org.onlab.packet.IpPrefix;
import org.onosproject.net.ConnectPoint;

import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * The {@code kubernetes} netcfg section and the component built from it, against fabric8's mock
 * API server ({@link KubernetesMock}): bad fields are rejected by name, the platform follows netcfg
 * changes, an unreadable credential file or an unknown vNF type gives a clear failure.
 */
public class KubernetesReplicaPlatformManagerTest {

    private static final SfcId SFC = SfcId.of(3);
    private static final VnfKey SNORT = VnfKey.of(SFC, 0);
    private static final VnfKey NAT = VnfKey.of(SFC, 1);
    private static KubernetesMock k8s;
    private final InMemorySfcService sfcs = new InMemorySfcService(
            Sfc.builder().id(SFC).ingress(ConnectPoint.deviceConnectPoint("device:s1/1"))
                    .egress(ConnectPoint.deviceConnectPoint("device:s4/1"))
                    .classifier(FlowClassifier.between(IpPrefix.valueOf("10.0.0.0/24"),
                                                       IpPrefix.valueOf("10.0.1.0/24")))
                    .vnfs(List.of(new VnfSpec("snort", 600_000), new VnfSpec("nat", 600_000))).build());

    /**
     * Bound of each call and wait on the shared mock server. It is above the up to 30 s the mock
     * can stall an event loop closing an earlier test's watch (KubernetesMock#settle): under load
     * that stall can begin after settle saw the server answer, and a 10 s bound then failed a create
     * (seen once in a full app run on 2 loaded cores). Only a failing test waits this long.
     */
    private static final long CALL_SECONDS = 45;

    @BeforeClass
    public static void start() throws Exception {
        k8s = new KubernetesMock();
        k8s.addNode("worker1", "20", "64Gi");
    }

    @AfterClass
    public static void stop() throws Exception {
        k8s.close();
    }

    /** The shared mock server answers again before the next test (see {@link KubernetesMock#settle}). */
    @After
    public void settle() {
        k8s.settle();
    }

    private static void assertRejected(String kubernetesJson, String field) throws Exception {
        try {
            KubernetesMock.appConfig("{\"kubernetes\":" + kubernetesJson + "}");
            fail("expected " + field + " to be rejected: " + kubernetesJson);
        } catch (InvalidFieldException e) {
            assertTrue(e.getMessage() + " should name " + field, e.getMessage().contains("\"" + field + "\""));
        }
    }

    @Test
    public void badFieldsAreRejectedByName() throws Exception {
        String types = "\"vnfTypes\":{\"snort\":{\"image\":\"i:1\"}}";
        assertRejected("{\"apiServer\":\"ftp://x\",\"tokenFile\":\"/t\"," + types + "}", "kubernetes.apiServer");
        assertRejected("{\"tokenFile\":\"/t\"," + types + "}", "kubernetes.apiServer");
        assertRejected("{\"kubeconfig\":\"/k\",\"tokenFile\":\"/t\",\"apiServer\":\"https://a:6443\"," + types + "}",
                       "kubernetes.kubeconfig");
        assertRejected("{" + types + "}", "kubernetes.kubeconfig");
        assertRejected("{\"kubeconfig\":\"k.yaml\"," + types + "}", "kubernetes.kubeconfig");
        assertRejected("{\"kubeconfig\":\"/k\",\"caFile\":\"/ca.pem\"," + types + "}", "kubernetes.caFile");
        assertRejected("{\"kubeconfig\":\"/k\",\"namespace\":\"Bad_NS\"," + types + "}", "kubernetes.namespace");
        assertRejected("{\"kubeconfig\":\"/k\",\"readyTimeoutMs\":5," + types + "}", "kubernetes.readyTimeoutMs");
        assertRejected("{\"kubeconfig\":\"/k\",\"token\":\"x\"," + types + "}", "kubernetes.token");
        assertRejected("{\"kubeconfig\":\"/k\"}", "kubernetes.vnfTypes");
        assertRejected("{\"kubeconfig\":\"/k\",\"vnfTypes\":{\"snort\":{}}}", "kubernetes.vnfTypes.snort.image");
        assertRejected("{\"kubeconfig\":\"/k\",\"vnfTypes\":{\"snort\":{\"image\":\"i\",\"requests\":"
                               + "{\"cpu\":\"two\"}}}}", "kubernetes.vnfTypes.snort.requests.cpu");
        assertRejected("{\"kubeconfig\":\"/k\",\"vnfTypes\":{\"snort\":{\"image\":\"i\",\"limits\":"
                               + "{\"memory\":4}}}}", "kubernetes.vnfTypes.snort.limits.memory");
        assertRejected("{\"kubeconfig\":\"/k\",\"vnfTypes\":{\"snort fw\":{\"image\":\"i\"}}}",
                       "kubernetes.vnfTypes.snort fw");
        // and a good one parses to the settings the platform uses
        KubernetesSettings s = KubernetesMock.appConfig("{\"kubernetes\":" + k8s.kubernetesJson() + "}")
                .kubernetes().orElseThrow();
        assertEquals(KubernetesMock.NS, s.namespace());
        assertEquals(10_000, s.readyTimeoutMillis());
        assertEquals("registry.local/snort:2.9", s.template("snort").orElseThrow().image());
        assertEquals("{cpu=2, memory=4Gi}", s.template("snort").orElseThrow().requests().toString());
        assertEquals("{cpu=4, memory=4Gi}", s.template("snort").orElseThrow().limits().toString());
        assertTrue(s.template("nat").isEmpty());
    }

    /** A vNF type's netcfg profile reaches the replica's pods as the annotations the node agent holds. */
    @Test
    public void theProfileInNetcfgIsWrittenOnTheReplicasPods() throws Exception {
        FakeConfigService cfg = KubernetesMock.configOf(KubernetesMock.appConfig("{\"kubernetes\":"
                + k8s.kubernetesJson()
                .replace("\"image\":\"registry.local/snort:2.9\",", "\"image\":\"registry.local/snort:2.9\","
                        + "\"profile\":{\"llcWays\":3,\"memoryBandwidthPercent\":20},") + "}"));
        KubernetesReplicaPlatformManager m = KubernetesMock.platform(sfcs, cfg, new KubernetesMock.Netcfg());
        try {
            m.createReplica(SNORT, "worker1", "p1-0").toCompletableFuture().get(CALL_SECONDS, TimeUnit.SECONDS);
            Map<String, String> ann = k8s.statefulSet("sfc-3-vnf0-r0").getSpec().getTemplate()
                    .getMetadata().getAnnotations();
            assertEquals("3", ann.get("srv6int.org/llc-ways"));
            assertEquals("20", ann.get("srv6int.org/memory-bandwidth-percent"));
        } finally {
            m.deactivate();
            k8s.deleteStatefulSet("sfc-3-vnf0-r0");
        }
    }

    @Test
    public void followsNetcfgAndFailsClearlyWithoutUsableSettings() throws Exception {
        FakeConfigService cfg = KubernetesMock.configOf(null);
        KubernetesMock.Netcfg netcfg = new KubernetesMock.Netcfg();
        KubernetesReplicaPlatformManager m = KubernetesMock.platform(sfcs, cfg, netcfg);
        try {
            try {
                m.nodeFreeResources();
                fail("no settings, no platform");
            } catch (IllegalStateException e) {
                assertTrue(e.getMessage(), e.getMessage().contains("not configured"));
            }
            // netcfg gets the section: the platform talks to the API server
            cfg.app = KubernetesMock.appConfig("{\"kubernetes\":" + k8s.kubernetesJson() + "}");
            announce(netcfg);
            assertEquals("worker1", m.nodeFreeResources().get(0).node());
            ReplicaInfo r = m.createReplica(SNORT, "worker1", "d1-0").toCompletableFuture()
                    .get(CALL_SECONDS, TimeUnit.SECONDS);
            assertEquals("sfc-3-vnf0-r0", r.id());
            assertEquals("worker1", r.node());
            try {
                m.createReplica(NAT, "worker1", "d2-0").toCompletableFuture().get(CALL_SECONDS, TimeUnit.SECONDS);
                fail("nat has no image configured");
            } catch (ExecutionException e) {
                assertTrue(e.getCause().getMessage(), e.getCause().getMessage().contains("no image for vNF type nat"));
            }
            assertEquals(List.of("sfc-3-vnf0-r0"), k8s.statefulSetNames());

            // a token file that cannot be read: the platform says which field
            cfg.app = KubernetesMock.appConfig("{\"kubernetes\":" + k8s.kubernetesJson()
                    .replace(k8s.tokenFile.toAbsolutePath().toString(), "/nonexistent/token") + "}");
            announce(netcfg);
            try {
                m.createReplica(SNORT, "worker1", "d3-0").toCompletableFuture().get(CALL_SECONDS, TimeUnit.SECONDS);
                fail("unreadable token file");
            } catch (ExecutionException e) {
                assertTrue(e.getCause().getMessage(), e.getCause().getMessage().contains("kubernetes.tokenFile"));
            }

            // back to good settings; then the section is removed
            cfg.app = KubernetesMock.appConfig("{\"kubernetes\":" + k8s.kubernetesJson() + "}");
            announce(netcfg);
            m.deleteReplica(SNORT, "sfc-3-vnf0-r0").toCompletableFuture().get(CALL_SECONDS, TimeUnit.SECONDS);
            assertEquals(List.of(), k8s.statefulSetNames());
            cfg.app = KubernetesMock.appConfig("{}");
            announce(netcfg);
            try {
                m.nodeFreeResources();
                fail("section removed");
            } catch (IllegalStateException e) {
                assertTrue(e.getMessage(), e.getMessage().contains("not configured"));
            }
        } finally {
            m.deactivate();
        }
        assertTrue(netcfg.listeners.isEmpty());
    }

    @Test
    public void removingAChainDeletesItsWorkloads() throws Exception {
        FakeConfigService cfg = KubernetesMock.configOf(
                KubernetesMock.appConfig("{\"kubernetes\":" + k8s.kubernetesJson() + "}"));
        KubernetesReplicaPlatformManager m = KubernetesMock.platform(sfcs, cfg, new KubernetesMock.Netcfg());
        try {
            m.createReplica(SNORT, "worker1", "g1-0").toCompletableFuture().get(CALL_SECONDS, TimeUnit.SECONDS);
            m.createReplica(SNORT, "worker1", "g1-1").toCompletableFuture().get(CALL_SECONDS, TimeUnit.SECONDS);
            assertEquals(2, k8s.statefulSetNames().size());
            sfcs.removeSfc(SFC);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(CALL_SECONDS);
            while (!k8s.statefulSetNames().isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertEquals(List.of(), k8s.statefulSetNames());
        } finally {
            m.deactivate();
        }
        assertEquals(0, sfcs.listenerCount());
    }

    @Test
    public void workloadsOfChainsThatNoLongerExistAreSwept() throws Exception {
        FakeConfigService cfg = KubernetesMock.configOf(
                KubernetesMock.appConfig("{\"kubernetes\":" + k8s.kubernetesJson() + "}"));
        KubernetesReplicaPlatformManager m = KubernetesMock.platform(sfcs, cfg, new KubernetesMock.Netcfg());
        KubernetesReplicaPlatformManager noChains = null;
        try {
            m.createReplica(SNORT, "worker1", "o1-0").toCompletableFuture().get(CALL_SECONDS, TimeUnit.SECONDS);
            // Chain 3 exists: nothing is an orphan.
            assertEquals(List.of(), m.removeOrphans());
            assertEquals(1, k8s.statefulSetNames().size());
            // An instance whose chains do not include 3 (it was removed while nobody listened).
            SfcService none = new InMemorySfcService();
            noChains = KubernetesMock.platform(none, cfg, new KubernetesMock.Netcfg());
            assertEquals(List.of("3"), noChains.removeOrphans());
            assertEquals(List.of(), k8s.statefulSetNames());
            assertEquals(List.of(), noChains.removeOrphans());
        } finally {
            m.deactivate();
            if (noChains != null) {
                noChains.deactivate();
            }
        }
    }

    /** The sweep's second half: workloads follow the inventory of the chains that exist. */
    @Test
    public void missingWorkloadsAreRecreatedWithTheirIdentityAndUnknownOnesDeleted() throws Exception {
        FakeConfigService cfg = KubernetesMock.configOf(
                KubernetesMock.appConfig("{\"kubernetes\":" + k8s.kubernetesJson() + "}"));
        FakeInventory inventory = new FakeInventory();
        KubernetesReplicaPlatformManager m =
                KubernetesMock.platform(sfcs, cfg, new KubernetesMock.Netcfg(), inventory);
        try {
            m.createReplica(SNORT, "worker1", "m1-0").toCompletableFuture().get(CALL_SECONDS, TimeUnit.SECONDS);
            m.createReplica(SNORT, "worker1", "m1-1").toCompletableFuture().get(CALL_SECONDS, TimeUnit.SECONDS);
            assertEquals(List.of("sfc-3-vnf0-r0", "sfc-3-vnf0-r1"), k8s.statefulSetNames());
            assertEquals(List.of(), m.reconcileReplicas());
            // The loop's failure detector reads pod readiness through the component.
            assertEquals(Set.of("sfc-3-vnf0-r0", "sfc-3-vnf0-r1"),
                         m.replicaReadiness(SNORT).orElseThrow().keySet());
            String sid = k8s.statefulSet("sfc-3-vnf0-r0").getSpec().getTemplate().getMetadata().getAnnotations()
                    .get("srv6int.org/sid");
            // Deleted by hand: the next sweep makes it again, with the same SID.
            k8s.deleteStatefulSet("sfc-3-vnf0-r0");
            // r1 is on its way out: a missing workload of a DRAINING replica is not recreated.
            org.srv6int.app.api.model.VnfReplicaId r1 = org.srv6int.app.api.model.VnfReplicaId.of(SNORT,
                    "sfc-3-vnf0-r1");
            // (it joined first, as the loop has it join once Ready: the life cycle drains no reservation)
            inventory.updateReplica(r1, org.srv6int.app.api.model.ReplicaState.ACTIVE, 1);
            inventory.drainReplica(r1);
            k8s.deleteStatefulSet("sfc-3-vnf0-r1");
            waitFor(() -> k8s.statefulSetNames().isEmpty());
            assertEquals(List.of("+sfc-3-vnf0-r0"), m.reconcileReplicas());
            assertEquals(List.of("sfc-3-vnf0-r0"), k8s.statefulSetNames());
            assertEquals(sid, k8s.statefulSet("sfc-3-vnf0-r0").getSpec().getTemplate().getMetadata()
                    .getAnnotations().get("srv6int.org/sid"));
            // A workload no replica owns (the inventory lost it) is deleted.
            inventory.removeReplica(org.srv6int.app.api.model.VnfReplicaId.of(SNORT, "sfc-3-vnf0-r0"));
            assertEquals(List.of("-sfc-3-vnf0-r0"), m.reconcileReplicas());
            waitFor(() -> k8s.statefulSetNames().isEmpty());
            assertEquals(List.of(), m.reconcileReplicas());
        } finally {
            m.deactivate();
        }
    }

    /** A pod on a node without a switch attachment would never get traffic: no such node is offered. */
    @Test
    public void onlyNodesWithASwitchAttachmentAreOffered() throws Exception {
        try (KubernetesMock own = new KubernetesMock()) {
            own.addNode("worker9", "16", "64Gi");
            FakeConfigService cfg = KubernetesMock.configOf(
                    KubernetesMock.appConfig("{\"kubernetes\":" + own.kubernetesJson() + "}"));
            KubernetesReplicaPlatformManager m = KubernetesMock.platform(sfcs, cfg, new KubernetesMock.Netcfg());
            try {
                try {
                    m.nodeFreeResources();
                    fail("worker9 has no switch attachment in the paper's netcfg");
                } catch (IllegalStateException e) {
                    assertTrue(e.getMessage(), e.getMessage().contains(
                            "no eligible node: [worker9] have no switch attachment in netcfg"));
                }
                own.addNode("worker2", "20", "64Gi");
                // the bridge answers from its watch of the nodes: the new node shows within a watch event
                List<String> offered = List.of();
                for (long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(CALL_SECONDS);
                     !offered.contains("worker2") && System.nanoTime() < end; Thread.sleep(20)) {
                    try {
                        offered = m.nodeFreeResources().stream().map(NodeResources::node)
                                .collect(Collectors.toList());
                    } catch (IllegalStateException e) {
                        offered = List.of(); // still only worker9 seen
                    }
                }
                assertEquals(List.of("worker2"), offered);
            } finally {
                KubernetesMock.stop(m);
            }
        }
    }

    /**
     * The loop's failure detector reads pod readiness through the component: unknown while there
     * is no platform, then the bridge's watch, and a pod that stops being Ready reads false and is
     * pushed to the component's listeners, which outlive a rebuild of the platform.
     */
    @Test
    public void podReadinessIsTheBridgesWatchPushedToListenersAndUnknownWithoutAPlatform() throws Exception {
        try (KubernetesMock own = new KubernetesMock()) {
            own.addNode("worker1", "20", "64Gi");
            FakeConfigService cfg = KubernetesMock.configOf(null);
            KubernetesMock.Netcfg netcfg = new KubernetesMock.Netcfg();
            KubernetesReplicaPlatformManager m = KubernetesMock.platform(sfcs, cfg, netcfg);
            try {
                List<String> told = new CopyOnWriteArrayList<>();
                m.addReadinessListener((vnf, id, ready) -> told.add(vnf.index() + " " + id + " " + ready));
                assertEquals("not configured: judged by INT alone", Optional.empty(),
                             m.replicaReadiness(SNORT));
                cfg.app = KubernetesMock.appConfig("{\"kubernetes\":" + own.kubernetesJson() + "}");
                announce(netcfg);
                waitFor(() -> m.replicaReadiness(SNORT).isPresent()); // the watch's first listing
                assertEquals(Optional.of(Map.of()), m.replicaReadiness(SNORT));
                m.createReplica(SNORT, "worker1", "p1-0").toCompletableFuture().get(CALL_SECONDS, TimeUnit.SECONDS);
                // The create waited on the same watch: Ready there already, and told.
                assertEquals(Optional.of(Map.of("sfc-3-vnf0-r0", true)),
                             m.replicaReadiness(SNORT));
                assertEquals("0 sfc-3-vnf0-r0 true", told.get(told.size() - 1));
                assertEquals("another vNF's replicas are not this one's", Optional.of(Map.of()),
                             m.replicaReadiness(NAT));
                // The kubelet reports the pod not Ready (e.g. its readiness probe fails).
                own.admin.pods().inNamespace(KubernetesMock.NS).withName("sfc-3-vnf0-r0-0").edit(
                        p -> new io.fabric8.kubernetes.api.model.PodBuilder(p).editStatus().withConditions(
                                new io.fabric8.kubernetes.api.model.PodConditionBuilder().withType("Ready")
                                        .withStatus("False").build()).endStatus().build());
                waitFor(() -> told.get(told.size() - 1).equals("0 sfc-3-vnf0-r0 false"));
                assertEquals(Optional.of(Map.of("sfc-3-vnf0-r0", false)),
                             m.replicaReadiness(SNORT));
                // The section goes: unknown again, not "every pod dead".
                cfg.app = KubernetesMock.appConfig("{}");
                announce(netcfg);
                assertEquals(Optional.empty(), m.replicaReadiness(SNORT));
                // Back: the new platform's watch tells its first listing to the same listeners.
                told.clear();
                cfg.app = KubernetesMock.appConfig("{\"kubernetes\":" + own.kubernetesJson() + "}");
                announce(netcfg);
                waitFor(() -> told.contains("0 sfc-3-vnf0-r0 false"));
            } finally {
                KubernetesMock.stop(m);
            }
        }
    }

    private static void waitFor(BooleanSupplier done) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(CALL_SECONDS);
        while (!done.getAsBoolean() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertTrue("condition not met within 10 s", done.getAsBoolean());
    }

    private static void announce(KubernetesMock.Netcfg netcfg) {
        NetworkConfigEvent e = new NetworkConfigEvent(NetworkConfigEvent.Type.CONFIG_UPDATED, "org.srv6int.app",
                                                      Srv6IntAppConfig.class);
        List.copyOf(netcfg.listeners).forEach(l -> l.event(e));
    }
}
