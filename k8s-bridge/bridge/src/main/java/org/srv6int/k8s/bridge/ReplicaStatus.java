// SPDX-License-Identifier: Apache-2.0
package org.srv6int.k8s.bridge;

import java.util.Objects;

/**
 * What the bridge sees of one replica: its StatefulSet name, its pod, the node and
 * pod IP, whether the pod is Ready, and the pod phase ({@link #PHASE_ABSENT} while
 * the workload has no pod yet, {@link #PHASE_DELETED} once a watched workload is gone).
 */
public final class ReplicaStatus {
    /** Phase reported when the replica's workload exists but has no pod (yet). */
    public static final String PHASE_ABSENT = "Absent";
    /** Phase the watch reports ({@link ReplicaListener}) once the replica's workload is gone. */
    public static final String PHASE_DELETED = "Deleted";

    private final String name;
    private final int replicaIndex;
    private final String podName;
    private final String nodeName;
    private final String podIp;
    private final boolean ready;
    private final String phase;

    /**
     * Creates a status.
     *
     * @param name StatefulSet name
     * @param replicaIndex replica index
     * @param podName pod name, null if no pod
     * @param nodeName node of the pod, null if not scheduled
     * @param podIp pod IP, null if none yet
     * @param ready whether the pod is Ready
     * @param phase pod phase
     */
    public ReplicaStatus(String name, int replicaIndex, String podName, String nodeName, String podIp,
                         boolean ready, String phase) {
        this.name = Objects.requireNonNull(name, "name");
        this.replicaIndex = replicaIndex;
        this.podName = podName;
        this.nodeName = nodeName;
        this.podIp = podIp;
        this.ready = ready;
        this.phase = Objects.requireNonNull(phase, "phase");
    }

    /**
     * Returns the replica's StatefulSet name.
     *
     * @return name
     */
    public String name() {
        return name;
    }

    /**
     * Returns the replica index.
     *
     * @return replica index
     */
    public int replicaIndex() {
        return replicaIndex;
    }

    /**
     * Returns the pod name, null if there is no pod.
     *
     * @return pod name or null
     */
    public String podName() {
        return podName;
    }

    /**
     * Returns the node the pod runs on, null if not scheduled.
     *
     * @return node or null
     */
    public String nodeName() {
        return nodeName;
    }

    /**
     * Returns the pod IP, null if none yet.
     *
     * @return pod IP or null
     */
    public String podIp() {
        return podIp;
    }

    /**
     * Returns whether the pod is Ready.
     *
     * @return true if Ready
     */
    public boolean ready() {
        return ready;
    }

    /**
     * Returns the pod phase (Pending, Running, ...) or {@link #PHASE_ABSENT}.
     *
     * @return phase
     */
    public String phase() {
        return phase;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof ReplicaStatus)) {
            return false;
        }
        ReplicaStatus s = (ReplicaStatus) o;
        return replicaIndex == s.replicaIndex && ready == s.ready && name.equals(s.name)
                && Objects.equals(podName, s.podName) && Objects.equals(nodeName, s.nodeName)
                && Objects.equals(podIp, s.podIp) && phase.equals(s.phase);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, replicaIndex, podName, nodeName, podIp, ready, phase);
    }

    @Override
    public String toString() {
        return "ReplicaStatus{" + name + ", pod=" + podName + ", node=" + nodeName + ", ip=" + podIp
                + ", ready=" + ready + ", phase=" + phase + "}";
    }
}
