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
import org.junit.AfterClass;
import org.junit.Assume;
import org.junit.BeforeClass;
import org.junit.FixMethodOrder;
import org.junit.Test;
import org.junit.runners.MethodSorters;
import org.onosproject.codec.CodecContext;
import org.onosproject.codec.JsonCodec;
import org.onosproject.net.DeviceId;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.config.Srv6DeviceConfig;
import org.srv6int.app.loop.GlobalLoop;
import org.srv6int.app.loop.LoopParams;
import org.srv6int.app.rest.SfcCodec;
import org.srv6int.app.telemetry.HopBinding;
import org.srv6int.app.telemetry.HopBindings;
import org.srv6int.app.testing.AppHarness;
import org.srv6int.app.testing.PaperTestbed;
import org.srv6int.app.testing.TestReports;
import org.srv6int.k8s.bridge.ReplicaNames;

import java.io.File;
import java.io.InputStream;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

/**
 * The app's closed loop on a real cluster: three {@code ClusterMember} JVMs over Atomix, each
 * running the whole app core ({@code LoopAssembly}: its INT collector on its own loopback UDP
 * port, the cluster-wide telemetry summaries, the Kubernetes replica platform with the real
 * bridge against the real kube-apiserver + KWOK of tools/k8s-testenv, the global loop). A steady
 * INT report load (SFC 2's Snort over its bound) goes from the four switches to the collector
 * of each switch's master, re-pointed when the test sees the master move. Cases, in order:
 * the leader is killed ({@code kill -9}) in the middle of a scale-out (the write-ahead done, the
 * pod held not Ready by KWOK's pod-ready stage); then a member is restarted with its data directory
 * wiped; last, the leader halts between a SID claim and the replica's store (the member's test-only
 * fault point, {@code SRV6INT_FAULTPOINT}; last: its third Snort replica is scaled in afterwards).
 * After each: the chains and replicas are the expected set through every live
 * member — exactly the registered {@code r0} and the bridge's {@code sfc-2-vnf0-r0..r(k-1)}, k as
 * the scale-out decisions asked (their n and target checked against their recorded inputs) —,
 * exactly one StatefulSet per replica the bridge made (none for {@code r0}, no orphan), every SID
 * claim held by a replica (no leak), the decision in flight ended once. Figures are printed
 * ("loopfaults:" lines).
 * Runs when {@code srv6int.kubeconfig} names the bridge's kubeconfig (tests/ci.d/30-k8s.sh),
 * else skipped.
 */
