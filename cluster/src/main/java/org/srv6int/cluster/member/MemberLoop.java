// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cluster.member;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.onlab.packet.IpPrefix;
import org.onosproject.cluster.NodeId;
import org.onosproject.net.ConnectPoint;
import org.srv6int.app.api.GlobalLoopService;
import org.srv6int.app.api.ReplicaPlatform;
import org.srv6int.app.api.model.Escalation;
import org.srv6int.app.api.model.EscalationReceipt;
import org.srv6int.app.api.model.FlowClassifier;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.api.model.NodeResources;
import org.srv6int.app.api.model.ReplicaInfo;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfSpec;
import org.srv6int.app.loop.GlobalLoopManager;
import org.srv6int.app.loop.InventoryRouting;
import org.srv6int.app.loop.LoopCore;
import org.srv6int.app.store.DistributedEscalationStore;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The global loop's core ({@link LoopCore}) on a member, for escalations only: it follows the
 * member's leadership of {@link GlobalLoopManager#TOPIC}, runs one round every 500 ms without
 * telemetry (so it never scales) and takes escalations through
 * {@link GlobalLoopService#submitEscalation}, the call the REST resource makes, over the cluster's
 * escalation store ({@code srv6int-loop-escalations} on Atomix). A stand-in until the member runs
 * the app's {@code GlobalLoopManager} with its collectors; then the routes call that one.
 * Its platform refuses every replica (none is asked for without telemetry).
 */
final class MemberLoop {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long ROUND_MS = 500;

    private final ClusterMember member;
    private final NodeId self;
    private final LoopCore core;
    private ScheduledExecutorService ticker;

    MemberLoop(ClusterMember member) {
        this.member = member;
        this.self = NodeId.nodeId(member.node().id());
        DistributedEscalationStore escalations = new DistributedEscalationStore(member.storage());
        escalations.activate();
        core = LoopCore.builder().platform(NO_PLATFORM)
                .routing(new InventoryRouting(member.app().inventory(), member.app().paths()))
                .store(member.app().loopState()).services(member.app().sfcs(), member.app().inventory())
                .observations(s -> List.of()).escalations(escalations, self.id())
                .leaderName(() -> Optional.ofNullable(member.leadership().getLeader(GlobalLoopManager.TOPIC))
                        .map(NodeId::id).orElse("none"))
                .leading(false).build();
    }

    /**
     * Starts the rounds, at the first route call: a member that ran loop rounds from its start
     * lost the kill -9 failover of {@code ThreeMemberClusterTest.t3} in 2 of 2 runs (no new
     * leader, or the dead leader's devices not re-mastered, within 60 s), which passed without
     * them (docs/cluster.md, open findings); until that is understood the rounds run only for
     * the escalation case.
     */
    private synchronized void started() {
        if (ticker == null) {
            // the first round now, so a leader's first post is taken as the leader's
            round();
            ticker = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "member-loop");
                t.setDaemon(true);
                return t;
            });
            ticker.scheduleWithFixedDelay(this::round, ROUND_MS, ROUND_MS, TimeUnit.MILLISECONDS);
        }
    }

    private void round() {
        try {
            core.setLeader(self.equals(member.leadership().getLeader(GlobalLoopManager.TOPIC)));
            core.period(null);
        } catch (RuntimeException e) {
            System.err.println("member loop round failed: " + e);
        }
    }

    /** {@code POST /chain?id=N&vnfs=K}: a chain of K vNFs written to the chain store (the member has no netcfg). */
    ObjectNode addChain(Map<String, String> q) {
        started();
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

    /** {@code POST /escalation?vnf=C/I&node=N&l95=NS}: an agent's escalation, as REST takes it. */
    ObjectNode escalate(Map<String, String> q) {
        started();
        Escalation e = new Escalation(VnfKey.valueOf(required(q, "vnf")), required(q, "node"),
                                      Long.parseLong(q.getOrDefault("l95", "7000000")), 5_000_000, List.of("CPU"));
        EscalationReceipt r = core.submitEscalation(e);
        ObjectNode out = JSON.createObjectNode().put("decided", r.decided());
        if (r.decided()) {
            out.put("decision", r.decision().detail());
        } else {
            out.put("leader", r.leader()).put("posts", r.queuedEscalation().posts())
                    .put("receivedBy", r.queuedEscalation().receivedBy());
        }
        return out;
    }

    /**
     * {@code GET /escalations}: this member's loop's ESCALATION records (vNF to the escalations
     * counted on it), whether it leads, and its escalation counters.
     */
    ObjectNode escalations() {
        started();
        ObjectNode out = JSON.createObjectNode().put("leading", core.leading());
        ObjectNode rec = out.putObject("records");
        for (LoopDecision d : core.decisions(1000)) {
            if (d.action() == LoopDecision.Action.ESCALATION) {
                rec.put(d.vnf().toString(), d.inputs().getOrDefault(LoopDecision.IN_ESCALATIONS, 0.0).intValue());
            }
        }
        ObjectNode c = out.putObject("counters");
        core.escalationCounters().forEach(c::put);
        return out;
    }

    private static String required(Map<String, String> q, String name) {
        String v = q.get(name);
        if (v == null || v.isEmpty()) {
            throw new IllegalArgumentException("missing query parameter " + name);
        }
        return v;
    }

    private static final ReplicaPlatform NO_PLATFORM = new ReplicaPlatform() {
        @Override
        public List<NodeResources> nodeFreeResources() {
            return List.of();
        }

        @Override
        public CompletionStage<ReplicaInfo> createReplica(VnfKey vnf, String node, String requestId) {
            return CompletableFuture.failedFuture(new IllegalStateException("no replica platform on this member"));
        }

        @Override
        public CompletionStage<Void> deleteReplica(VnfKey vnf, String replicaId) {
            return CompletableFuture.failedFuture(new IllegalStateException("no replica platform on this member"));
        }
    };
}
