// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.lab;

import java.io.IOException;
import java.lang.reflect.Field;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.eclipse.jetty.server.Server;
import org.glassfish.jersey.jetty.JettyHttpContainerFactory;
import org.glassfish.jersey.server.ResourceConfig;
import org.onlab.osgi.ServiceDirectory;
import org.onlab.packet.IpPrefix;
import org.onlab.rest.BaseResource;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.group.Group;
import org.srv6int.app.api.AgentAuthService;
import org.srv6int.app.api.GlobalLoopService;
import org.srv6int.app.api.NodePoolService;
import org.srv6int.app.api.model.FlowClassifier;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.model.TelemetrySnapshot;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.api.model.VnfSpec;
import org.srv6int.app.api.model.VnfWindow;
import org.srv6int.app.assembly.LoopAssembly;
import org.srv6int.app.auth.AgentAuthenticator;
import org.srv6int.app.loop.GlobalLoopManager;
import org.srv6int.app.rest.Srv6IntWebApplication;
import org.srv6int.k8s.bridge.TokenReviewer;
import org.srv6int.testkit.InMemoryCluster;
import org.srv6int.testkit.InMemoryClusterService;
import org.srv6int.testkit.InMemoryLeadershipService;
import org.srv6int.twin.control.AppCore;
import org.srv6int.twin.control.TestbedNetcfg;
import org.srv6int.twin.dataplane.EmulatedDataplane;

/**
 * The lab's escalation scenario (docs/lab.md): the app's components and the paper testbed's
 * four emulated switches in one process. The app (its {@link AppCore}: chains, inventory,
 * placement, flow programming, over the test kit's in-memory ONOS services) holds one chain with
 * one vNF on Worker 1 and programs the switches with its own rules; {@link LabSwitch} forwards
 * real frames between them and the lab's veths (SW1 port 1 from the source, SW2's server port
 * to the real vNF and back, SW4 port 2 to the sink); SW4's INT reports go over UDP on loopback
 * to the app's collector; the collector, the global loop ({@link GlobalLoopManager}, taking its
 * windows) and the platform are wired by the app's {@link LoopAssembly}; the app's REST
 * resources ({@link Srv6IntWebApplication}: LoopWebResource behind AgentAuthFilter) are served
 * over HTTP on Jetty for the node agent's escalations; the replica platform is
 * {@link LabPlatform}, which records the requests.
 *
 * <p>Not real here: the API server's TokenReview ({@link #review}: the lab's token stands for
 * the agent's projected ServiceAccount token) and the platform (no Kubernetes: the request is
 * recorded, no pod starts).
 *
 * <pre>
 * LabController --src IFACE --dst IFACE --vnf-port TX/RX --cgroup DIR --lmax-ns N --rest-port P
 *               --collector-port C --t-hat-ms T --token FILE --out DIR --seconds S
 * </pre>
 * It writes {@code controller.json} (the replica's SID, ready) when the switches are programmed
 * and {@code escalate.json} (the loop's decisions, the platform's requests, the REST and
 * collector counters) when it ends.
 */
public final class LabController {

    /** The agent's node, Worker 1 of the testbed (its server hangs off SW2 port 3). */
    static final String NODE = "worker1";
    /** The chain's classifier destination port (UDP). */
    static final int CHAIN_PORT = 5001;
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final long START_MS = System.currentTimeMillis();

    private LabController() {
    }

    /** The testbed's netcfg with the collector on loopback and the switches reporting from 127.0.0.N. */
    static JsonNode netcfg(int collectorPort, long tHatMs) {
        JsonNode n = TestbedNetcfg.netcfg();
        ObjectNode app = (ObjectNode) n.path("apps").path("org.srv6int.app").path("srv6int");
        ObjectNode c = (ObjectNode) app.get("collector");
        c.put("address", "127.0.0.1");
        c.put("port", collectorPort);
        ObjectNode loop = (ObjectNode) app.get("loop");
        loop.put("tHatMs", tHatMs);
        for (JsonNode d : n.get("devices")) {
            ObjectNode cfg = (ObjectNode) d.get("srv6int");
            cfg.put("reportAddress", "127.0.0." + cfg.get("intDeviceId").asInt());
        }
        return n;
    }