@FixMethodOrder(MethodSorters.NAME_ASCENDING)
public class LoopFaultsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String NS = "srv6int-sfc";
    private static final String CHAIN = PaperTestbed.SFC2.toString();
    private static final VnfKey SNORT = VnfKey.of(PaperTestbed.SFC2, 0);
    private static final Duration FORM = Duration.ofMinutes(3);
    // liveness bounds only: the figures are printed
    private static final Duration BOUND = Duration.ofSeconds(90);
    private static final long POD_READY_DELAY_MS = 10_000;
    private static final long VIOLATING_NS = 2_000_000;
    // inside Lmax (1 ms) and above the low-load bound: neither a scale-out nor a scale-in
    private static final long STEADY_NS = 600_000;
    private static final String STAGE_API = "kwok.x-k8s.io/v1alpha1";
    private static final String ARM_FILE = "sid-claim-fault.arm";
    // FaultPoint.HALT_STATUS: the member halted at the fault point, not some other way
    private static final int FAULT_HALT_STATUS = 86;
    // the loop's default (the netcfg here does not change it)
    private static final int MAX_REPLICAS = LoopParams.builder().build().maxReplicas();

    private static Path dir;
    private static MemberProcesses cluster;
    private static KubernetesClient admin;
    private static Object stageDelayBefore;
    private static Sender sender;

    @BeforeClass
    public static void start() throws Exception {
        String kc = System.getProperty("srv6int.kubeconfig");
        if (kc == null || kc.isBlank()) {
            System.out.println("LoopFaultsTest skipped: no control plane (set -Dsrv6int.kubeconfig=<bridge "
                                       + "kubeconfig>; tests/ci.d/72-cluster-loop.sh starts tools/k8s-testenv)");
            Assume.assumeTrue(false);
        }
        File bridgeKc = new File(kc).getAbsoluteFile();
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
        setPodReadyDelay(POD_READY_DELAY_MS);

        dir = Files.createTempDirectory("clo-loop");
        String devices = PaperTestbed.SWITCHES.stream().map(DeviceId::toString).collect(Collectors.joining(","));
        cluster = new MemberProcesses(dir, 3, devices);
        // the member's test-only fault point (FaultPoint): armed by case d1 creating the file
        cluster.env("SRV6INT_FAULTPOINT", "halt-after-sid-claim:" + dir.resolve(ARM_FILE));
        Path netcfg = dir.resolve("netcfg.json");
        Files.writeString(netcfg, JSON.writeValueAsString(netcfg(bridgeKc)));
        String links = "of:0000000000000001/2-of:0000000000000002/1,of:0000000000000002/2-of:0000000000000003/1,"
                + "of:0000000000000003/2-of:0000000000000004/1";
        Map<String, Integer> intPorts = new TreeMap<>();
        for (String id : cluster.ids()) {
            int port;
            try (DatagramSocket s = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
                port = s.getLocalPort();
            }
            intPorts.put(id, port);
            cluster.args(id, List.of("--netcfg", netcfg.toString(), "--int-port", String.valueOf(port),
                                     "--links", links));
            cluster.start(id);
        }
        for (String id : cluster.ids()) {
            assertNotNull(id + " did not form:\n" + cluster.log(id), cluster.awaitStatus(
                    id, s -> s.path("leader").isTextual() && s.path("masters").size() == 4, FORM));
        }
        // one switch per member (SW4 too, to the leader): every collector gets reports
        String leader = cluster.status("m1").path("leader").asText();
        List<String> order = new ArrayList<>(cluster.ids());
        order.remove(leader);
        order.add(0, leader);
        for (int i = 0; i < 4; i++) {
            DeviceId d = PaperTestbed.SWITCHES.get(3 - i);
            String to = order.get(i % 3);
            assertNotNull("move " + d + " to " + to,
                          cluster.call(leader, "POST", "/master?device=" + d + "&node=" + to));
        }
        String sfcs;
        for (var sfc : List.of(PaperTestbed.sfc1(), PaperTestbed.sfc2())) {
            sfcs = JSON.writeValueAsString(new SfcCodec().encode(sfc, new CodecContext() {
                @Override
                public ObjectMapper mapper() {
                    return JSON;
                }

                @Override
                public <T> JsonCodec<T> codec(Class<T> entityClass) {
                    throw new UnsupportedOperationException();
                }

                @Override
                public <T> T getService(Class<T> serviceClass) {
                    throw new UnsupportedOperationException();
                }
            }));
            assertNotNull("chain " + sfc.id(), cluster.call(leader, "POST", "/sfc", sfcs));
        }
        for (VnfReplica r : PaperTestbed.initialReplicas()) {
            assertNotNull("replica " + r.id(), cluster.call(leader, "POST", "/register?vnf=" + r.vnf() + "&name="
                    + r.id().name() + "&node=" + r.node() + "&device=" + r.deviceId() + "&port=" + r.port().toLong()
                    + "&sid=" + r.sid() + "&mac=" + r.mac()));
        }
        sender = new Sender(intPorts);
        sender.start();
    }

    @AfterClass
    public static void stop() throws Exception {
        if (sender != null) {
            sender.stopSending();
        }
        if (cluster != null) {
            cluster.close();
        }
        if (admin != null) {
            if (stageDelayBefore != null) {
                setPodReadyDelay(((Number) stageDelayBefore).longValue());
            } else {
                admin.genericKubernetesResources(STAGE_API, "Stage").withName("pod-ready")
                        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"delay\":null}}");
            }
            deleteChainObjects();
            admin.close();
        }
    }

    private static void setPodReadyDelay(long millis) {
        admin.genericKubernetesResources(STAGE_API, "Stage").withName("pod-ready")
                .patch(PatchContext.of(PatchType.JSON_MERGE),
                       "{\"spec\":{\"delay\":{\"durationMilliseconds\":" + millis + "}}}");
    }

    private static void deleteChainObjects() {
        admin.apps().statefulSets().inNamespace(NS).withLabel(ReplicaNames.LABEL_CHAIN, CHAIN).delete();
    }

    private static JsonNode netcfg(File bridgeKc) {
        ObjectNode net = PaperTestbed.netcfg().deepCopy();
        ObjectNode app = (ObjectNode) net.get("apps").get("org.srv6int.app").get("srv6int");
        ((ObjectNode) app.get("collector")).put("address", "127.0.0.1").put("threads", 1);
        ((ObjectNode) app.get("loop")).put("evaluationPeriodMs", 500).put("tHatMs", 1500)
                .put("demandLatency", "measured").put("replicaSilenceMs", 0);
        ObjectNode k8s = app.putObject("kubernetes");
        k8s.put("kubeconfig", bridgeKc.toString()).put("namespace", NS).put("readyTimeoutMs", 60_000);
        ObjectNode snort = k8s.putObject("vnfTypes").putObject("snort");
        snort.put("image", "registry.local/snort:2.9");
        snort.putObject("requests").put("cpu", "1").put("memory", "1Gi");
        snort.putObject("limits").put("cpu", "1").put("memory", "1Gi");
        for (DeviceId d : PaperTestbed.SWITCHES) {
            ((ObjectNode) net.get("devices").get(d.toString()).get("srv6int")).put("reportAddress", reportAddress(d))
                    .put("collectorPort", 10);
        }
        return net;
    }

    private static String reportAddress(DeviceId d) {
        return "127.0.0." + (10 + PaperTestbed.SWITCHES.indexOf(d) + 1);
    }

    /**
     * The four switches' INT reports of SFC 2, 50 per second each, to the collector of the switch's
     * master as the live members last told (a switch re-pointed when its master moves); counts
     * what it sent to each member.
     */
    private static final class Sender extends Thread {
        private final Map<String, Integer> ports;
        private final Map<String, AtomicLong> sent = new ConcurrentHashMap<>();
        private final Map<DeviceId, String> masters = new ConcurrentHashMap<>();
        private final Map<DeviceId, Long> seqs = new HashMap<>();
        private final Map<DeviceId, DatagramChannel> switches = new HashMap<>();
        private final Map<Integer, HopBinding> hops = new TreeMap<>();
        private volatile long latencyNs = VIOLATING_NS;
        private volatile boolean running = true;
        // held while the test reads sent and accepted counts together
        private final Object quiet = new Object();
        private final AppHarness local = new AppHarness();

        Sender(Map<String, Integer> ports) throws Exception {
            super("clo-int-sender");
            setDaemon(true);
            this.ports = ports;
            ports.keySet().forEach(id -> sent.put(id, new AtomicLong()));
            // the hop layout of SFC 2 as every member computes it from the same chains and netcfg
            local.deployFig5();
            local.settle();
            for (HopBinding b : HopBindings.of(local.pathManager.getAllPaths().values(), local.inventory::getReplica,
                                               d -> PaperTestbed.devices().get(d).map(Srv6DeviceConfig::intDeviceId))) {
                if (b.chainTag() == PaperTestbed.SFC2.tag()) {
                    hops.putIfAbsent(b.hop(), b);
                }
            }
            for (DeviceId d : PaperTestbed.SWITCHES) {
                switches.put(d, DatagramChannel.open().bind(new InetSocketAddress(reportAddress(d), 0)));
            }
            refreshMasters();
        }

        void refreshMasters() {
            for (String id : cluster.ids()) {
                if (!cluster.alive(id)) {
                    continue;
                }
                JsonNode s = cluster.status(id);
                if (s != null && s.path("connected").asBoolean(true)) {
                    for (Iterator<Map.Entry<String, JsonNode>> it = s.path("masters").fields(); it.hasNext();) {
                        Map.Entry<String, JsonNode> e = it.next();
                        if (e.getValue().isTextual()) {
                            masters.put(DeviceId.deviceId(e.getKey()), e.getValue().asText());
                        }
                    }
                    return;
                }
            }
        }

        @Override
        public void run() {
            int hopCount = ((TreeMap<Integer, HopBinding>) hops).lastKey() + 2;
            long lastRefresh = 0;
            while (running) {
                try {
                    if (System.nanoTime() - lastRefresh > 200_000_000L) {
                        refreshMasters();
                        lastRefresh = System.nanoTime();
                    }
                    synchronized (quiet) {
                        sendRound(hopCount);
                    }
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    return;
                } catch (Exception e) {
                    System.out.println("loopfaults: sender: " + e);
                }
            }
        }

        private void sendRound(int hopCount) throws Exception {
            for (DeviceId d : PaperTestbed.SWITCHES) {
                String to = masters.get(d);
                if (to == null) {
                    continue;
                }
                int dev = PaperTestbed.devices().get(d).map(Srv6DeviceConfig::intDeviceId).orElseThrow();
                TestReports enc = new TestReports(PaperTestbed.SFC2.tag(), dev, hopCount);
                long seq = seqs.getOrDefault(d, 0L);
                int counter = (int) ((seq * 10) & 0xFFFF);
                TestReports.Hop[] h = new TestReports.Hop[hopCount];
                for (int k = 0; k < hopCount; k++) {
                    HopBinding b = hops.get(k);
                    long lat = b == null ? 0 : latencyNs;
                    int hd = k == 0 ? 1 : b == null ? 4 : b.deviceId();
                    h[k] = new TestReports.Hop(hd, 0, 1_000L * k + lat, lat, counter);
                }
                byte[] p = enc.payload(seq, h);
                seqs.put(d, seq + 1);
                switches.get(d).send(ByteBuffer.wrap(p), new InetSocketAddress("127.0.0.1", ports.get(to)));
                sent.get(to).incrementAndGet();
            }
        }

        /**
         * Sent and accepted counts per member read together: sending held until the datagrams in
         * flight are counted. A member that does not answer: -1 accepted.
         */
        Map<String, long[]> counts() throws InterruptedException {
            synchronized (quiet) {
                Thread.sleep(300);
                Map<String, long[]> m = new TreeMap<>();
                for (String id : cluster.ids()) {
                    m.put(id, new long[] {sent.get(id).get(), cluster.alive(id) ? accepted(id) : -1});
                }
                return m;
            }
        }

        void stopSending() throws Exception {
            running = false;
            interrupt();
            join(5000);
            for (DatagramChannel c : switches.values()) {
                c.close();
            }
        }

    }

    private static long accepted(String id) {
        JsonNode c = cluster.call(id, "GET", "/collector");
        return c == null ? -1 : c.path("counters").path("reportsAccepted").asLong();
    }

    private static String leaderSeenBy(String id) {
        JsonNode s = cluster.status(id);
        return s == null || !s.path("leader").isTextual() ? null : s.path("leader").asText();
    }

    private static JsonNode await(String what, Supplier<JsonNode> poll) throws InterruptedException {
        return await(what, poll, () -> "");
    }

    // state: what the failure message shows of where things stood
    private static JsonNode await(String what, Supplier<JsonNode> poll, Supplier<String> state)
            throws InterruptedException {
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

    // A decision not ending as expected: the leader's decisions, the inventory, the StatefulSets
    private static String loopState(String id) {
        return "\n/loop of " + id + ": " + cluster.call(id, "GET", "/loop") + "\n/inventory: "
                + cluster.call(id, "GET", "/inventory") + "\nStatefulSets: " + statefulSets().stream()
                .map(x -> x.getMetadata().getName()).collect(Collectors.toList());
    }

    private static List<JsonNode> decisions(String id, String action) {
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

    private static List<StatefulSet> statefulSets() {
        return admin.apps().statefulSets().inNamespace(NS).withLabel(ReplicaNames.LABEL_CHAIN, CHAIN).list()
                .getItems();
    }

    /** Replicas, SIDs and StatefulSets as every live member and the API server see them. */
    private static Set<String> checkReplicasSidsAndWorkloads(int expectSnort) {
        Set<String> views = new TreeSet<>();
        Set<String> snort = null;
        for (String id : cluster.ids()) {
            if (!cluster.alive(id)) {
                continue;
            }
            JsonNode inv = cluster.call(id, "GET", "/inventory");
            assertNotNull(id + " inventory", inv);
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
        // Exactly these: the registered one(s) of PaperTestbed (made by no bridge: no StatefulSet) and the
        // bridge's sfc-2-vnf0-r0, -r1, ... (the platform takes the smallest index free; nothing is scaled
        // in during the cases): a replica made twice would show as one index more, a lost one as a gap
        Set<String> registered = new TreeSet<>();
        PaperTestbed.initialReplicas().stream().filter(r -> r.vnf().equals(SNORT))
                .forEach(r -> registered.add(r.id().name()));
        Set<String> bridged = new TreeSet<>();
        for (int k = 0; k < expectSnort - registered.size(); k++) {
            bridged.add(ReplicaNames.replicaName(CHAIN, SNORT.index(), k));
        }
        Set<String> expected = new TreeSet<>();
        registered.forEach(n -> expected.add(SNORT + "/" + n));
        bridged.forEach(n -> expected.add(SNORT + "/" + n));
        assertEquals("Snort replicas", expected, snort);
        Set<String> sts = statefulSets().stream().map(x -> x.getMetadata().getName())
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals("one StatefulSet per replica the bridge made, none orphaned, none for a registered one",
                     bridged, sts);
        return snort;
    }

    /**
     * The replicas a scale-out decision adds, checked against Algorithm 4 on the inputs its leader
     * recorded: n = ceil(C_i / C*_i) (one more than now while C* is unknown: no window within the
     * bound yet), target = min(max replicas, max(n, before + 1)); and the plan that carried it out
     * (a resumed one names its size) adds exactly that many. How many varies from run to run (1 to 3
     * seen in d1): C* = R*·L*, R* the highest per-replica rate of a window within the bound, which
     * the cases' master moves make noisy; what is checked is that the replicas afterwards are
     * exactly what the decision asked for, none more (a replica made twice) and none fewer.
     */
    private static int plannedAdd(JsonNode d) {
        JsonNode in = d.path("inputs");
        assertTrue("the loop's inputs of " + d, in.has(GlobalLoop.IN_N) && in.has(LoopDecision.IN_CAPACITY));
        int before = d.path("before").asInt();
        double cStar = in.path(LoopDecision.IN_CAPACITY).asDouble();
        int n = cStar > 0 ? (int) Math.ceil(in.path(LoopDecision.IN_DEMAND).asDouble() / cStar) : before + 1;
        assertEquals("n of " + d, n, in.path(GlobalLoop.IN_N).asInt());
        int add = Math.min(MAX_REPLICAS, Math.max(n, before + 1)) - before;
        assertEquals("target of " + d, before + add, d.path("after").asInt());
        String detail = d.path("detail").asText();
        if (detail.contains("resumed after a leader change: ")) {
            assertTrue("the resumed plan adds " + add + ": " + d,
                       detail.contains("resumed after a leader change: " + add + " replica(s)"));
        }
        return add;
    }

    private static String inputs(JsonNode d) {
        JsonNode in = d.path("inputs");
        return String.format("n %d = ceil(C_i %.1f / C* %.1f)", in.path(GlobalLoop.IN_N).asInt(),
                             in.path(LoopDecision.IN_DEMAND).asDouble(), in.path(LoopDecision.IN_CAPACITY).asDouble());
    }

    @Test
    public void a1KillOfTheLeaderInTheMiddleOfAScaleOutIsFinishedOnceByTheNext() throws Exception {
        String leader = await("a leader", () -> {
            String l = leaderSeenBy("m1");
            return l == null ? null : JSON.getNodeFactory().textNode(l);
        }).asText();
        // the violation lasts t-hat: the leader scales out; KWOK holds the new pod not Ready
        JsonNode inFlight = await("a scale-out in flight on " + leader, () -> {
            List<JsonNode> d = decisions(leader, "SCALE_OUT");
            return !d.isEmpty() && d.get(0).path("outcome").asText().equals("IN_PROGRESS") && !statefulSets().isEmpty()
                    ? d.get(0) : null;
        });
        // Snort violates from the start: no window within its bound, C* unknown, so one replica more
        int add = plannedAdd(inFlight);
        assertEquals("one replica more while C* is unknown: " + inFlight, 1, add);
        say("leader " + leader + " decided " + inFlight + "; StatefulSets " + statefulSets().size());
        sender.latencyNs = STEADY_NS;
        List<String> survivors = new ArrayList<>(cluster.ids());
        survivors.remove(leader);
        Map<String, long[]> before = sender.counts();
        long killedAt = System.currentTimeMillis();
        long t0 = System.nanoTime();
        cluster.kill(leader);
        String next = await("a new leader", () -> {
            String l = leaderSeenBy(survivors.get(0));
            return l != null && !l.equals(leader) ? JSON.getNodeFactory().textNode(l) : null;
        }).asText();
        double electedS = (System.nanoTime() - t0) / 1e9;
        JsonNode round = await("a loop round on " + next, () -> {
            JsonNode l = cluster.call(next, "GET", "/loop");
            return l != null && l.path("leading").asBoolean() && l.path("lastRoundMillis").asLong() > killedAt ? l
                    : null;
        });
        double roundS = (round.path("lastRoundMillis").asLong() - killedAt) / 1e3;
        // the decision finishes once: pod Ready (after KWOK's delay), joined, SUCCEEDED on the new leader
        JsonNode done = await("the scale-out finished by " + next, () -> {
            List<JsonNode> d = decisions(next, "SCALE_OUT");
            return !d.isEmpty() && d.get(0).path("outcome").asText().equals("SUCCEEDED") ? d.get(0) : null;
        }, () -> loopState(next));
        double doneS = (System.nanoTime() - t0) / 1e9;
        assertEquals("one scale-out decision on the new leader: " + decisions(next, "SCALE_OUT"), 1,
                     decisions(next, "SCALE_OUT").size());
        assertEquals("the same decision (its time)", inFlight.path("timeMillis").asLong(),
                     done.path("timeMillis").asLong());
        assertTrue(done.toString(), done.path("detail").asText().contains("resumed after a leader change"));
        assertEquals("the resumed decision asks for the same: " + done, add, plannedAdd(done));
        Thread.sleep(2000); // two more rounds: nothing repeated
        Set<String> snort = checkReplicasSidsAndWorkloads(1 + add);
        assertEquals(1, decisions(next, "SCALE_OUT").size());
        // the killed leader's switches: the first report their new master accepts. A figure, not
        // asserted: the device mastership's re-election is the Atomix layer's (docs/cluster.md, open findings)
        String remastered;
        long r0 = System.nanoTime();
        long rEnd = r0 + Duration.ofSeconds(30).toNanos();
        while (true) {
            sender.refreshMasters();
            if (sender.masters.values().stream().noneMatch(leader::equals)) {
                remastered = String.format("%.2f s", (System.nanoTime() - t0) / 1e9);
                break;
            }
            if (System.nanoTime() > rEnd) {
                remastered = "NOT within " + String.format("%.0f s", (System.nanoTime() - t0) / 1e9) + " (views: "
                        + survivors.stream().map(id -> id + " " + cluster.call(id, "GET", "/status"))
                        .collect(Collectors.joining("; ")) + ")";
                break;
            }
            Thread.sleep(100);
        }
        Map<String, long[]> after = sender.counts();
        StringBuilder perInstance = new StringBuilder();
        for (String id : cluster.ids()) {
            long s = after.get(id)[0] - before.get(id)[0];
            long a = id.equals(leader) ? -1 : after.get(id)[1] - before.get(id)[1];
            perInstance.append(' ').append(id).append(' ').append(a < 0 ? "killed" : String.valueOf(a)).append('/')
                    .append(s);
            if (a >= 0) {
                assertTrue(id + " accepted " + a + " of " + s + " sent", a <= s);
                assertTrue(id + " accepted " + a + " of " + s + " sent", a >= s * 8 / 10);
            }
        }
        say(String.format("kill -9 of leader %s mid scale-out: new leader %s seen after %.2f s, its first loop "
                                  + "round %.2f s after the kill, switches re-mastered (first report to the new "
                                  + "master) after %s, decision SUCCEEDED %.1f s after the kill (KWOK holds the "
                                  + "pod %d s); Snort replicas %s; StatefulSets %d; INT reports accepted/sent since "
                                  + "the kill:%s", leader, next, electedS, roundS, remastered, doneS,
                          POD_READY_DELAY_MS / 1000, snort, statefulSets().size(), perInstance));
        // back for the next case
        cluster.start(leader);
        assertNotNull(leader + " rejoined", cluster.awaitStatus(leader, s -> s.path("leader").isTextual(), FORM));
    }

    @Test
    public void d1KillBetweenASidClaimAndTheReplicasStoreLeaksNoSid() throws Exception {
        for (String id : cluster.ids()) {
            if (!cluster.alive(id)) {
                cluster.start(id); // an earlier case that failed left it down
            }
        }
        for (String id : cluster.ids()) {
            assertNotNull(id + " up", cluster.awaitStatus(id, s -> s.path("leader").isTextual(), FORM));
        }
        String leader = await("a leader", () -> {
            String l = leaderSeenBy(cluster.ids().get(0));
            return l == null ? null : JSON.getNodeFactory().textNode(l);
        }).asText();
        int snortBefore = checkReplicasSidsAndWorkloads(currentSnort()).size();
        int setsBefore = statefulSets().size();
        List<String> survivors = new ArrayList<>(cluster.ids());
        survivors.remove(leader);
        // armed now: the next SID claim anywhere (the leader's, for its scale-out) halts its member
        Files.createFile(dir.resolve(ARM_FILE));
        sender.latencyNs = VIOLATING_NS;
        await("the leader " + leader + " halted at the fault point", () ->
                cluster.exitStatus(leader) != null ? JSON.getNodeFactory().nullNode() : null);
        long haltedAt = System.currentTimeMillis();
        // at once: the next leader (elected within seconds) makes it when it resumes
        assertEquals("no StatefulSet made for the claimed replica at the halt", setsBefore, statefulSets().size());
        long t0 = System.nanoTime();
        sender.latencyNs = STEADY_NS;
        assertEquals("exit status of " + leader + " (the fault point's halt):\n" + cluster.log(leader),
                     FAULT_HALT_STATUS, (int) cluster.exitStatus(leader));
        assertTrue(cluster.log(leader), cluster.log(leader).contains("FAULTPOINT halt-after-sid-claim: claimed"));
        // the claim is in the store and no replica holds it: the window the fault point opened
        // (read once the survivors' partitions have elected: the halted leader led some)
        JsonNode inv = await("an inventory read through " + survivors.get(0),
                             () -> cluster.call(survivors.get(0), "GET", "/inventory"));
        Set<String> held = new TreeSet<>();
        inv.path("replicas").forEach(r -> held.add(r.path("sid").asText()));
        // the halted leader's claim (its log names it); the next leader's resume may hold another
        // claim without its record for a moment (a create in progress)
        String log = cluster.log(leader);
        String claimed = log.substring(log.indexOf("FAULTPOINT halt-after-sid-claim: claimed ")).split(" ")[3];
        assertTrue("the halted leader's claim " + claimed + " in the store, held by no replica: " + inv,
                   inv.path("sidClaims").has(claimed) && !held.contains(claimed));
        Set<String> orphans = Set.of(claimed);
        String next = await("a new leader", () -> {
            String l = leaderSeenBy(survivors.get(0));
            return l != null && !l.equals(leader) ? JSON.getNodeFactory().textNode(l) : null;
        }).asText();
        double electedS = (System.nanoTime() - t0) / 1e9;
        JsonNode done = await("the scale-out finished by " + next, () -> {
            List<JsonNode> d = decisions(next, "SCALE_OUT");
            return !d.isEmpty() && d.get(0).path("outcome").asText().equals("SUCCEEDED") ? d.get(0) : null;
        }, () -> loopState(next));
        double doneS = (System.nanoTime() - t0) / 1e9;
        assertTrue(done.toString(), done.path("detail").asText().contains("resumed after a leader change"));
        int add = plannedAdd(done);
        assertEquals("the decision of " + snortBefore + " Snort replicas: " + done, snortBefore,
                     done.path("before").asInt());
        assertTrue("decided by the halted leader, before the halt: " + done,
                   done.path("timeMillis").asLong() <= haltedAt);
        // the orphan claim goes back once older than a create takes (ReplicaLifecycle.ORPHAN_GRACE_MILLIS)
        String orphan = orphans.iterator().next();
        await("the orphan claim " + orphan + " released", () -> {
            JsonNode i = cluster.call(next, "GET", "/inventory");
            return i != null && !i.path("sidClaims").has(orphan) ? i : null;
        });
        double releasedS = (System.nanoTime() - t0) / 1e9;
        Thread.sleep(2000); // more rounds: nothing repeated
        Set<String> snort = checkReplicasSidsAndWorkloads(snortBefore + add);
        assertEquals("one scale-out decision on the new leader: " + decisions(next, "SCALE_OUT"), 1,
                     decisions(next, "SCALE_OUT").size());
        assertEquals("one StatefulSet more", setsBefore + add, statefulSets().size());
        say(String.format("halt of leader %s between a SID claim (%s) and the replica's store: new leader %s seen "
                                  + "after %.2f s, decision SUCCEEDED (resumed, %d replica(s) added: %s, target "
                                  + "%d) %.1f s after the halt, the orphan claim released %.1f s after it; Snort "
                                  + "replicas %s; StatefulSets %d; SIDs leaked 0, replicas doubled 0", leader, orphan,
                          next, electedS, add, inputs(done), snortBefore + add, doneS, releasedS, snort,
                          statefulSets().size()));
        cluster.start(leader);
        assertNotNull(leader + " rejoined", cluster.awaitStatus(leader, s -> s.path("leader").isTextual(), FORM));
    }

    @Test
    public void c1AMemberRestartedWithItsDataWipedCatchesUpAndCollects() throws Exception {
        for (String id : cluster.ids()) {
            if (!cluster.alive(id)) {
                cluster.start(id); // an earlier case that failed left it down
            }
        }
        for (String id : cluster.ids()) {
            assertNotNull(id + " up", cluster.awaitStatus(id, s -> s.path("leader").isTextual(), FORM));
        }
        String leader = leaderSeenBy("m1");
        assertNotNull(leader);
        String victim = cluster.ids().stream().filter(id -> !id.equals(leader)).findFirst().orElseThrow();
        int snortBefore = checkReplicasSidsAndWorkloads(currentSnort()).size();
        cluster.kill(victim);
        cluster.wipe(victim);
        long t0 = System.nanoTime();
        cluster.start(victim);
        assertNotNull(victim + " serving again", cluster.awaitStatus(victim, s -> s.path("leader").isTextual(), FORM));
        double servingS = (System.nanoTime() - t0) / 1e9;
        // a switch moved to it: its collector takes the reports
        DeviceId d = PaperTestbed.SW2;
        assertNotNull(cluster.call(leader, "POST", "/master?device=" + d + "&node=" + victim));
        long a0 = accepted(victim);
        long t1 = System.nanoTime();
        await("reports accepted at the restarted member", () -> {
            sender.refreshMasters();
            return accepted(victim) > a0 ? JSON.getNodeFactory().nullNode() : null;
        });
        double firstReportS = (System.nanoTime() - t1) / 1e9;
        Set<String> snort = checkReplicasSidsAndWorkloads(snortBefore);
        String now = leaderSeenBy(cluster.ids().stream().filter(cluster::alive).findFirst().orElseThrow());
        assertTrue("no scale-out in flight on " + now, decisions(now, "SCALE_OUT").stream()
                .noneMatch(x -> x.path("outcome").asText().equals("IN_PROGRESS")));
        say(String.format("member %s restarted with its data wiped: serving after %.1f s, caught up (replicas %s "
                                  + "through it as through the others), first accepted report %.2f s after %s moved "
                                  + "to it", victim, servingS, snort, firstReportS, d));
    }

    private static int currentSnort() {
        String any = cluster.ids().stream().filter(cluster::alive).findFirst().orElseThrow();
        JsonNode inv = cluster.call(any, "GET", "/inventory");
        int n = 0;
        for (Iterator<String> it = inv.path("replicas").fieldNames(); it.hasNext();) {
            if (it.next().startsWith(SNORT.toString() + "/")) {
                n++;
            }
        }
        return n;
    }

    private static void say(String s) {
        System.out.println("loopfaults: " + s);
    }
}
