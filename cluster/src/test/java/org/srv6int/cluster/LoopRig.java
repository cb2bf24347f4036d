// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory;
import org.onosproject.codec.CodecContext;
import org.onosproject.net.DeviceId;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.inventory.ReplicaLifecycle;
import org.srv6int.app.rest.SfcCodec;
import org.srv6int.app.testing.MapperCodecContext;
import org.srv6int.app.testing.PaperTestbed;
import org.srv6int.k8s.bridge.ReplicaNames;

import java.io.File;
import java.io.InputStream;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

/**
 * The app's closed loop on {@code ClusterMember} processes, as the fault tests drive it
 * ({@code LoopFaultsTest} on loopback, {@code ClusterPartitionTest} in network namespaces): the
 * members' netcfg (SFC 1 and 2 of the paper's testbed, the Kubernetes bridge against
 * tools/k8s-testenv), the chains and replicas, one switch per member, KWOK's pod-ready delay, and
 * the checks after a fault, read from the members' real stores and the real API server: one
 * inventory through every live member, no SID held twice, every SID claim held by a replica (no
 * leak), one StatefulSet per replica the bridge made (no orphan); Snort's scale-out decisions.
 */
final class LoopRig implements AutoCloseable {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String NS = "srv6int-sfc";
    static final String CHAIN = PaperTestbed.SFC2.toString();
    static final VnfKey SNORT = VnfKey.of(PaperTestbed.SFC2, 0);
    static final String LINKS = "of:0000000000000001/2-of:0000000000000002/1,"
            + "of:0000000000000002/2-of:0000000000000003/1,of:0000000000000003/2-of:0000000000000004/1";
    // liveness bounds only: the figures are printed
    static final Duration BOUND = Duration.ofSeconds(90);
    private static final String STAGE_API = "kwok.x-k8s.io/v1alpha1";

    private final MemberProcesses cluster;
    private final KubernetesClient admin;
    private Object stageDelayBefore;