    /** The lab's chain: one vNF of a type, bound Lmax, every packet INT-sampled. */
    static Sfc chain(String type, long lmaxNs) {
        return Sfc.builder().id(SfcId.of(1)).name("lab")
                .ingress(new ConnectPoint(TestbedNetcfg.SW1, PortNumber.portNumber(1)))
                .egress(new ConnectPoint(TestbedNetcfg.SW4, PortNumber.portNumber(2)))
                .classifier(new FlowClassifier(IpPrefix.valueOf("10.0.1.0/24"), IpPrefix.valueOf("10.0.4.0/24"),
                                               17, 0, CHAIN_PORT))
                .vnfs(List.of(new VnfSpec(type, lmaxNs))).intSamplingRate(1).build();
    }

    /** Gives every switch the app's rules and groups. */
    static void install(AppCore app, EmulatedDataplane dp) {
        app.settle();
        for (DeviceId d : TestbedNetcfg.SWITCHES) {
            List<FlowRule> rules = new ArrayList<>();
            app.flows.getFlowEntries(d).forEach(rules::add);
            List<Group> groups = new ArrayList<>();
            app.groups.getGroups(d).forEach(groups::add);
            dp.program(d, rules, groups);
        }
    }

    /** The vNF id (register index) of the replica's SID on its switch, as the app's program gives it. */
    static int vnfId(AppCore app, VnfReplica r) {
        return app.config.devices().get(r.deviceId()).flatMap(c -> c.vnfId(r.sid())).orElseThrow(
                () -> new IllegalStateException(r.sid() + " is outside " + r.deviceId() + "'s vNF locator"));
    }

    /**
     * A report frame as the egress switch sends it (Ethernet, IPv4, UDP) to the collector's socket:
     * from its IPv4 source (the switch's report address, on loopback), its UDP payload.
     */
    static final class ReportSender {
        private final Map<String, DatagramChannel> from = new LinkedHashMap<>();
        private final InetSocketAddress to;
        long sent;
        long malformed;

        ReportSender(InetSocketAddress to) {
            this.to = to;
        }

        synchronized void send(byte[] f) {
            int ip = 14;
            if (f.length < ip + 28 || (f[12] & 0xff) != 0x08 || f[13] != 0 || (f[ip] & 0xf0) != 0x40) {
                malformed++;
                return;
            }
            int ihl = (f[ip] & 0x0f) * 4;
            int udp = ip + ihl;
            String src = (f[ip + 12] & 0xff) + "." + (f[ip + 13] & 0xff) + "." + (f[ip + 14] & 0xff) + "."
                    + (f[ip + 15] & 0xff);
            int len = ((f[udp + 4] & 0xff) << 8 | (f[udp + 5] & 0xff)) - 8;
            if (len < 0 || udp + 8 + len > f.length) {
                malformed++;
                return;
            }
            try {
                DatagramChannel ch = from.get(src);
                if (ch == null) {
                    ch = DatagramChannel.open();
                    ch.bind(new InetSocketAddress(src, 0));
                    from.put(src, ch);
                }
                ch.send(ByteBuffer.wrap(f, udp + 8, len), to);
                sent++;
            } catch (IOException e) {
                malformed++;
            }
        }
    }

    /** Counts the collector's windows and those in which a vNF was over its bound (for the report). */
    static final class WindowCounts implements Consumer<TelemetrySnapshot> {
        private final AppCore app;
        final AtomicLong windows = new AtomicLong();
        final AtomicLong over = new AtomicLong();

        WindowCounts(AppCore app) {
            this.app = app;
        }

