// SPDX-License-Identifier: Apache-2.0
package org.srv6int.k8s.bridge;

/**
 * How the bridge has answered {@link VnfReplicaManager#nodeFreeResources()}: from its watch of
 * nodes and pods (no API call) or by a LIST of every node and pod because the watch could not
 * answer (starting, reconnecting, or refused by RBAC).
 */
public final class NodeCapacityStats {
    private final long fromWatch;
    private final long byList;
    private final long watchRefusals;
    private final String problem;

    /**
     * Creates the record.
     *
     * @param fromWatch     answers from the watch
     * @param byList        answers by a LIST
     * @param watchRefusals times the watch was refused (401/403)
     * @param problem       why the watch cannot answer now, or null
     */
    public NodeCapacityStats(long fromWatch, long byList, long watchRefusals, String problem) {
        this.fromWatch = fromWatch;
        this.byList = byList;
        this.watchRefusals = watchRefusals;
        this.problem = problem;
    }

    /**
     * Returns the answers given from the watch.
     *
     * @return count
     */
    public long fromWatch() {
        return fromWatch;
    }

    /**
     * Returns the answers computed by a LIST.
     *
     * @return count
     */
    public long byList() {
        return byList;
    }

    /**
     * Returns how often the watch was refused (401/403).
     *
     * @return count
     */
    public long watchRefusals() {
        return watchRefusals;
    }

    /**
     * Returns why the watch cannot answer now.
     *
     * @return the reason, or null when it can
     */
    public String problem() {
        return problem;
    }

    @Override
    public String toString() {
        return "nodeFreeResources{fromWatch=" + fromWatch + ", byList=" + byList + ", watchRefusals="
                + watchRefusals + (problem == null ? "" : ", problem=" + problem) + "}";
    }
}