    /**
     * Opens the admin client beside the bridge's kubeconfig (tools/k8s-testenv writes both),
     * applies the bridge's RBAC, deletes SFC 2's StatefulSets left by an earlier run and sets
     * KWOK's pod-ready delay (restored by {@link #close}).
     */
    LoopRig(MemberProcesses cluster, File bridgeKc, long podReadyDelayMs) throws Exception {
        this.cluster = cluster;
        admin = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(
                new File(bridgeKc.getParentFile(), "admin.kubeconfig")))
                .withHttpClientFactory(new VertxHttpClientFactory()).build();
        try (InputStream in = Files.newInputStream(new File("../k8s-bridge/deploy/bridge-rbac.yaml").toPath())) {
            admin.load(in).forceConflicts().serverSideApply();
        }
        deleteChainObjects();
        GenericKubernetesResource stage = admin.genericKubernetesResources(STAGE_API, "Stage").withName("pod-ready")
                .get();
        assertNotNull("kwok's pod-ready Stage on the API server (start the testenv with SRV6INT_K8S_KWOK_STAGES=crd)",
                      stage);
        stageDelayBefore = stage.get("spec", "delay", "durationMilliseconds");
        setPodReadyDelay(podReadyDelayMs);
    }

    KubernetesClient admin() {
        return admin;
    }

    @Override
    public void close() {
        if (stageDelayBefore != null) {
            setPodReadyDelay(((Number) stageDelayBefore).longValue());
        } else {
            admin.genericKubernetesResources(STAGE_API, "Stage").withName("pod-ready")
                    .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"delay\":null}}");
        }
        deleteChainObjects();
        admin.close();
    }

    void setPodReadyDelay(long millis) {
        admin.genericKubernetesResources(STAGE_API, "Stage").withName("pod-ready")
                .patch(PatchContext.of(PatchType.JSON_MERGE),
                       "{\"spec\":{\"delay\":{\"durationMilliseconds\":" + millis + "}}}");
    }

    private void deleteChainObjects() {
        admin.apps().statefulSets().inNamespace(NS).withLabel(ReplicaNames.LABEL_CHAIN, CHAIN).delete();
    }

    /**
     * The members' netcfg: the paper's testbed, 500 ms windows, t-hat 1.5 s, the bridge.
     *
     * @param collectorAddress the collector's address (each member's own is set by its --int-address)
     * @param reportAddress    each switch's report source address
     */
    static JsonNode netcfg(File bridgeKc, String collectorAddress, Function<DeviceId, String> reportAddress) {
        ObjectNode net = PaperTestbed.netcfg().deepCopy();
        ObjectNode app = (ObjectNode) net.get("apps").get("org.srv6int.app").get("srv6int");
        ((ObjectNode) app.get("collector")).put("address", collectorAddress).put("threads", 1);
        ((ObjectNode) app.get("loop")).put("evaluationPeriodMs", 500).put("tHatMs", 1500)
                .put("demandLatency", "measured").put("replicaSilenceMs", 0);
        ObjectNode k8s = app.putObject("kubernetes");
        k8s.put("kubeconfig", bridgeKc.toString()).put("namespace", NS).put("readyTimeoutMs", 60_000);
        ObjectNode snort = k8s.putObject("vnfTypes").putObject("snort");
        snort.put("image", "registry.local/snort:2.9");
        snort.putObject("requests").put("cpu", "1").put("memory", "1Gi");
        snort.putObject("limits").put("cpu", "1").put("memory", "1Gi");
        for (DeviceId d : PaperTestbed.SWITCHES) {
            ((ObjectNode) net.get("devices").get(d.toString()).get("srv6int"))
                    .put("reportAddress", reportAddress.apply(d)).put("collectorPort", 10);
        }
        return net;
    }

    /**
     * Once the members formed: one switch mastered by each member (SW4 and SW1 by the leader, so
     * every collector gets reports), SFC 1 and 2 and their initial replicas through the leader.
     *
     * @return the leader
     */
    static String deployChains(MemberProcesses cluster) throws Exception {
        String leader = cluster.status(cluster.ids().get(0)).path("leader").asText();
        List<String> order = new ArrayList<>(cluster.ids());
        order.remove(leader);
        order.add(0, leader);
        for (int i = 0; i < 4; i++) {
            DeviceId d = PaperTestbed.SWITCHES.get(3 - i);
            String to = order.get(i % 3);
            assertNotNull("move " + d + " to " + to,
                          cluster.call(leader, "POST", "/master?device=" + d + "&node=" + to));
        }
        CodecContext ctx = new MapperCodecContext(JSON);
        for (var sfc : List.of(PaperTestbed.sfc1(), PaperTestbed.sfc2())) {
            String json = JSON.writeValueAsString(new SfcCodec().encode(sfc, ctx));
            assertNotNull("chain " + sfc.id(), cluster.call(leader, "POST", "/sfc", json));
        }
        for (VnfReplica r : PaperTestbed.initialReplicas()) {
            assertNotNull("replica " + r.id(), cluster.call(leader, "POST", "/register?vnf=" + r.vnf() + "&name="
                    + r.id().name() + "&node=" + r.node() + "&device=" + r.deviceId() + "&port=" + r.port().toLong()
                    + "&sid=" + r.sid() + "&mac=" + r.mac()));
        }
        return leader;
    }

    String leaderSeenBy(String id) {
        JsonNode s = cluster.status(id);
        return s == null || !s.path("leader").isTextual() ? null : s.path("leader").asText();
    }

    /** Polls until the supplier gives a node, up to {@link #BOUND}. */
    static JsonNode await(String what, Supplier<JsonNode> poll) throws InterruptedException {
        return await(what, poll, () -> "");
    }

    // state: what the failure message shows of where things stood
    static JsonNode await(String what, Supplier<JsonNode> poll, Supplier<String> state) throws InterruptedException {
        long end = System.nanoTime() + BOUND.toNanos();
        while (System.nanoTime() < end) {
            JsonNode n = poll.get();
            if (n != null) {
                return n;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("not within " + BOUND.toSeconds() + " s: " + what + state.get());
    }

    /** Snort's decisions of one action as a member's loop lists them, newest first. */
    List<JsonNode> decisions(String id, String action) {
        JsonNode l = cluster.call(id, "GET", "/loop");
        List<JsonNode> out = new ArrayList<>();
        if (l != null) {
            l.path("decisions").forEach(d -> {
                if (d.path("action").asText().equals(action) && d.path("vnf").asText().equals(SNORT.toString())) {
                    out.add(d);
                }
            });
        }
        return out;
    }

    List<StatefulSet> statefulSets() {
        return admin.apps().statefulSets().inNamespace(NS).withLabel(ReplicaNames.LABEL_CHAIN, CHAIN).list()
                .getItems();
    }

    // A member's inventory once every SID claim is held by a replica, or as it is after the bound:
    // a decision that FAILED after a claim (a record's write lost between members) leaves a claim
    // the leader gives back only once it is older than a create takes (ReplicaLifecycle's grace).
    private JsonNode settledInventory(String id) {
        long end = System.nanoTime() + 2 * ReplicaLifecycle.ORPHAN_GRACE_MILLIS * 1_000_000L;
        while (true) {
            JsonNode inv = cluster.call(id, "GET", "/inventory");
            assertNotNull(id + " inventory", inv);
            Set<String> held = new TreeSet<>();
            inv.path("replicas").forEach(r -> held.add(r.path("sid").asText()));
            Set<String> claimed = new TreeSet<>();
            inv.path("sidClaims").fieldNames().forEachRemaining(claimed::add);
            if (held.equals(claimed) || System.nanoTime() > end) {
                return inv;
            }
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return inv;
            }
        }
    }

    /** Replicas, SIDs and StatefulSets as every live member and the API server see them. */
    Set<String> checkReplicasSidsAndWorkloads(int expectSnort) {
        return checkReplicasSidsAndWorkloads(expectSnort, cluster.ids());
    }

    /** As {@link #checkReplicasSidsAndWorkloads(int)}, through the given (live) members only. */
    Set<String> checkReplicasSidsAndWorkloads(int expectSnort, List<String> through) {
        Set<String> views = new TreeSet<>();
        Set<String> snort = null;
        for (String id : through) {
            if (!cluster.alive(id)) {
                continue;
            }
            JsonNode inv = settledInventory(id);
            views.add(inv.path("replicas").toString());
            Set<String> sids = new TreeSet<>();
            Set<String> s = new TreeSet<>();
            inv.path("replicas").fields().forEachRemaining(e -> {
                assertTrue("SID held twice: " + inv, sids.add(e.getValue().path("sid").asText()));
                if (e.getKey().startsWith(SNORT.toString() + "/")) {
                    s.add(e.getKey());
                }
            });
            Map<String, String> claims = new TreeMap<>();
            inv.path("sidClaims").fields().forEachRemaining(e -> claims.put(e.getKey(), e.getValue().asText()));
            assertEquals("every SID claim held by a replica (no leak) through " + id, sids, claims.keySet());
            snort = s;
        }
        assertEquals("one inventory through every member: " + views, 1, views.size());
        assertNotNull(snort);
        assertEquals("Snort replicas " + snort, expectSnort, snort.size());
        Set<String> bridged = snort.stream().map(r -> r.substring(r.indexOf('/', r.indexOf('/') + 1) + 1))
                .filter(n -> !n.equals("r0")).collect(Collectors.toCollection(TreeSet::new));
        Set<String> sts = statefulSets().stream().map(x -> x.getMetadata().getName())
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals("one StatefulSet per replica the bridge made, none orphaned: " + sts + " vs " + bridged,
                     bridged.size(), sts.size());
        return snort;
    }

    /**
     * Snort's replicas in the inventory as a live member reads it: the first that answers, polled
     * up to {@link #BOUND} (under c3's loss or c4's delay one member's read can outlast the
     * driver's 6 s call; seen in CI as a null inventory).
     */
    int currentSnort() {
        JsonNode inv = null;
        long end = System.nanoTime() + BOUND.toNanos();
        while (inv == null) {
            for (String id : cluster.ids()) {
                if (inv == null && cluster.alive(id)) {
                    inv = cluster.call(id, "GET", "/inventory");
                }
            }
            if (inv == null) {
                if (System.nanoTime() > end) {
                    throw new AssertionError("no live member answered an inventory read within "
                                                     + BOUND.toSeconds() + " s");
                }
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
        }
        int n = 0;
        for (Iterator<String> it = inv.path("replicas").fieldNames(); it.hasNext();) {
            if (it.next().startsWith(SNORT.toString() + "/")) {
                n++;
            }
        }
        return n;
    }
}
