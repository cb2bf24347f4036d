// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.pods;

import org.srv6int.agent.loop.ResourceType;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Node-level metrics of the agent's Kubernetes side (pods followed, overwrites found,
 * resize patches, recommendations, wiring and event failures). They outlive every rebuild
 * of the loop; the per-vNF metrics are the loop's.
 */
public final class PodMetrics {

    /** What became of a pod the informer reported. */
    public enum PodState {
        /** Managed by the loop. */
        MANAGED,
        /** Labels or annotations missing or malformed (an event says which). */
        MALFORMED,
        /** Opted out by annotation. */
        OPTED_OUT,
        /** Not ready yet, or its cgroup not found yet. */
        WAITING
    }

    /** Reaction to an overwrite. */
    public enum Overwrite {
        /** The agent's value was written again. */
        REAPPLIED,
        /** The value found was taken as the allocation. */
        YIELDED
    }

    private static final ResourceType[] TYPES = ResourceType.all();

    private final String mode;
    private volatile String cpuVia = "none";
    private final AtomicLongArray pods = new AtomicLongArray(PodState.values().length);
    private final AtomicLongArray overwrites = new AtomicLongArray(TYPES.length * Overwrite.values().length);
    private final AtomicLongArray recommendations = new AtomicLongArray(TYPES.length);
    private final AtomicLongArray resizePatches = new AtomicLongArray(2);
    private final AtomicLong wiringErrors = new AtomicLong();
    private final AtomicLong rebuilds = new AtomicLong();
    private final AtomicLongArray held = new AtomicLongArray(5);
    private volatile PodEvents events;

    /**
     * Creates the metrics.
     *
     * @param mode enforce or recommend
     */
    public PodMetrics(String mode) {
        this.mode = mode.toLowerCase(Locale.ROOT);
    }

    /**
     * Where CPU quota changes go.
     *
     * @param via "resize" or "cgroup"
     */
    public void cpuVia(String via) {
        this.cpuVia = via;
    }

    /**
     * The event publisher, whose counters are shown.
     *
     * @param e publisher
     */
    public void events(PodEvents e) {
        this.events = e;
    }

    /**
     * Sets the pod counts after a reconciliation.
     *
     * @param counts by {@link PodState} ordinal
     */
    public void pods(long[] counts) {
        for (int i = 0; i < counts.length; i++) {
            pods.set(i, counts[i]);
        }
    }

    /**
     * Pods in a state.
     *
     * @param s state
     * @return count
     */
    public long pods(PodState s) {
        return pods.get(s.ordinal());
    }

    /**
     * An overwrite was found and handled.
     *
     * @param type resource
     * @param how reaction
     */
    public void overwrite(ResourceType type, Overwrite how) {
        overwrites.incrementAndGet(type.ordinal() * Overwrite.values().length + how.ordinal());
    }

    /**
     * Overwrites handled.
     *
     * @param type resource
     * @param how reaction
     * @return count
     */
    public long overwrites(ResourceType type, Overwrite how) {
        return overwrites.get(type.ordinal() * Overwrite.values().length + how.ordinal());
    }

    /**
     * A recommendation was published.
     *
     * @param type resource
     */
    public void recommendation(ResourceType type) {
        recommendations.incrementAndGet(type.ordinal());
    }

    /**
     * Recommendations published.
     *
     * @param type resource
     * @return count
     */
    public long recommendations(ResourceType type) {
        return recommendations.get(type.ordinal());
    }

    /**
     * Resize patch counters ({@link ResizeCpuActuator#OK}, {@link ResizeCpuActuator#FAILED}).
     *
     * @return the live counters
     */
    public AtomicLongArray resizePatches() {
        return resizePatches;
    }

    /**
     * Sets what is held for the node's pods the agent does not manage ({@link Reservations}).
     *
     * @param cpuMillis CPU held
     * @param llcWays LLC ways held (the pods' profile annotations)
     * @param memoryBandwidthPercent memory bandwidth held (the same)
     * @param pods pods counted
     * @param unreadable pods whose request or profile could not be read
     */
    public void held(long cpuMillis, long llcWays, long memoryBandwidthPercent, int pods, int unreadable) {
        held.set(0, cpuMillis);
        held.set(1, pods);
        held.set(2, unreadable);
        held.set(3, llcWays);
        held.set(4, memoryBandwidthPercent);
    }

    /**
     * CPU held for the node's pods the agent does not manage.
     *
     * @return millicores
     */
    public long heldCpuMillis() {
        return held.get(0);
    }

    /** A wire or unwire call failed. */
    public void wiringError() {
        wiringErrors.incrementAndGet();
    }

    /** The loop was rebuilt for a new set of pods. */
    public void rebuilt() {
        rebuilds.incrementAndGet();
    }

