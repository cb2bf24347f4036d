// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.pods;

import java.net.InetSocketAddress;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.After;
import org.junit.AfterClass;
import org.junit.Assume;
import org.junit.Before;
import org.junit.BeforeClass;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.srv6int.agent.AgentConfig;
import org.srv6int.agent.FakeHost;
import org.srv6int.agent.NodeAgent;
import org.srv6int.agent.ReplayFixture;
import org.srv6int.agent.loop.ResourcePool;
import org.srv6int.agent.loop.ResourceType;
import org.srv6int.k8s.bridge.ReplicaNames;

import java.io.File;
import java.io.InputStream;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * The node agent against a real kube-apiserver (v1.36.3) and KWOK nodes
 * (tools/k8s-testenv): replica pods are created through the API on the KWOK node
 * worker1; the agent runs in this JVM as its ServiceAccount (a token from the
 * TokenRequest API, rights only from k8s-bridge/deploy/agent/rbac.yaml) and follows
 * them; a {@link FakeKubelet} stands for the kubelet's side KWOK does not have
 * (container ids, cgroups in a temp tree, cpu.max following a resize). Detection
 * Results are fed as frames on the agent's frame path, as the capture would.
 * Skipped without -Dsrv6int.admin.kubeconfig (tests/ci.d/30-k8s.sh sets it).
 */
public class AgentOnRealApiServerTest {

    private static final String NS = "srv6int-sfc";
    private static final String NODE = "worker1";
    private static final long LMAX = 1_000_000;
    private static KubernetesClient admin;
    private static KubernetesClient agentClient;

    private final List<String> wired = Collections.synchronizedList(new ArrayList<>());
    private final List<String> unwired = Collections.synchronizedList(new ArrayList<>());
    private final PodWiring wiring = new PodWiring() {
        @Override
        public void wire(ReplicaPod pod) {
            wired.add(pod.name());
        }

        @Override
        public void unwire(ReplicaPod pod) {
            unwired.add(pod.name());
        }
    };
    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();
    private Path root;
    private FakeHost host;
    private FakeKubelet kubelet;
    private String prefix;

    @BeforeClass
    public static void connect() throws Exception {
        String kc = System.getProperty("srv6int.admin.kubeconfig", "");
        if (kc.isEmpty()) {
            String reason = "AgentOnRealApiServerTest skipped: no control plane "
                    + "(set -Dsrv6int.admin.kubeconfig=<admin kubeconfig>; tools/k8s-testenv/start makes one)";
            System.out.println(reason);
            Assume.assumeTrue(reason, false);
        }
        Config adminConfig = Config.fromKubeconfig(new File(kc));
        admin = new KubernetesClientBuilder().withConfig(adminConfig).build();
        for (String f : new String[]{"../k8s-bridge/deploy/bridge-rbac.yaml", "../k8s-bridge/deploy/agent/rbac.yaml"}) {
            try (InputStream in = Files.newInputStream(Path.of(f))) {
                admin.load(in).forceConflicts().serverSideApply();
            }
        }
        waitUntil("default ServiceAccount in " + NS, Duration.ofSeconds(60), () ->
                admin.serviceAccounts().inNamespace(NS).withName("default").get() != null);
        String token = admin.serviceAccounts().inNamespace("srv6int").withName("srv6int-node-agent")
                .tokenRequest(new TokenRequestBuilder().withNewSpec().withExpirationSeconds(3600L).endSpec().build())
                .getStatus().getToken();
        Config agentConfig = new ConfigBuilder(Config.empty()).withMasterUrl(adminConfig.getMasterUrl())
                .withCaCertFile(adminConfig.getCaCertFile()).withCaCertData(adminConfig.getCaCertData())
                .withOauthToken(token).build();
        agentClient = new KubernetesClientBuilder().withConfig(agentConfig).build();
    }

    @AfterClass
    public static void disconnect() {
        if (agentClient != null) {
            agentClient.close();
        }
        if (admin != null) {
            admin.close();
        }
    }

    @Before
    public void fakeNode() throws Exception {
        root = tmp.newFolder("agent-k8s").toPath(); // the fake host's files go with the test
        host = new FakeHost(root).numa("eth1");
        prefix = "t" + Long.toHexString(System.nanoTime() & 0xffffff);
    }