        @Override
        public void accept(TelemetrySnapshot w) {
            windows.incrementAndGet();
            for (VnfWindow v : w.vnfs()) {
                long lmax = app.sfcs.getSfc(v.vnf().sfcId()).map(s -> s.vnfs().get(v.vnf().index()).lmaxNanos())
                        .orElse(Long.MAX_VALUE);
                if (v.samples() > 0 && v.p95Nanos() > lmax) {
                    over.incrementAndGet();
                    return;
                }
            }
        }
    }

    /** The API server's TokenReview, replaced: the lab's token is the agent pod's on Worker 1. */
    static TokenReviewer.Review review(String labToken, String token) {
        return labToken.equals(token)
                ? new TokenReviewer.Review(true, AgentAuthService.AGENT_USER, NODE, "srv6int-node-agent-lab", null)
                : new TokenReviewer.Review(false, null, null, null, "token not known to the lab");
    }

    private static void serviceDirectory(ServiceDirectory d) throws ReflectiveOperationException {
        // ONOS sets BaseResource's directory in OSGi (DefaultServiceDirectory); outside it, as the app's
        // REST tests do (onlab-junit TestUtils.setField), on the static field
        Field f = BaseResource.class.getDeclaredField("services");
        f.setAccessible(true);
        f.set(null, d);
    }

    /**
     * Runs the scenario's control side and switches.
     *
     * @param args see the class comment
     * @throws Exception on bad arguments or a port that cannot be opened
     */
    public static void main(String[] args) throws Exception {
        Map<String, String> o = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            o.put(args[i], args[i + 1]);
        }
        Path out = Path.of(o.getOrDefault("--out", "."));
        long lmaxNs = Long.parseLong(o.getOrDefault("--lmax-ns", "20000000"));
        int collectorPort = Integer.parseInt(o.getOrDefault("--collector-port", "32766"));
        int restPort = Integer.parseInt(o.getOrDefault("--rest-port", "8181"));
        double seconds = Double.parseDouble(o.getOrDefault("--seconds", "30"));
        String token = Files.readString(Path.of(o.get("--token"))).trim();

        long tHatMs = Long.parseLong(o.getOrDefault("--t-hat-ms", "4000"));
        AppCore app = new AppCore(TestbedNetcfg.links(), netcfg(collectorPort, tHatMs));
        app.sfcs.addSfc(chain(o.getOrDefault("--type", "ids"), lmaxNs));
        VnfKey key = VnfKey.of(SfcId.of(1), 0);
        VnfReplica replica = app.inventory.addReplica(key, NODE);
        EmulatedDataplane dp = new EmulatedDataplane(TestbedNetcfg.links());
        install(app, dp);
        int vnfId = vnfId(app, replica);

        InMemoryCluster cluster = new InMemoryCluster();
        InMemoryClusterService clusterService = new InMemoryClusterService(cluster, AppCore.NODE);
        LabPlatform platform = new LabPlatform();
        LoopAssembly assembly = LoopAssembly.over(app.app)
                .cluster(new InMemoryLeadershipService(cluster, AppCore.NODE), clusterService)
                .platform(platform).build();
        GlobalLoopManager loop = assembly.loop();
        WindowCounts windows = new WindowCounts(app);
        assembly.windows().addWindowConsumer(windows);
        // No re-programming after the start: the platform starts no replica here, so the chain's
        // path does not change.

        AgentAuthenticator auth = new AgentAuthenticator(() -> t -> review(token, t),
                () -> "no API server", System::currentTimeMillis);
        Map<Class<?>, Object> services = Map.of(GlobalLoopService.class, loop, AgentAuthService.class, auth,
                NodePoolService.class, app.pools);
        serviceDirectory(new ServiceDirectory() {
            @Override
            public <T> T get(Class<T> c) {
                Object s = services.get(c);
                if (s == null) {
                    throw new org.onlab.osgi.ServiceNotFoundException(c.getName() + " is not in the lab");
                }
                return c.cast(s);
            }
        });
        // the app's resources at the server's root: Jersey's Jetty container ignores a context path, so
        // the app's /onos/srv6int prefix is left out here (the agent's escalationUrl says where)
        Server rest = JettyHttpContainerFactory.createServer(URI.create("http://127.0.0.1:" + restPort + "/"),
                ResourceConfig.forApplicationClass(Srv6IntWebApplication.class));