    /**
     * Renders these metrics (Prometheus text).
     *
     * @param sb where to append
     */
    public void render(StringBuilder sb) {
        sb.append("# HELP srv6int_local_loop_mode 1 for the mode the agent runs in\n# TYPE srv6int_local_loop_mode "
                + "gauge\n");
        sb.append("srv6int_local_loop_mode{mode=\"").append(mode).append("\"} 1\n");
        sb.append("# HELP srv6int_node_cpu_actuation 1 for where CPU quota changes go\n"
                + "# TYPE srv6int_node_cpu_actuation gauge\n");
        sb.append("srv6int_node_cpu_actuation{via=\"").append(cpuVia).append("\"} 1\n");
        sb.append("# HELP srv6int_node_replica_pods replica pods of this node by state\n# TYPE "
                + "srv6int_node_replica_pods gauge\n");
        for (PodState s : PodState.values()) {
            sb.append("srv6int_node_replica_pods{state=\"").append(s.name().toLowerCase(Locale.ROOT)).append("\"} ")
                    .append(pods.get(s.ordinal())).append('\n');
        }
        sb.append("# HELP srv6int_node_overwrites_total values of the agent found overwritten, by reaction\n"
                + "# TYPE srv6int_node_overwrites_total counter\n");
        for (ResourceType t : TYPES) {
            for (Overwrite o : Overwrite.values()) {
                sb.append("srv6int_node_overwrites_total{resource=\"").append(t.label()).append("\",action=\"")
                        .append(o.name().toLowerCase(Locale.ROOT)).append("\"} ")
                        .append(overwrites(t, o)).append('\n');
            }
        }
        sb.append("# HELP srv6int_local_loop_recommendations_total values recommend mode published instead of writing\n"
                + "# TYPE srv6int_local_loop_recommendations_total counter\n");
        for (ResourceType t : TYPES) {
            sb.append("srv6int_local_loop_recommendations_total{resource=\"").append(t.label()).append("\"} ")
                    .append(recommendations.get(t.ordinal())).append('\n');
        }
        sb.append("# HELP srv6int_node_resize_patches_total patches of pods/resize by outcome\n"
                + "# TYPE srv6int_node_resize_patches_total counter\n");
        sb.append("srv6int_node_resize_patches_total{result=\"ok\"} ").append(resizePatches.get(0)).append('\n');
        sb.append("srv6int_node_resize_patches_total{result=\"failed\"} ").append(resizePatches.get(1)).append('\n');
        sb.append("# HELP srv6int_node_held_cpu_millicores CPU requested by pods of the node the agent does not "
                + "manage (scheduled, not Ready; other workloads), never handed to its vNFs\n"
                + "# TYPE srv6int_node_held_cpu_millicores gauge\n");
        sb.append("srv6int_node_held_cpu_millicores ").append(held.get(0)).append('\n');
        sb.append("# HELP srv6int_node_held_llc_ways LLC ways of the profiles of replicas of the node the agent does "
                + "not manage yet (annotation srv6int.org/llc-ways), never handed to its vNFs\n"
                + "# TYPE srv6int_node_held_llc_ways gauge\n");
        sb.append("srv6int_node_held_llc_ways ").append(held.get(3)).append('\n');
        sb.append("# HELP srv6int_node_held_memory_bandwidth_percent memory bandwidth of the same profiles "
                + "(annotation srv6int.org/memory-bandwidth-percent)\n"
                + "# TYPE srv6int_node_held_memory_bandwidth_percent gauge\n");
        sb.append("srv6int_node_held_memory_bandwidth_percent ").append(held.get(4)).append('\n');
        sb.append("# HELP srv6int_node_holding_pods pods of the node whose CPU request is held, by outcome\n"
                + "# TYPE srv6int_node_holding_pods gauge\n");
        sb.append("srv6int_node_holding_pods{request=\"read\"} ").append(held.get(1)).append('\n');
        sb.append("srv6int_node_holding_pods{request=\"unreadable\"} ").append(held.get(2)).append('\n');
        sb.append("# HELP srv6int_node_wiring_errors_total failed wire/unwire calls\n"
                + "# TYPE srv6int_node_wiring_errors_total counter\n");
        sb.append("srv6int_node_wiring_errors_total ").append(wiringErrors.get()).append('\n');
        sb.append("# HELP srv6int_local_loop_rebuilds_total loop rebuilds for a changed set of pods\n"
                + "# TYPE srv6int_local_loop_rebuilds_total counter\n");
        sb.append("srv6int_local_loop_rebuilds_total ").append(rebuilds.get()).append('\n');
        PodEvents e = events;
        if (e != null) {
            sb.append("# HELP srv6int_node_pod_events_total events posted on pods, by outcome\n"
                    + "# TYPE srv6int_node_pod_events_total counter\n");
            sb.append("srv6int_node_pod_events_total{result=\"posted\"} ").append(e.posted()).append('\n');
            sb.append("srv6int_node_pod_events_total{result=\"failed\"} ").append(e.failed()).append('\n');
        }
    }
}