    @After
    public void cleanUp() throws Exception {
        if (kubelet != null) {
            kubelet.close();
        }
        if (admin != null) {
            admin.pods().inNamespace(NS).withLabel("srv6int.org/test", prefix).withGracePeriod(0).delete();
        }
    }

    private AgentConfig config(AgentConfig.Mode mode, AgentConfig.CpuActuation cpu) throws Exception {
        AgentConfig c = new AgentConfig();
        c.node = NODE;
        c.iface = "eth1";
        c.hostRoot = root.toString();
        c.windowSize = 20;
        c.metricsAddress = "127.0.0.1:0";
        c.decisionLog = "-"; // decisions in the test output
        c.followPods = true;
        c.podNamespace = NS;
        c.lmaxNs = LMAX;
        c.mode = mode;
        c.cpuActuation = cpu;
        c.overwriteCheckMs = 100;
        for (ResourceType t : new ResourceType[]{ResourceType.LLC, ResourceType.MEMORY_BANDWIDTH,
                ResourceType.CPU_FREQUENCY}) {
            AgentConfig.ResourceSettings s = new AgentConfig.ResourceSettings();
            s.enabled = false;
            c.resources.put(t, s);
        }
        c.validate();
        return c;
    }

    /** A replica pod as the bridge writes it, on the KWOK node. */
    private Pod replica(int vnf, String sid, boolean guaranteed, Map<String, String> extra) {
        Map<String, String> labels = new TreeMap<>();
        labels.put(ReplicaNames.LABEL_CHAIN, "7");
        labels.put(ReplicaNames.LABEL_VNF, Integer.toString(vnf));
        labels.put(ReplicaNames.LABEL_VNF_TYPE, "snort");
        labels.put(ReplicaNames.LABEL_REPLICA, "0");
        labels.put(ReplicaNames.LABEL_MANAGED_BY, ReplicaNames.MANAGER);
        labels.put("srv6int.org/test", prefix);
        Map<String, String> ann = new TreeMap<>();
        ann.put(ReplicaNames.ANNOTATION_SID, sid);
        ann.put(ReplicaNames.ANNOTATION_SWITCH_DEVICE, "device:leaf1");
        ann.put(ReplicaNames.ANNOTATION_SWITCH_PORT, "3");
        ann.putAll(extra);
        Map<String, Quantity> limits = Map.of("cpu", new Quantity("1"), "memory", new Quantity("256Mi"));
        Map<String, Quantity> requests = guaranteed ? limits
                : Map.of("cpu", new Quantity("500m"), "memory", new Quantity("128Mi"));
        Pod p = new PodBuilder().withNewMetadata().withName(prefix + "-vnf" + vnf).withNamespace(NS)
                .withLabels(labels).withAnnotations(ann).endMetadata()
                .withNewSpec().withNodeName(NODE).withAutomountServiceAccountToken(false)
                // the bridge's security context (ReplicaSecurity): srv6int-sfc enforces restricted
                .withNewSecurityContext().withRunAsNonRoot(true).withNewSeccompProfile()
                .withType("RuntimeDefault").endSeccompProfile().endSecurityContext()
                .addNewContainer().withName("vnf").withImage("registry.local/snort:2.9")
                .withNewSecurityContext().withAllowPrivilegeEscalation(false).withNewCapabilities()
                .withDrop("ALL").endCapabilities().endSecurityContext()
                .withNewResources().withLimits(limits).withRequests(requests).endResources()
                .endContainer().endSpec().build();
        return admin.pods().inNamespace(NS).resource(p).create();
    }

    private static byte[] sidBytes(String sid) throws Exception {
        return InetAddress.getByName(sid).getAddress();
    }

    /** Windows of Detection Results for one vNF, fed on the agent's frame path, with its timers. */
    private static void drive(NodeAgent agent, String sid, long latencyNs, int windows) throws Exception {
        byte[] frame = ReplayFixture.frame(sidBytes(sid), 7, true, latencyNs);
        for (int i = 0; i < windows * agent.loop().windowSize(); i++) {
            agent.frame(frame, frame.length);
        }
        agent.tick();
    }

    private static void tickUntil(NodeAgent agent, String what, BooleanSupplier condition) throws Exception {
        tickUntil(agent, what, condition, () -> "");
    }

