// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cluster.member;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.onlab.packet.Ip6Address;
import org.onlab.packet.IpPrefix;
import org.onlab.packet.MacAddress;
import org.onosproject.cluster.ControllerNode;
import org.onosproject.cluster.Leadership;
import org.onosproject.cluster.NodeId;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.store.serializers.KryoNamespaces;
import org.onosproject.store.service.ConsistentMap;
import org.onosproject.store.service.Serializer;
import org.onosproject.store.service.Versioned;
import org.srv6int.app.api.model.Escalation;
import org.srv6int.app.api.model.EscalationReceipt;
import org.srv6int.app.api.model.FlowClassifier;
import org.srv6int.app.api.model.ReplicaState;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfSpec;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.api.model.VnfReplicaId;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.api.model.LoopStatus;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.assembly.LoopAssembly;
import org.srv6int.app.loop.GlobalLoopManager;
import org.srv6int.app.rest.SfcCodec;
import org.srv6int.app.store.VnfReplicaStore;
import org.srv6int.app.telemetry.TelemetryManager;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;

/**
 * A member's control interface for the test driver, plain HTTP on a loopback (or the test's
 * namespace) address, JSON answers:
 * <ul>
 *   <li>{@code GET /status}: id, session connected, the global loop's leader and term as this member
 *       sees them, its leadership view's failed reads and refused older answers, each device's master,
 *       each member's state;</li>
 *   <li>{@code POST /probe?key=K&value=V}, {@code GET /probe}: a probe ConsistentMap
 *       ({@code srv6int-cluster-probe}) written and read through this member;</li>
 *   <li>{@code POST /replica?vnf=C/I&name=N&sid=S}: the app's replica store's create (the SID
 *       claimed first, then the replica), {@code GET /replicas}: replicas and SIDs held;</li>
 *   <li>{@code POST /master?device=D&node=N}: moves a device's mastership;</li>
 *   <li>{@code POST /chain?id=N&vnfs=K}: a chain of K vNFs into the chain store (no netcfg needed);
 *       {@code POST /escalation?vnf=C/I&node=N&l95=NS}: a node agent's escalation through this
 *       member's loop ({@code submitEscalation}, the call the REST resource makes: the leader
 *       decides, a follower queues it in the cluster's escalation store); {@code GET /escalations}:
 *       its ESCALATION records (vNF to escalations counted), whether it leads, its counters;</li>
 *   <li>{@code POST /sfc} (the REST API's chain JSON, {@link SfcCodec}): adds a chain;
 *       {@code POST /register?vnf=C/I&name=N&node=W&device=D&port=P&sid=S&mac=M}: an ACTIVE replica
 *       into the inventory;</li>
 *   <li>{@code GET /loop}: whether this member's loop leads, its last round (wall clock) and its
 *       decisions with the inputs each was made on; {@code GET /collector}: the INT collector's
 *       address and counters; {@code GET /inventory}: replicas (node, state, SID) and SID claims;
 *       {@code GET /threads}: the stacks of the threads running our code or Atomix's.</li>
 * </ul>
 * A store failure answers 503 with the error, so the driver counts it as a refused write.
 */
final class MemberControl {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final ClusterMember member;
    private final HttpServer server;
    private final ConsistentMap<String, String> probe;

    MemberControl(ClusterMember member, InetSocketAddress address) throws IOException {
        this.member = member;
        this.probe = member.storage().<String, String>consistentMapBuilder().withName("srv6int-cluster-probe")
                .withSerializer(Serializer.using(KryoNamespaces.BASIC)).build();
        this.server = HttpServer.create(address, 16);
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.createContext("/status", x -> answer(x, this::status));
        server.createContext("/probe", x -> answer(x, () -> probe(x)));
        server.createContext("/replica", x -> answer(x, () -> createReplica(query(x))));
        server.createContext("/replicas", x -> answer(x, this::replicas));
        server.createContext("/master", x -> answer(x, () -> moveMaster(query(x))));
        server.createContext("/sfc", x -> answer(x, () -> addSfc(x)));
        server.createContext("/register", x -> answer(x, () -> register(query(x))));
        server.createContext("/loop", x -> answer(x, this::loop));
        server.createContext("/collector", x -> answer(x, this::collector));
        server.createContext("/inventory", x -> answer(x, this::inventory));
        // Issue 33 item 3: agents' escalations through any member
        server.createContext("/chain", x -> answer(x, () -> addChain(query(x))));
        server.createContext("/escalation", x -> answer(x, () -> escalate(query(x))));
        server.createContext("/escalations", x -> answer(x, this::escalations));
        // what the member's own threads are doing (a wait that ran out in a test prints it: CI keeps no logs)
        server.createContext("/threads", x -> answer(x, MemberControl::threads));
    }

    private LoopAssembly loopAssembly() {
        return member.loop();
    }

