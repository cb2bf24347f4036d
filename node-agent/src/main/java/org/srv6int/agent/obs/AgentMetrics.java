// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.obs;

import org.srv6int.agent.loop.Decision;
import org.srv6int.agent.loop.LocalLoop;
import org.srv6int.agent.loop.ResourceType;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The agent's metrics: written by the loop and capture thread (single
 * writer each, release stores), read by the HTTP thread, rendered in the
 * Prometheus text exposition format 0.0.4.
 */
public final class AgentMetrics {

    /** Capture outcomes counted per packet. */
    public enum Packet {
        /** Mapped to a vNF and fed to its window. */
        MATCHED,
        /** Valid SRv6-INT but its IPv6 destination is no configured vNF SID. */
        UNKNOWN_VNF,
        /** Rejected by the codec (reason in the codec's own counters). */
        MALFORMED,
        /** Valid SRv6-INT without the S (SFC mode) flag: carries no vNF latency. */
        NOT_SFC,
        /** Detection Result 0: the switch had no measurement yet. */
        NO_MEASUREMENT
    }

    private static final Decision.Action[] ACTIONS = Decision.Action.values();
    private static final ResourceType[] TYPES = ResourceType.all();
    private static final Packet[] PACKETS = Packet.values();

    private final List<String> vnfNames;
    private final List<String> chainIds;
    private final List<String> vnfIndexes;
    private final long[] lmax;
    private final AtomicLongArray l95;
    private final AtomicLongArray slack;
    private final AtomicLongArray windows;
    private final AtomicLongArray resourceType;
    private final AtomicLongArray allocations;
    private final AtomicLongArray decisions;
    private final AtomicLongArray available;
    private final AtomicLongArray packets;
    private final AtomicLongArray escalations;
    /** Per vNF x type x {trial, horizon}: reverted frees. */
    private final AtomicLongArray freesReverted;
    /** Per vNF: windows whose cpu.stat could not be read (the loop raised regardless). */
    private final AtomicLongArray throttleUnread;
    /** Per vNF x type: windows left in the freeing cool-down. */
    private final AtomicLongArray cooldown;
    /** Namespace and name of each vNF's pod (null entries: not a pod), set before the first scrape. */
    private final String[][] pods;

    /**
     * Creates the metrics of a node's vNFs.
     *
     * @param vnfNames names, by index (the replica label)
     * @param chainIds chain id label per vNF
     * @param vnfIndexes position of each vNF in its chain (the vnf label)
     * @param lmaxNs Lmax per vNF
     */
    public AgentMetrics(List<String> vnfNames, List<String> chainIds, List<String> vnfIndexes, long[] lmaxNs) {
        this(vnfNames, chainIds, vnfIndexes, lmaxNs, null);
    }

    /**
     * Creates metrics for a new set of vNFs that continues the node-level counters
     * (packets, escalations) of the previous set.
     *
     * @param vnfNames vNF names by index (the replica label)
     * @param chainIds chain id label per vNF
     * @param vnfIndexes position of each vNF in its chain (the vnf label)
     * @param lmaxNs Lmax per vNF
     * @param previous metrics of the previous set, or null to start the node counters at 0
     */
    public AgentMetrics(List<String> vnfNames, List<String> chainIds, List<String> vnfIndexes, long[] lmaxNs,
                        AgentMetrics previous) {
        this.packets = previous != null ? previous.packets : new AtomicLongArray(PACKETS.length);
        this.escalations = previous != null ? previous.escalations : new AtomicLongArray(3);
        int n = vnfNames.size();
        this.vnfNames = List.copyOf(vnfNames);
        this.chainIds = List.copyOf(chainIds);
        this.vnfIndexes = List.copyOf(vnfIndexes);
        this.lmax = lmaxNs.clone();
        this.l95 = new AtomicLongArray(n);
        this.slack = new AtomicLongArray(n);
        this.windows = new AtomicLongArray(n);
        this.resourceType = new AtomicLongArray(n);
        this.allocations = new AtomicLongArray(n * TYPES.length);
        this.decisions = new AtomicLongArray(n * ACTIONS.length);
        this.available = new AtomicLongArray(TYPES.length);
        this.freesReverted = new AtomicLongArray(n * TYPES.length * 2);
        this.cooldown = new AtomicLongArray(n * TYPES.length);
        this.throttleUnread = new AtomicLongArray(n);
        this.pods = new String[n][];
        for (int i = 0; i < n; i++) {
            l95.set(i, -1);
            for (int t = 0; t < TYPES.length; t++) {
                allocations.set(i * TYPES.length + t, -1);
            }
        }
    }

