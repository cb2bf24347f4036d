// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.loop;

/**
 * One action of the local loop, for the decision log and the counters.
 * Made only when the loop acts (at most once per window), never per packet.
 */
public final class Decision {

    /** What the loop did. */
    public enum Action {
        /** Algorithm 1 line 14/18: a step of T[i] added to an over-bound vNF. */
        ADD,
        /** Algorithm 2 line 1: a step freed from the vNF with the largest slack, on trial. */
        FREE,
        /** Algorithm 2: the trial's window stayed within the bound; the free stands. */
        FREE_KEPT,
        /** Algorithm 2 line 6: the trial broke the bound; the free was reverted. */
        REVERT,
        /**
         * Not in the paper: a kept free whose donor went over its bound within the revert horizon counts
         * as reverted; what the free pool has of the step goes back and the donor cools down for the type.
         */
        REVERT_LATE,
        /** Algorithm 3: T[i] rotated to the next resource type. */
        ROTATE,
        /** Algorithm 1 line 20: no type-T[i] resource could be found for the vNF. */
        NO_RESOURCE,
        /** Every offered type was tried and the vNF is still above Lmax: told the ONOS app. */
        ESCALATE,
        /** An actuator refused a write; allocations unchanged. */
        ACTUATOR_ERROR,
        /**
         * Taken back from a vNF because a pod of the node the loop does not manage was promised it
         * (its request, scheduled while the vNFs held more than the rest); not part of the paper.
         */
        RECLAIM,
        /**
         * Not in the paper: the vNF was over its bound but its CPU quota did not throttle it in its last
         * windows, so a raise of the quota would not help; nothing added.
         */
        SKIP_NOT_THROTTLED
    }

    private final Action action;
    private final int vnf;
    private final ResourceType resource;
    private final long from;
    private final long to;
    private final long l95Ns;
    private final long lmaxNs;
    private final int peer;
    private final String detail;

    /**
     * Creates a decision record.
     *
     * @param action what happened
     * @param vnf the vNF acted on
     * @param resource resource type (or null)
     * @param from allocation before (or -1)
     * @param to allocation after (or -1)
     * @param l95Ns L95 that triggered it, ns (or -1)
     * @param lmaxNs the vNF's bound, ns
     * @param peer the other vNF involved (donor or beneficiary), or -1
     * @param detail free text, short
     */
    public Decision(Action action, int vnf, ResourceType resource, long from, long to,
                    long l95Ns, long lmaxNs, int peer, String detail) {
        this.action = action;
        this.vnf = vnf;
        this.resource = resource;
        this.from = from;
        this.to = to;
        this.l95Ns = l95Ns;
        this.lmaxNs = lmaxNs;
        this.peer = peer;
        this.detail = detail;
    }

    /** @return action */
    public Action action() {
        return action;
    }

    /** @return vNF index acted on */
    public int vnf() {
        return vnf;
    }

    /** @return resource type, or null */
    public ResourceType resource() {
        return resource;
    }

    /** @return allocation before, or -1 */
    public long from() {
        return from;
    }

    /** @return allocation after, or -1 */
    public long to() {
        return to;
    }

    /** @return L95 in ns, or -1 */
    public long l95Ns() {
        return l95Ns;
    }

    /** @return Lmax in ns */
    public long lmaxNs() {
        return lmaxNs;
    }

    /** @return the other vNF involved, or -1 */
    public int peer() {
        return peer;
    }

    /** @return detail text, may be empty */
    public String detail() {
        return detail;
    }

    @Override
    public String toString() {
        return action + "(vnf=" + vnf + ", " + resource + " " + from + "->" + to + ", l95=" + l95Ns
                + ", lmax=" + lmaxNs + ", peer=" + peer + (detail.isEmpty() ? "" : ", " + detail) + ")";
    }
}