    private static void tickUntil(NodeAgent agent, String what, BooleanSupplier condition, Supplier<String> seen)
            throws Exception {
        waitUntil(what, Duration.ofSeconds(30), () -> {
            agent.tick();
            return condition.getAsBoolean();
        }, seen);
    }

    private static void waitUntil(String what, Duration timeout, BooleanSupplier condition) throws Exception {
        waitUntil(what, timeout, condition, () -> "");
    }

    private static void waitUntil(String what, Duration timeout, BooleanSupplier condition, Supplier<String> seen)
            throws Exception {
        long end = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                String s = seen.get();
                throw new AssertionError("timed out waiting for " + what + (s.isEmpty() ? "" : "; saw " + s));
            }
            Thread.sleep(50);
        }
    }

    private Pod get(String name) {
        return admin.pods().inNamespace(NS).withName(name).get();
    }

    private static long limit(Pod p) {
        return ReplicaPod.cpuMillis(p.getSpec().getContainers().get(0).getResources().getLimits());
    }

    private static long request(Pod p) {
        return ReplicaPod.cpuMillis(p.getSpec().getContainers().get(0).getResources().getRequests());
    }

    private String cpuMax(Pod p) {
        return host.read(kubelet.cgroup(p) + "/cpu.max");
    }

    private List<Event> events(String pod, String reason) {
        List<Event> out = new ArrayList<>();
        for (Event e : admin.v1().events().inNamespace(NS).withField("involvedObject.name", pod).list().getItems()) {
            if (reason.equals(e.getReason())) {
                out.add(e);
            }
        }
        return out;
    }

    private int index(NodeAgent agent, String podName) {
        List<ReplicaPod> m = agent.managedPods();
        for (int i = 0; i < m.size(); i++) {
            if (m.get(i).name().equals(podName)) {
                return i;
            }
        }
        return -1;
    }

    @Test
    public void enforceFollowsPodsResizesThroughTheApiAndDefendsItsValue() throws Exception {
        kubelet = new FakeKubelet(admin, NS, NODE, prefix, host, FakeHost.SYSTEMD, true);
        String a = replica(1, "fc00:7::a", true, Map.of()).getMetadata().getName();
        String b = replica(2, "fc00:7::b", false, Map.of()).getMetadata().getName();
        String bad = replica(3, "not-an-address", false, Map.of()).getMetadata().getName();
        String optOut = replica(4, "fc00:7::d", false, Map.of(ReplicaPod.ANNOTATION_AGENT, ReplicaPod.OPT_OUT))
                .getMetadata().getName();
        try (NodeAgent agent = new NodeAgent(config(AgentConfig.Mode.ENFORCE, AgentConfig.CpuActuation.AUTO),
                agentClient, wiring)) {
            assertTrue("the API server offers pods/resize, so AUTO chooses it", agent.cpuViaResize());
            // The informer hands pods over one by one: wait until all four were seen, then say
            // what was seen if they never are. (Pods other tests left may add to the counts.)
            tickUntil(agent, "a and b managed and wired, the bad pod malformed, the opted-out pod left alone",
                    () -> agent.managedPods().size() == 2 && wired.contains(a) && wired.contains(b)
                            && agent.podMetrics().pods(PodMetrics.PodState.MALFORMED) >= 1
                            && agent.podMetrics().pods(PodMetrics.PodState.OPTED_OUT) >= 1,
                    () -> "managed " + agent.managedPods().size() + ", wired " + wired + ", malformed "
                            + agent.podMetrics().pods(PodMetrics.PodState.MALFORMED) + ", opted out "
                            + agent.podMetrics().pods(PodMetrics.PodState.OPTED_OUT));
            waitUntil("InvalidReplicaPod event on " + bad, Duration.ofSeconds(10),
                    () -> !events(bad, "InvalidReplicaPod").isEmpty());
            assertTrue(events(bad, "InvalidReplicaPod").get(0).getMessage().contains(ReplicaNames.ANNOTATION_SID));
            assertTrue("an opted-out pod gets nothing", events(optOut, "Managed").isEmpty());
            ResourcePool cpu = agent.loop().pool(ResourceType.CPU_QUOTA);
            int ia = index(agent, a);
            assertEquals("initial allocation = the pod's CPU limit", 1000, cpu.allocation(ia));
            assertEquals("cgroup as the kubelet left it", "100000 100000", cpuMax(get(a)));

            // a's Detection Results over its bound: Algorithm 1 adds a step through pods/resize
            drive(agent, "fc00:7::a", 3 * LMAX, 1);
            assertEquals(1100, cpu.allocation(ia));
            Pod pa = get(a);
            assertEquals("the resize patch reached the API", 1100, limit(pa));
            assertEquals("a Guaranteed pod's request follows its limit", 1100, request(pa));
            waitUntil("cgroup follows the resize", Duration.ofSeconds(10), ()
                    -> "110000 100000".equals(cpuMax(get(a))));
            assertEquals(1, agent.podMetrics().resizePatches().get(ResizeCpuActuator.OK));

            // someone else resizes a: the agent sees it on two checks and applies its value again
            admin.pods().inNamespace(NS).withName(a).subresource("resize").patch(
                    PatchContext.of(PatchType.STRATEGIC_MERGE),
                    "{\"spec\":{\"containers\":[{\"name\":\"vnf\",\"resources\":{\"limits\":{\"cpu\":\"800m\"},"
                            + "\"requests\":{\"cpu\":\"800m\"}}}]}}");
            tickUntil(agent, "overwrite re-applied", () ->
                    agent.podMetrics().overwrites(ResourceType.CPU_QUOTA, PodMetrics.Overwrite.REAPPLIED) == 1
                            && limit(get(a)) == 1100);
            waitUntil("cgroup back to 1.1 CPUs", Duration.ofSeconds(10), () -> "110000 100000".equals(cpuMax(get(a))));
            assertEquals(1100, cpu.allocation(ia));
            assertTrue(!events(a, "CpuOverwriteReapplied").isEmpty());
            String metrics = new String(new URL("http://127.0.0.1:" + agent.metricsPort() + "/metrics")
                    .openStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(metrics.contains("srv6int_node_overwrites_total{resource=\"cpu_quota\","
                    + "action=\"reapplied\"} 1"));
            assertTrue(metrics.contains("srv6int_node_cpu_actuation{via=\"resize\"} 1"));
            // the app's replica name (no StatefulSet owns these test pods: the pod's name) and the pod
            assertTrue(metrics, metrics.contains("srv6int_replica_pod_info{chain=\"7\",vnf=\"1\",replica=\"" + a
                    + "\",namespace=\"" + NS + "\",pod=\"" + a + "\"} 1\n"));
            assertTrue(metrics, metrics.contains("srv6int_replica_cpu_quota_millicores{chain=\"7\",vnf=\"1\",replica=\""
                    + a + "\"} 1100\n"));

        }
        // restart: the state is rebuilt from the pods and cgroups found, nothing is written again
        try (NodeAgent agent = new NodeAgent(config(AgentConfig.Mode.ENFORCE, AgentConfig.CpuActuation.AUTO),
                agentClient, wiring)) {
            assertEquals(2, agent.managedPods().size());
            ResourcePool cpu = agent.loop().pool(ResourceType.CPU_QUOTA);
            assertEquals("a's allocation from its pod spec", 1100, cpu.allocation(index(agent, a)));
            assertEquals(1000, cpu.allocation(index(agent, b)));
            assertEquals("nothing patched on restart", 0, agent.podMetrics().resizePatches().get(ResizeCpuActuator.OK));
            assertTrue("the malformed and the opted-out pods' requests are held: " + cpu.held(), cpu.held() >= 1000);
            assertEquals(cpu.budget() - cpu.held() - 2100, cpu.free());

            // a goes: its allocation returns to the pool, its wiring is removed
            admin.pods().inNamespace(NS).withName(a).withGracePeriod(0).delete();
            tickUntil(agent, "a no longer managed", () -> agent.managedPods().size() == 1);
            assertTrue(unwired.contains(a));
            ResourcePool after = agent.loop().pool(ResourceType.CPU_QUOTA);
            assertEquals(after.budget() - after.held() - 1000, after.free());
            assertEquals(1000, after.allocation(index(agent, b)));
            assertEquals(-1, index(agent, a));
        }
    }

    /**
     * Issue 22 across the API server: the agent follows every pod of its node (any namespace, its
     * ServiceAccount's cluster-wide read), holds the CPU request of a replica that is bound but
     * still starting and of another namespace's pod, takes back through {@code pods/resize} what
     * its vNF holds of a request scheduled beyond the free CPU, adopts the replica with its
     * request when it is Ready, and releases a deleted pod's request.
     */
    /** The next pool report the app gets while the agent ticks, within 30 s. */
    private static com.fasterxml.jackson.databind.JsonNode nextReport(NodeAgent agent,
            BlockingQueue<String> reports, String what) throws Exception {
        long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < end) {
            agent.tick();
            String r = reports.poll(20, TimeUnit.MILLISECONDS);
            if (r != null) {
                return new com.fasterxml.jackson.databind.ObjectMapper().readTree(r);
            }
        }
        throw new AssertionError("no pool report within 30 s after " + what);
    }

    private static long reportedFreeCpu(com.fasterxml.jackson.databind.JsonNode report) {
        return report.get("pools").get(0).get("cpuMillis").get("free").asLong();
    }

    /**
     * The pool report goes to the app at once when the node's pods change (a replica managed, another
     * pod's request held or released), not at the next period (10 min here, so any report is the
     * change's), with the figures of the pools after the change.
     */
    @Test
    public void aPodChangeIsReportedToTheAppAtOnce() throws Exception {
        BlockingQueue<String> reports = new LinkedBlockingQueue<>();
        com.sun.net.httpserver.HttpServer onos = com.sun.net.httpserver.HttpServer.create(
                new InetSocketAddress("127.0.0.1", 0), 0);
        onos.createContext("/onos/srv6int/loop/pools", ex -> {
            reports.add(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            ex.sendResponseHeaders(202, -1);
            ex.close();
        });
        onos.start();
        kubelet = new FakeKubelet(admin, NS, NODE, prefix, host, FakeHost.SYSTEMD, true);
        String other = prefix + "-other";
        AgentConfig c = config(AgentConfig.Mode.ENFORCE, AgentConfig.CpuActuation.RESIZE);
        c.escalationUrl = "http://127.0.0.1:" + onos.getAddress().getPort() + "/onos/srv6int/loop/escalations";
        c.tokenFile = tmp.newFile("agent-token").toString();
        Files.writeString(Path.of(c.tokenFile), "agent-token");
        c.poolReportIntervalMs = 600_000;
        try (NodeAgent agent = new NodeAgent(c, agentClient, wiring)) {
            nextReport(agent, reports, "start");
            String a = replica(1, "fc00:7::a", true, Map.of()).getMetadata().getName();
            tickUntil(agent, "a managed", () -> agent.managedPods().size() == 1);
            // a's request held while it starts, then a managed: each told at once, each with its figures.
            long free = agent.loop().pool(ResourceType.CPU_QUOTA).free();
            com.fasterxml.jackson.databind.JsonNode r = nextReport(agent, reports, "a held and managed");
            while (reportedFreeCpu(r) != free) {
                r = nextReport(agent, reports, "a managed");
            }
            assertTrue(a + " holds CPU of the pool", free < agent.loop().pool(ResourceType.CPU_QUOTA).budget());
            // Another tenant's pod bound to the node: its request is held, the app hears of it at once.
            admin.pods().inNamespace("default").resource(new PodBuilder().withNewMetadata().withName(other)
                    .withLabels(Map.of("srv6int.org/test", prefix)).endMetadata()
                    .withNewSpec().withNodeName(NODE).withAutomountServiceAccountToken(false)
                    .addNewContainer().withName("app").withImage("registry.local/app:1")
                    .withNewResources().withRequests(Map.of("cpu", new Quantity("300m"))).endResources()
                    .endContainer().endSpec().build()).create();
            r = nextReport(agent, reports, "another pod's request held");
            assertEquals(r.toString(), free - 300, reportedFreeCpu(r));
            assertEquals(agent.loop().pool(ResourceType.CPU_QUOTA).free(), reportedFreeCpu(r));
            // Deleted: released, told at once.
            admin.pods().inNamespace("default").withName(other).withGracePeriod(0).delete();
            r = nextReport(agent, reports, "another pod's request released");
            assertEquals(r.toString(), free, reportedFreeCpu(r));
            assertTrue("nothing more without a change: " + reports, reports.isEmpty());
        } finally {
            onos.stop(0);
            admin.pods().inNamespace("default").withName(other).withGracePeriod(0).delete();
        }
    }

    @Test
    public void requestsOfTheNodesOtherPodsAreHeldTakenBackAndReleased() throws Exception {
        Set<String> starting = ConcurrentHashMap.newKeySet();
        kubelet = new FakeKubelet(admin, NS, NODE, prefix, host, FakeHost.SYSTEMD, true)
                .paused(p -> starting.contains(p.getMetadata().getName()));
        starting.add(prefix + "-vnf2");
        waitUntil("no pod of other tests still terminating on " + NODE, Duration.ofSeconds(30), () ->
                admin.pods().inAnyNamespace().withField("spec.nodeName", NODE).list().getItems().stream()
                        .noneMatch(p -> p.getMetadata().getDeletionTimestamp() != null));
        String a = replica(1, "fc00:7::a", true, Map.of()).getMetadata().getName();
        String other = prefix + "-other";
        try (NodeAgent agent = new NodeAgent(config(AgentConfig.Mode.ENFORCE, AgentConfig.CpuActuation.RESIZE),
                agentClient, wiring)) {
            tickUntil(agent, "a managed", () -> agent.managedPods().size() == 1);
            long base = agent.loop().pool(ResourceType.CPU_QUOTA).held(); // pods other tests left on the node
            assertEquals("the node's allocatable CPU (20) caps the 40 cores of the fake host", 20_000,
                    agent.loop().pool(ResourceType.CPU_QUOTA).budget());
            String b = replica(2, "fc00:7::b", true, Map.of()).getMetadata().getName();
            tickUntil(agent, "b's request held while it starts", () ->
                    agent.loop().pool(ResourceType.CPU_QUOTA).held() == base + 1000, () -> "held "
                    + agent.loop().pool(ResourceType.CPU_QUOTA).held() + ", base " + base);
            assertEquals(1, agent.managedPods().size());
            // a pod of another namespace, bound to the node, asking for 100m more than is free
            ResourcePool cpu = agent.loop().pool(ResourceType.CPU_QUOTA);
            long ask = cpu.free() + 100;
            admin.pods().inNamespace("default").resource(new PodBuilder().withNewMetadata().withName(other)
                    .withLabels(Map.of("srv6int.org/test", prefix)).endMetadata()
                    .withNewSpec().withNodeName(NODE).withAutomountServiceAccountToken(false)
                    .addNewContainer().withName("app").withImage("registry.local/app:1")
                    .withNewResources().withRequests(Map.of("cpu", new Quantity(ask + "m"))).endResources()
                    .endContainer().endSpec().build()).create();
            tickUntil(agent, "the other pod's request held and 100m taken back from a", () ->
                    agent.loop().pool(ResourceType.CPU_QUOTA).held() == base + 1000 + ask && limit(get(a)) == 900,
                    () -> "held " + agent.loop().pool(ResourceType.CPU_QUOTA).held() + ", a's limit " + limit(get(a)));
            assertEquals(0, cpu.free());
            assertEquals(900, cpu.allocation(index(agent, a)));
            assertEquals(1, agent.metrics().decisions(index(agent, a),
                    org.srv6int.agent.loop.Decision.Action.RECLAIM));
            assertEquals("a Guaranteed pod's request follows its limit down", 900, request(get(a)));
            // b's container starts: b is Ready and managed with its request; its hold goes
            starting.clear();
            tickUntil(agent, "b managed", () -> agent.managedPods().size() == 2);
            ResourcePool now = agent.loop().pool(ResourceType.CPU_QUOTA);
            assertEquals(base + ask, now.held());
            assertEquals("adopted with its request (what was held for it)", 1000, now.allocation(index(agent, b)));
            assertEquals(900, now.allocation(index(agent, a)));
            assertEquals(0, now.free());
            // the other pod is deleted: its request is released to the pool
            admin.pods().inNamespace("default").withName(other).withGracePeriod(0).delete();
            tickUntil(agent, "the other pod's request released", () ->
                    agent.loop().pool(ResourceType.CPU_QUOTA).held() == base);
            assertEquals(ask, agent.loop().pool(ResourceType.CPU_QUOTA).free());
            String metrics = new String(new URL("http://127.0.0.1:" + agent.metricsPort() + "/metrics")
                    .openStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(metrics, metrics.contains("srv6int_node_held_cpu_millicores " + base + "\n"));
        } finally {
            admin.pods().inNamespace("default").withName(other).withGracePeriod(0).delete();
        }
    }

    /**
     * A replica's LLC ways and memory bandwidth have no Kubernetes request: the bridge writes its
     * vNF type's profile as annotations, and the agent holds them while the replica starts (taking
     * them back from its vNF in the resctrl schemata), adopts the replica with them when it is
     * Ready, and holds nothing any more.
     */
    @Test
    public void aStartingReplicasProfileIsHeldInTheSchemataAndItIsAdoptedWithIt() throws Exception {
        Set<String> starting = ConcurrentHashMap.newKeySet();
        host.resctrl("srv6int-snort-c7v1r0", "srv6int-snort-c7v2r0");
        kubelet = new FakeKubelet(admin, NS, NODE, prefix, host, FakeHost.SYSTEMD, true)
                .paused(p -> starting.contains(p.getMetadata().getName()));
        starting.add(prefix + "-vnf2");
        String a = replica(1, "fc00:7::a", true, Map.of()).getMetadata().getName();
        AgentConfig c = config(AgentConfig.Mode.ENFORCE, AgentConfig.CpuActuation.AUTO);
        c.numa.enabled = false; // the local loop shares LLC and bandwidth (NUMASFP would per chain)
        c.resources.get(ResourceType.LLC).enabled = true;
        c.resources.get(ResourceType.MEMORY_BANDWIDTH).enabled = true;
        c.resources.get(ResourceType.MEMORY_BANDWIDTH).budget = 100L; // the node's bandwidth, shared
        c.validate();
        try (NodeAgent agent = new NodeAgent(c, agentClient, wiring)) {
            tickUntil(agent, "a managed", () -> agent.managedPods().size() == 1);
            ResourcePool llc = agent.loop().pool(ResourceType.LLC);
            ResourcePool mb = agent.loop().pool(ResourceType.MEMORY_BANDWIDTH);
            assertEquals("a found with the full mask", 20, llc.allocation(0));
            assertEquals(100, mb.allocation(0));
            String b = replica(2, "fc00:7::b", true, Map.of(ReplicaNames.ANNOTATION_LLC_WAYS, "4",
                    ReplicaNames.ANNOTATION_MEMORY_BANDWIDTH, "30")).getMetadata().getName();
            tickUntil(agent, "b's profile held and taken back from a", () ->
                    agent.loop().pool(ResourceType.LLC).held() == 4 && agent.loop().pool(ResourceType.LLC)
                            .allocation(0) == 16
                                    && agent.loop().pool(ResourceType.MEMORY_BANDWIDTH).allocation(0) == 70,
                    () -> "llc " + agent.loop().pool(ResourceType.LLC).allocation(0) + " held "
                            + agent.loop().pool(ResourceType.LLC).held());
            String schemata = host.read("/sys/fs/resctrl/srv6int-snort-c7v1r0/schemata");
            Matcher l3 = Pattern.compile("L3:0=([0-9a-f]+)").matcher(schemata);
            assertTrue(schemata, l3.find());
            assertEquals(schemata, 16, Long.bitCount(Long.parseLong(l3.group(1), 16)));
            assertTrue(schemata, schemata.contains("MB:0=70"));
            assertEquals(2, agent.metrics().decisions(index(agent, a),
                    org.srv6int.agent.loop.Decision.Action.RECLAIM));
            String metrics = new String(new URL("http://127.0.0.1:" + agent.metricsPort() + "/metrics")
                    .openStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(metrics, metrics.contains("srv6int_node_held_llc_ways 4\n"));
            assertTrue(metrics, metrics.contains("srv6int_node_held_memory_bandwidth_percent 30\n"));
            // b starts: adopted with its profile, nothing held any more
            starting.clear();
            tickUntil(agent, "b managed", () -> agent.managedPods().size() == 2);
            ResourcePool llcNow = agent.loop().pool(ResourceType.LLC);
            ResourcePool mbNow = agent.loop().pool(ResourceType.MEMORY_BANDWIDTH);
            assertEquals(0, llcNow.held());
            assertEquals(0, mbNow.held());
            assertEquals("adopted with the ways held for it", 4, llcNow.allocation(index(agent, b)));
            assertEquals(30, mbNow.allocation(index(agent, b)));
            assertEquals(16, llcNow.allocation(index(agent, a)));
            String bs = host.read("/sys/fs/resctrl/srv6int-snort-c7v2r0/schemata");
            assertTrue(bs, bs.contains("MB:0=30"));
        }
    }

    @Test
    public void recommendPublishesAndChangesNothing() throws Exception {
        kubelet = new FakeKubelet(admin, NS, NODE, prefix, host, FakeHost.CGROUPFS, true);
        String a = replica(1, "fc00:7::a", false, Map.of()).getMetadata().getName();
        try (NodeAgent agent = new NodeAgent(config(AgentConfig.Mode.RECOMMEND, AgentConfig.CpuActuation.AUTO),
                agentClient, wiring)) {
            tickUntil(agent, "a managed", () -> agent.managedPods().size() == 1);
            Pod before = get(a);
            String rv = before.getMetadata().getResourceVersion();
            drive(agent, "fc00:7::a", 3 * LMAX, 1);
            assertEquals("the loop computed the add", 1100, agent.loop().pool(ResourceType.CPU_QUOTA).allocation(0));
            assertEquals(1, agent.podMetrics().recommendations(ResourceType.CPU_QUOTA));
            waitUntil("Recommendation event", Duration.ofSeconds(10), () -> !events(a, "Recommendation").isEmpty());
            assertTrue(events(a, "Recommendation").get(0).getMessage().contains("1100"));
            Pod after = get(a);
            assertEquals("no resize", 1000, limit(after));
            assertEquals("pod spec untouched", before.getSpec(), after.getSpec());
            assertEquals("cgroup untouched", "100000 100000", cpuMax(after));
            assertEquals(0, agent.podMetrics().resizePatches().get(ResizeCpuActuator.OK));
            assertEquals("the pod object was not written at all", rv, after.getMetadata().getResourceVersion());
        }
    }

    @Test
    public void cgroupFallbackReappliesAnOverwrittenCpuMax() throws Exception {
        kubelet = new FakeKubelet(admin, NS, NODE, prefix, host, FakeHost.CGROUPFS, true);
        String a = replica(1, "fc00:7::a", false, Map.of()).getMetadata().getName();
        try (NodeAgent agent = new NodeAgent(config(AgentConfig.Mode.ENFORCE, AgentConfig.CpuActuation.CGROUP),
                agentClient, wiring)) {
            assertTrue(!agent.cpuViaResize());
            tickUntil(agent, "a managed", () -> agent.managedPods().size() == 1);
            drive(agent, "fc00:7::a", 3 * LMAX, 1);
            assertEquals("110000 100000", cpuMax(get(a)));
            assertEquals("the API is not told", 1000, limit(get(a)));
            host.file(kubelet.cgroup(get(a)) + "/cpu.max", "max 100000"); // e.g. the kubelet rewrites it
            tickUntil(agent, "cpu.max re-applied", () ->
                    agent.podMetrics().overwrites(ResourceType.CPU_QUOTA, PodMetrics.Overwrite.REAPPLIED) == 1);
            assertEquals("110000 100000", cpuMax(get(a)));
        } catch (KubernetesClientException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    /**
     * What the API server does with a resize of a pod as KWOK leaves it (running, but no
     * {@code containerStatuses[].resources}, as on a kubelet without in-place resize): it
     * refuses it (422, "Pod running on node without support for resize"). The agent records
     * an ACTUATOR_ERROR, keeps the allocation and changes nothing.
     */
    @Test
    public void aResizeThePodsNodeCannotDoIsRefusedAndNothingChanges() throws Exception {
        kubelet = new FakeKubelet(admin, NS, NODE, prefix, host, FakeHost.SYSTEMD, false);
        String a = replica(1, "fc00:7::a", true, Map.of()).getMetadata().getName();
        try (NodeAgent agent = new NodeAgent(config(AgentConfig.Mode.ENFORCE, AgentConfig.CpuActuation.RESIZE),
                agentClient, wiring)) {
            tickUntil(agent, "a managed", () -> agent.managedPods().size() == 1);
            drive(agent, "fc00:7::a", 3 * LMAX, 1);
            assertEquals(1, agent.podMetrics().resizePatches().get(ResizeCpuActuator.FAILED));
            assertEquals(1, agent.metrics().decisions(0, org.srv6int.agent.loop.Decision.Action.ACTUATOR_ERROR));
            assertEquals("allocation kept", 1000, agent.loop().pool(ResourceType.CPU_QUOTA).allocation(0));
            assertEquals(1000, limit(get(a)));
            assertEquals("100000 100000", cpuMax(get(a)));
        }
    }
}