    /**
     * Names the pod of a vNF (exported as {@code srv6int_replica_pod_info}, to join the agent's
     * series with the cluster's pod metrics). Call before the metrics are published.
     *
     * @param vnf index
     * @param namespace pod namespace
     * @param pod pod name
     */
    public void pod(int vnf, String namespace, String pod) {
        pods[vnf] = new String[] {namespace, pod};
    }

    private static void inc(AtomicLongArray a, int i) {
        a.lazySet(i, a.get(i) + 1); // single writer per array
    }

    /**
     * Counts one captured packet.
     *
     * @param outcome what became of it
     */
    public void packet(Packet outcome) {
        inc(packets, outcome.ordinal());
    }

    /**
     * Packets counted with an outcome.
     *
     * @param outcome outcome
     * @return count
     */
    public long packets(Packet outcome) {
        return packets.get(outcome.ordinal());
    }

    /**
     * Records a closed window.
     *
     * @param vnf index
     * @param l95Ns L95
     * @param slackNs τ
     */
    public void window(int vnf, long l95Ns, long slackNs) {
        l95.lazySet(vnf, l95Ns);
        slack.lazySet(vnf, slackNs);
        inc(windows, vnf);
    }

    /**
     * Records a decision (counters and the allocation it set).
     *
     * @param d decision
     */
    public void decision(Decision d) {
        inc(decisions, d.vnf() * ACTIONS.length + d.action().ordinal());
        boolean late = d.action() == Decision.Action.REVERT_LATE;
        if ((late || d.action() == Decision.Action.REVERT) && d.resource() != null) {
            inc(freesReverted, (d.vnf() * TYPES.length + d.resource().ordinal()) * 2
                    + (late ? 1 : 0));
        }
        if (d.action() == Decision.Action.ROTATE) {
            resourceType.lazySet(d.vnf(), d.to());
        } else if (d.resource() != null && d.to() >= 0 && d.action() != Decision.Action.ACTUATOR_ERROR
                && d.action() != Decision.Action.NO_RESOURCE) {
            allocation(d.vnf(), d.resource(), d.to());
        }
    }

    /**
     * Counts a window whose CPU throttling counters (cpu.stat) could not be read.
     *
     * @param vnf index
     */
    public void countThrottleUnread(int vnf) {
        inc(throttleUnread, vnf);
    }

    /**
     * Windows of a vNF whose cpu.stat could not be read.
     *
     * @param vnf index
     * @return count
     */
    public long throttleUnread(int vnf) {
        return throttleUnread.get(vnf);
    }

    /**
     * Sets a vNF's allocation gauge.
     *
     * @param vnf index
     * @param type resource
     * @param value allocation
     */
    public void allocation(int vnf, ResourceType type, long value) {
        allocations.lazySet(vnf * TYPES.length + type.ordinal(), value);
    }

    /**
     * Sets the freeing cool-down gauge of a vNF and type.
     *
     * @param vnf index
     * @param type resource
     * @param windows windows of the vNF left, 0 when it may give the type
     */
    public void cooldown(int vnf, ResourceType type, long windows) {
        cooldown.lazySet(vnf * TYPES.length + type.ordinal(), windows);
    }

    /**
     * Sets every freeing cool-down gauge of a vNF from the loop (per window or decision, not per packet).
     *
     * @param vnf index
     * @param loop the loop, null while it is being built
     */
    public void cooldowns(int vnf, LocalLoop loop) {
        if (loop != null) {
            for (ResourceType t : TYPES) {
                cooldown(vnf, t, loop.cooldown(vnf, t));
            }
        }
    }

    /**
     * Reverted frees of a vNF and type.
     *
     * @param vnf index
     * @param type resource
     * @param late true: reverted within the horizon after the trial kept it; false: by the trial's window
     * @return count
     */
    public long freesReverted(int vnf, ResourceType type, boolean late) {
        return freesReverted.get((vnf * TYPES.length + type.ordinal()) * 2 + (late ? 1 : 0));
    }

    /**
     * Sets T[i] gauge.
     *
     * @param vnf index
     * @param type current type
     */
    public void resourceType(int vnf, ResourceType type) {
        resourceType.lazySet(vnf, type.paperIndex());
    }

