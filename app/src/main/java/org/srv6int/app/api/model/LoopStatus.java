// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api.model;

import com.google.common.base.MoreObjects;
import com.google.common.collect.ImmutableList;

import java.util.List;
import java.util.Objects;

import static com.google.common.base.Preconditions.checkNotNull;

/**
 * Status of the global closed loop as seen from one ONOS instance.
 */
public final class LoopStatus {

    private final boolean enabled;
    private final boolean leader;
    private final String leaderNode;
    private final long tHatMillis;
    private final long lastEvaluationMillis;
    private final List<VnfLoopState> vnfs;

    /**
     * Creates a status.
     *
     * @param enabled              whether the loop is switched on
     * @param leader               whether this instance runs the loop (cluster leader)
     * @param leaderNode           node id of the instance that runs it, "" if none
     * @param tHatMillis           the violation time threshold t-hat, ms
     * @param lastEvaluationMillis when the loop last evaluated, ms since epoch, 0 if never
     * @param vnfs                 per-vNF state
     */
    public LoopStatus(boolean enabled, boolean leader, String leaderNode, long tHatMillis,
                      long lastEvaluationMillis, List<VnfLoopState> vnfs) {
        this.enabled = enabled;
        this.leader = leader;
        this.leaderNode = checkNotNull(leaderNode, "leader node is null");
        this.tHatMillis = tHatMillis;
        this.lastEvaluationMillis = lastEvaluationMillis;
        this.vnfs = ImmutableList.copyOf(checkNotNull(vnfs, "vNF states is null"));
    }

    /**
     * Returns whether the loop is switched on.
     *
     * @return enabled
     */
    public boolean enabled() {
        return enabled;
    }

    /**
     * Returns whether this instance runs the loop.
     *
     * @return leader
     */
    public boolean leader() {
        return leader;
    }

    /**
     * Returns the node id of the instance running the loop.
     *
     * @return node id or ""
     */
    public String leaderNode() {
        return leaderNode;
    }

    /**
     * Returns t-hat.
     *
     * @return ms
     */
    public long tHatMillis() {
        return tHatMillis;
    }

    /**
     * Returns when the loop last evaluated.
     *
     * @return ms since epoch, 0 if never
     */
    public long lastEvaluationMillis() {
        return lastEvaluationMillis;
    }

    /**
     * Returns the per-vNF state.
     *
     * @return states
     */
    public List<VnfLoopState> vnfs() {
        return vnfs;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof LoopStatus)) {
            return false;
        }
        LoopStatus that = (LoopStatus) o;
        return enabled == that.enabled && leader == that.leader && tHatMillis == that.tHatMillis
                && lastEvaluationMillis == that.lastEvaluationMillis && leaderNode.equals(that.leaderNode)
                && vnfs.equals(that.vnfs);
    }

    @Override
    public int hashCode() {
        return Objects.hash(enabled, leader, leaderNode, tHatMillis, lastEvaluationMillis, vnfs);
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper(this).add("enabled", enabled).add("leader", leader)
                .add("leaderNode", leaderNode).add("tHatMillis", tHatMillis)
                .add("lastEvaluationMillis", lastEvaluationMillis).add("vnfs", vnfs).toString();
    }
}