    private ObjectNode addChain(Map<String, String> q) {
        int id = Integer.parseInt(required(q, "id"));
        int n = Integer.parseInt(required(q, "vnfs"));
        List<VnfSpec> vnfs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            vnfs.add(new VnfSpec("snort", 600_000));
        }
        Sfc sfc = Sfc.builder().id(SfcId.of(id)).name("sfc" + id)
                .ingress(ConnectPoint.deviceConnectPoint("of:1/1")).egress(ConnectPoint.deviceConnectPoint("of:3/1"))
                .classifier(new FlowClassifier(IpPrefix.valueOf("10.0.1.0/24"), IpPrefix.valueOf("10.0.4.0/24"),
                                               17, 0, 5000 + id))
                .vnfs(vnfs).build();
        return JSON.createObjectNode().put("created", member.app().sfcStore().createSfc(sfc));
    }

    private ObjectNode escalate(Map<String, String> q) {
        Escalation e = new Escalation(VnfKey.valueOf(required(q, "vnf")), required(q, "node"),
                                      Long.parseLong(q.getOrDefault("l95", "7000000")), 5_000_000, List.of("CPU"));
        EscalationReceipt r = loopAssembly().loop().submitEscalation(e);
        ObjectNode out = JSON.createObjectNode().put("decided", r.decided());
        if (r.decided()) {
            out.put("decision", r.decision().detail());
        } else {
            out.put("leader", r.leader()).put("posts", r.queuedEscalation().posts())
                    .put("receivedBy", r.queuedEscalation().receivedBy());
        }
        return out;
    }

    private ObjectNode escalations() {
        GlobalLoopManager loop = loopAssembly().loop();
        ObjectNode out = JSON.createObjectNode().put("leading", loop.status().leader());
        ObjectNode rec = out.putObject("records");
        for (LoopDecision d : loop.decisions(1000)) {
            if (d.action() == LoopDecision.Action.ESCALATION) {
                rec.put(d.vnf().toString(), d.inputs().getOrDefault(LoopDecision.IN_ESCALATIONS, 0.0).intValue());
            }
        }
        ObjectNode c = out.putObject("counters");
        loop.escalationCounters().forEach(c::put);
        return out;
    }

    private ObjectNode addSfc(HttpExchange x) throws IOException {
        Sfc sfc = new SfcCodec().decode((ObjectNode) JSON.readTree(x.getRequestBody()), null);
        member.app().sfcs().addSfc(sfc);
        return JSON.createObjectNode().put("added", sfc.id().toString());
    }

    private ObjectNode register(Map<String, String> q) {
        VnfReplica r = new VnfReplica(VnfReplicaId.of(VnfKey.valueOf(required(q, "vnf")), required(q, "name")),
                                      required(q, "node"), DeviceId.deviceId(required(q, "device")),
                                      PortNumber.portNumber(required(q, "port")),
                                      Ip6Address.valueOf(required(q, "sid")), MacAddress.valueOf(required(q, "mac")),
                                      ReplicaState.ACTIVE, 1);
        member.app().inventory().registerReplica(r);
        return JSON.createObjectNode().put("registered", r.id().toString());
    }

    private ObjectNode loop() {
        GlobalLoopManager loop = loopAssembly().loop();
        LoopStatus st = loop.status();
        ObjectNode out = JSON.createObjectNode();
        out.put("leading", st.leader());
        out.put("leader", st.leaderNode());
        out.put("lastRoundMillis", st.lastEvaluationMillis());
        ArrayNode ds = out.putArray("decisions");
        for (LoopDecision d : loop.decisions(50)) {
            ObjectNode o = ds.addObject().put("timeMillis", d.timeMillis()).put("vnf", d.vnf().toString())
                    .put("action", d.action().toString()).put("outcome", String.valueOf(d.outcome()))
                    .put("before", d.replicasBefore()).put("after", d.replicasAfter())
                    .put("detail", d.detail());
            // what the loop decided on (R_i, L_i, C_i, C*_i, n, ...): a test can tell the count it asked for
            d.inputs().forEach(o.putObject("inputs")::put);
        }
        return out;
    }

    // the stacks of the threads that run our code or Atomix's (the JDK's idle workers left out)
    private static ObjectNode threads() {
        ObjectNode out = JSON.createObjectNode();
        Thread.getAllStackTraces().forEach((t, stack) -> {
            StringBuilder b = new StringBuilder().append(t.getState());
            boolean ours = false;
            for (StackTraceElement e : stack) {
                ours |= e.getClassName().startsWith("org.srv6int") || e.getClassName().startsWith("io.atomix");
                b.append("\n  at ").append(e);
            }
            if (ours) {
                out.put(t.getName() + " #" + t.getId(), b.toString());
            }
        });
        return out;
    }

    private ObjectNode collector() {
        TelemetryManager t = loopAssembly().telemetry();
        ObjectNode out = JSON.createObjectNode();
        out.put("address", t.collectorAddress().map(Object::toString).orElse(null));
        out.put("windowed", t.latest().isPresent());
        ObjectNode c = out.putObject("counters");
        t.counters().forEach(c::put);
        return out;
    }

    private ObjectNode inventory() {
        ObjectNode out = JSON.createObjectNode();
        ObjectNode rs = out.putObject("replicas");
        member.app().inventory().getReplicas().stream()
                .sorted((a, b) -> a.id().compareTo(b.id()))
                .forEach(r -> rs.putObject(r.id().toString()).put("node", r.node())
                        .put("state", r.state().toString()).put("sid", r.sid().toString()));
        ObjectNode claims = out.putObject("sidClaims");
        for (VnfReplicaStore.SidClaim c : member.app().replicaStore().sidClaims()) {
            claims.put(c.sid().toString(), c.holder().toString());
        }
        return out;
    }

    void start() {
        server.start();
    }

    private interface Handler {
        ObjectNode handle() throws Exception;
    }

    private static void answer(HttpExchange x, Handler h) throws IOException {
        int code = 200;
        ObjectNode body;
        try {
            body = h.handle();
        } catch (IllegalArgumentException e) {
            code = 400;
            body = JSON.createObjectNode().put("error", String.valueOf(e.getMessage()));
        } catch (Exception e) {
            code = 503;
            body = JSON.createObjectNode().put("error", e.getClass().getSimpleName() + ": " + e.getMessage());
        }
        byte[] out = JSON.writeValueAsBytes(body);
        x.getResponseHeaders().add("Content-Type", "application/json");
        x.sendResponseHeaders(code, out.length);
        try (OutputStream os = x.getResponseBody()) {
            os.write(out);
        }
    }

    private static Map<String, String> query(HttpExchange x) {
        Map<String, String> q = new HashMap<>();
        String raw = x.getRequestURI().getRawQuery();
        if (raw != null) {
            for (String kv : raw.split("&")) {
                String[] p = kv.split("=", 2);
                q.put(URLDecoder.decode(p[0], StandardCharsets.UTF_8),
                      p.length > 1 ? URLDecoder.decode(p[1], StandardCharsets.UTF_8) : "");
            }
        }
        return q;
    }

    private static String required(Map<String, String> q, String name) {
        String v = q.get(name);
        if (v == null || v.isEmpty()) {
            throw new IllegalArgumentException("missing query parameter " + name);
        }
        return v;
    }

    private ObjectNode status() {
        ObjectNode s = JSON.createObjectNode();
        s.put("id", member.node().id());
        s.put("connected", member.leadership().connected());
        Leadership l = member.leadership().getLeadership(GlobalLoopManager.TOPIC);
        s.put("leader", l.leaderNodeId() == null ? null : l.leaderNodeId().id());
        s.put("term", l.leader() == null ? 0 : l.leader().term());
        long[] view = member.leadership().viewCounters();
        s.put("viewReadFailures", view[0]).put("viewStaleAnswers", view[1]);
        s.put("leaderHeartbeats", view[2]).put("leaderHeartbeatsFailed", view[3]);
        s.put("unreadableUnreachableReports", member.node().unreadableReports());
        ObjectNode masters = s.putObject("masters");
        Map<String, String> byName = new TreeMap<>();
        member.mastership().knownMasters().forEach((d, n) -> byName.put(d.toString(), n == null ? null : n.id()));
        byName.forEach(masters::put);
        ObjectNode members = s.putObject("members");
        for (ControllerNode n : member.cluster().getNodes()) {
            members.put(n.id().id(), String.valueOf(member.cluster().getState(n.id())));
        }
        return s;
    }

    private ObjectNode probe(HttpExchange x) {
        ObjectNode out = JSON.createObjectNode();
        if ("POST".equals(x.getRequestMethod())) {
            Map<String, String> q = query(x);
            Versioned<String> v = probe.putAndGet(required(q, "key"), required(q, "value"));
            out.put("version", v.version());
            return out;
        }
        ObjectNode entries = out.putObject("entries");
        new TreeMap<>(probe.asJavaMap()).forEach(entries::put);
        return out;
    }

    private ObjectNode createReplica(Map<String, String> q) {
        VnfKey vnf = VnfKey.valueOf(required(q, "vnf"));
        VnfReplica r = new VnfReplica(VnfReplicaId.of(vnf, required(q, "name")), "worker1",
                                      DeviceId.deviceId("device:leaf1"), PortNumber.portNumber(1),
                                      Ip6Address.valueOf(required(q, "sid")), MacAddress.valueOf("00:00:00:00:01:01"),
                                      ReplicaState.PENDING, 0);
        return JSON.createObjectNode().put("created", member.app().replicaStore().createReplica(r));
    }

    private ObjectNode replicas() {
        ObjectNode out = JSON.createObjectNode();
        ObjectNode rs = out.putObject("replicas");
        member.app().replicaStore().getReplicas().stream()
                .sorted((a, b) -> a.id().compareTo(b.id()))
                .forEach(r -> rs.put(r.id().toString(), r.sid().toString()));
        out.putPOJO("sids", member.app().replicaStore().sidsInUse().stream().map(Object::toString).sorted()
                .toArray(String[]::new));
        return out;
    }

    private ObjectNode moveMaster(Map<String, String> q) {
        boolean moved = member.mastership().moveMastership(DeviceId.deviceId(required(q, "device")),
                                                           NodeId.nodeId(required(q, "node")));
        return JSON.createObjectNode().put("moved", moved);
    }
}