    /**
     * Marks a resource type as offered by the host or not.
     *
     * @param type resource
     * @param offered whether the loop uses it
     */
    public void available(ResourceType type, boolean offered) {
        available.set(type.ordinal(), offered ? 1 : 0);
    }

    /**
     * Counts an escalation outcome: 0 sent, 1 failed after every attempt, 2 rejected by the app.
     *
     * @param outcome 0, 1 or 2
     */
    public void escalation(int outcome) {
        escalations.incrementAndGet(outcome);
    }

    /**
     * Decisions of an action for a vNF.
     *
     * @param vnf index
     * @param action action
     * @return count
     */
    public long decisions(int vnf, Decision.Action action) {
        return decisions.get(vnf * ACTIONS.length + action.ordinal());
    }

    private static String esc(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    private String replicaLabels(int i) {
        return "chain=\"" + esc(chainIds.get(i)) + "\",vnf=\"" + esc(vnfIndexes.get(i)) + "\",replica=\""
                + esc(vnfNames.get(i)) + "\"";
    }

    private static void header(StringBuilder sb, String name, String type, String help) {
        sb.append("# HELP ").append(name).append(' ').append(help).append('\n');
        sb.append("# TYPE ").append(name).append(' ').append(type).append('\n');
    }

    private static String seconds(long ns) {
        return Double.toString(ns / 1e9);
    }

    /**
     * Name of the allocation gauge of a resource type, its unit in the name (Prometheus
     * conventions; CPU frequency in hertz, the base unit).
     *
     * @param t resource type
     * @return metric name
     */
    public static String allocationMetric(ResourceType t) {
        return "srv6int_replica_" + t.label() + "_" + (t == ResourceType.CPU_FREQUENCY ? "hertz" : t.unit());
    }

    private static long allocationValue(ResourceType t, long v) {
        return t == ResourceType.CPU_FREQUENCY ? v * 1000 : v; // the pool counts kHz
    }

    /**
     * Renders every metric in the Prometheus text format, with the app's naming scheme
     * (docs/metrics.md): per replica on this node the labels chain, vnf (position in the chain) and
     * replica (the vNF's name in the agent's config); the node is the scrape target's label.
     *
     * @param codecErrors the codec's rejection counters by reason
     * @return exposition text
     */
    public String render(Map<String, Long> codecErrors) {
        StringBuilder sb = new StringBuilder(4096);
        int n = vnfNames.size();
        header(sb, "srv6int_replica_latency_p95_seconds", "gauge",
               "L95 of the replica: 95th percentile of the last window of N Detection Results");
        for (int i = 0; i < n; i++) {
            if (l95.get(i) >= 0) {
                sb.append("srv6int_replica_latency_p95_seconds{").append(replicaLabels(i)).append("} ")
                        .append(seconds(l95.get(i))).append('\n');
            }
        }
        header(sb, "srv6int_replica_latency_slack_seconds", "gauge", "tail latency slack tau = Lmax - L95");
        for (int i = 0; i < n; i++) {
            if (l95.get(i) >= 0) {
                sb.append("srv6int_replica_latency_slack_seconds{").append(replicaLabels(i)).append("} ")
                        .append(seconds(slack.get(i))).append('\n');
            }
        }
        header(sb, "srv6int_vnf_latency_bound_seconds", "gauge", "latency bound Lmax of the vNF");
        for (int i = 0; i < n; i++) {
            sb.append("srv6int_vnf_latency_bound_seconds{").append(replicaLabels(i)).append("} ")
                    .append(seconds(lmax[i])).append('\n');
        }
        header(sb, "srv6int_replica_pod_info", "gauge", "1 per replica that is a pod: its namespace and name");
        for (int i = 0; i < n; i++) {
            if (pods[i] != null) {
                sb.append("srv6int_replica_pod_info{").append(replicaLabels(i)).append(",namespace=\"")
                        .append(esc(pods[i][0])).append("\",pod=\"").append(esc(pods[i][1])).append("\"} 1\n");
            }
        }
        header(sb, "srv6int_replica_latency_windows_total", "counter", "windows of N samples closed");
        for (int i = 0; i < n; i++) {
            sb.append("srv6int_replica_latency_windows_total{").append(replicaLabels(i)).append("} ")
                    .append(windows.get(i)).append('\n');
        }
        header(sb, "srv6int_replica_resource_type", "gauge",
                "T[i]: 1 cpu quota, 2 LLC, 3 memory bandwidth, 4 CPU frequency");
        for (int i = 0; i < n; i++) {
            sb.append("srv6int_replica_resource_type{").append(replicaLabels(i)).append("} ")
                    .append(resourceType.get(i)).append('\n');
        }
        for (ResourceType t : TYPES) {
            String name = allocationMetric(t);
            header(sb, name, "gauge", "the replica's allocation of " + t.label().replace('_', ' '));
            for (int i = 0; i < n; i++) {
                long v = allocations.get(i * TYPES.length + t.ordinal());
                if (v >= 0) {
                    sb.append(name).append('{').append(replicaLabels(i)).append("} ")
                            .append(allocationValue(t, v)).append('\n');
                }
            }
        }
        header(sb, "srv6int_local_loop_decisions_total", "counter", "local loop decisions by action");
        for (int i = 0; i < n; i++) {
            for (Decision.Action a : ACTIONS) {
                sb.append("srv6int_local_loop_decisions_total{").append(replicaLabels(i)).append(",action=\"")
                        .append(a.name().toLowerCase(Locale.ROOT)).append("\"} ")
                        .append(decisions.get(i * ACTIONS.length + a.ordinal())).append('\n');
            }
        }
        header(sb, "srv6int_local_loop_cpu_stat_unread_total", "counter",
                "windows whose cpu.stat (throttling) could not be read; CPU quota was raised without it");
        for (int i = 0; i < n; i++) {
            sb.append("srv6int_local_loop_cpu_stat_unread_total{").append(replicaLabels(i)).append("} ")
                    .append(throttleUnread.get(i)).append('\n');
        }
        header(sb, "srv6int_local_loop_frees_reverted_total", "counter",
                "Algorithm 2 frees reverted: by the trial's window (after=trial) or by a window over the bound "
                + "within the revert horizon after it was kept (after=horizon)");
        for (int i = 0; i < n; i++) {
            for (ResourceType t : TYPES) {
                for (int late = 0; late < 2; late++) {
                    sb.append("srv6int_local_loop_frees_reverted_total{").append(replicaLabels(i))
                            .append(",resource=\"").append(t.label()).append("\",after=\"")
                            .append(late == 1 ? "horizon" : "trial").append("\"} ")
                            .append(freesReverted.get((i * TYPES.length + t.ordinal()) * 2 + late)).append('\n');
                }
            }
        }
        header(sb, "srv6int_local_loop_free_cooldown_windows", "gauge",
                "windows of the replica left before it may give the resource again (0: it may)");
        for (int i = 0; i < n; i++) {
            for (ResourceType t : TYPES) {
                sb.append("srv6int_local_loop_free_cooldown_windows{").append(replicaLabels(i))
                        .append(",resource=\"").append(t.label()).append("\"} ")
                        .append(cooldown.get(i * TYPES.length + t.ordinal())).append('\n');
            }
        }
        header(sb, "srv6int_local_loop_escalations_total", "counter", "escalations to the ONOS app by outcome");
        String[] outcomes = {"sent", "failed", "rejected"};
        for (int k = 0; k < outcomes.length; k++) {
            sb.append("srv6int_local_loop_escalations_total{result=\"").append(outcomes[k]).append("\"} ")
                    .append(escalations.get(k)).append('\n');
        }
        header(sb, "srv6int_node_resource_available", "gauge", "1 if the host offers the resource to the loop");
        for (ResourceType t : TYPES) {
            sb.append("srv6int_node_resource_available{resource=\"").append(t.label()).append("\"} ")
                    .append(available.get(t.ordinal())).append('\n');
        }
        header(sb, "srv6int_node_capture_packets_total", "counter", "captured packets by outcome");
        for (Packet p : PACKETS) {
            sb.append("srv6int_node_capture_packets_total{result=\"").append(p.name().toLowerCase(Locale.ROOT))
                    .append("\"} ").append(packets.get(p.ordinal())).append('\n');
        }
        header(sb, "srv6int_node_capture_decode_errors_total", "counter",
                "captured packets the codec rejected, by reason");
        for (Map.Entry<String, Long> e : codecErrors.entrySet()) {
            sb.append("srv6int_node_capture_decode_errors_total{reason=\"").append(esc(e.getKey())).append("\"} ")
                    .append(e.getValue()).append('\n');
        }
        return sb.toString();
    }
}