        LabSwitch sw = new LabSwitch(dp, replica.deviceId());
        ReportSender reports = new ReportSender(new InetSocketAddress("127.0.0.1", collectorPort));
        sw.port(new ConnectPoint(TestbedNetcfg.SW1, PortNumber.portNumber(1)), o.get("--src"), o.get("--src"));
        sw.port(new ConnectPoint(TestbedNetcfg.SW4, PortNumber.portNumber(2)), o.get("--dst"), o.get("--dst"));
        String[] vio = o.get("--vnf-port").split("/");
        sw.port(replica.location(), vio[0], vio[1]);
        sw.vnf(replica.location(), vnfId, o.containsKey("--cgroup") ? Path.of(o.get("--cgroup")) : null);
        PortNumber reportPort = app.config.devices().get(TestbedNetcfg.SW4).orElseThrow().collectorPort().orElseThrow();
        sw.sink(new ConnectPoint(TestbedNetcfg.SW4, reportPort), reports::send);

        ObjectNode ready = MAPPER.createObjectNode().put("sid", replica.sid().toString())
                .put("chainId", 1).put("vnfIndex", 0).put("node", NODE).put("vnfId", vnfId)
                .put("restPort", restPort).put("collectorPort", collectorPort).put("startMs", START_MS);
        Files.writeString(out.resolve("controller.json"), ready.toString(), StandardCharsets.UTF_8);
        System.err.println("lab controller: the app (AppCore, GlobalLoopManager, collector on 127.0.0.1:"
                + collectorPort
                + ", REST on http://127.0.0.1:" + restPort + "/) and the paper testbed's 4 emulated switches;"
                + " chain 1's vNF on " + NODE + " at " + replica.sid() + " (vnf_id " + vnfId + ")");
        try {
            sw.run(out.resolve("switch.csv"), seconds);
        } finally {
            write(out.resolve("escalate.json"), loop, platform, auth, windows, reports);
            rest.stop();
            assembly.stop();
        }
        System.exit(0);
    }

    private static void write(Path file, GlobalLoopManager loop, LabPlatform platform, AgentAuthenticator auth,
                              WindowCounts windows, ReportSender reports) throws IOException {
        ObjectNode root = MAPPER.createObjectNode();
        ArrayNode ds = root.putArray("decisions");
        List<LoopDecision> all = new ArrayList<>(loop.decisions(1000));
        Collections.reverse(all);
        for (LoopDecision d : all) {
            ObjectNode n = ds.addObject().put("timeMs", d.timeMillis()).put("vnf", d.vnf().toString())
                    .put("chainId", d.vnf().sfcId().tag()).put("vnfIndex", d.vnf().index())
                    .put("action", d.action().name()).put("replicasBefore", d.replicasBefore())
                    .put("replicasAfter", d.replicasAfter()).put("detail", d.detail());
            ObjectNode in = n.putObject("inputs");
            d.inputs().forEach(in::put);
        }
        ArrayNode rq = root.putArray("replicaRequests");
        for (LabPlatform.Request r : platform.requests()) {
            rq.addObject().put("timeMs", r.timeMs).put("chainId", r.vnf.sfcId().tag()).put("vnfIndex", r.vnf.index())
                    .put("node", r.node).put("requestId", r.requestId);
        }
        ObjectNode a = root.putObject("agentAuth");
        for (String r : List.of("ACCEPTED", "NO_TOKEN", "INVALID_TOKEN", "WRONG_NODE", "UNAVAILABLE")) {
            a.put(r, auth.count(r));
        }
        root.put("reportsSent", reports.sent).put("reportsMalformed", reports.malformed);
        root.put("windows", windows.windows.get());
        root.put("windowsOverBound", windows.over.get());
        Files.writeString(file, MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(root),
                StandardCharsets.UTF_8);
    }
}
