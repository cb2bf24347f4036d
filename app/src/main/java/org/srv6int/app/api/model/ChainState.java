// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api.model;

import com.google.common.base.MoreObjects;
import com.google.common.collect.ImmutableList;

import java.util.List;
import java.util.Objects;

import static com.google.common.base.Preconditions.checkNotNull;

/**
 * Liveness of one chain as the global loop's failure detection sees it (docs/failures.md).
 */
public final class ChainState {

    /** Liveness of a chain. */
    public enum Liveness {
        /** INT reports of the chain arrive (or arrived within the silence). */
        UP,
        /** Its ingress classifies no traffic: nothing to judge. */
        IDLE,
        /** Traffic enters but no INT report leaves for the silence, or no segment list is left. */
        DOWN,
        /** Nothing known yet (no window, or the ingress counter cannot be read and no report came). */
        UNKNOWN
    }

    private final SfcId sfc;
    private final Liveness liveness;
    private final long sinceMillis;
    private final String lastHopSeen;
    private final String reason;
    private final long classifiedPackets;
    private final long lastReportMillis;
    private final List<String> deadReplicas;

    /**
     * Creates a chain state.
     *
     * @param sfc               chain
     * @param liveness          liveness
     * @param sinceMillis       since when (ms since epoch), 0 if unknown
     * @param lastHopSeen       the furthest hop whose switch counter moved during the silence, "" if not down
     * @param reason            why it is down, "" if not down
     * @param classifiedPackets the ingress classifier's packet counter, -1 if it cannot be read
     * @param lastReportMillis  when the last INT report of the chain arrived, 0 if never
     * @param deadReplicas      replicas of the chain that count dead ("vnf/name"), sorted
     */
    public ChainState(SfcId sfc, Liveness liveness, long sinceMillis, String lastHopSeen, String reason,
                      long classifiedPackets, long lastReportMillis, List<String> deadReplicas) {
        this.sfc = checkNotNull(sfc, "chain id is null");
        this.liveness = checkNotNull(liveness, "liveness is null");
        this.sinceMillis = sinceMillis;
        this.lastHopSeen = checkNotNull(lastHopSeen, "last hop is null");
        this.reason = checkNotNull(reason, "reason is null");
        this.classifiedPackets = classifiedPackets;
        this.lastReportMillis = lastReportMillis;
        this.deadReplicas = ImmutableList.copyOf(checkNotNull(deadReplicas, "dead replicas is null"));
    }

    /**
     * Returns the chain.
     *
     * @return chain id
     */
    public SfcId sfc() {
        return sfc;
    }

    /**
     * Returns the liveness.
     *
     * @return liveness
     */
    public Liveness liveness() {
        return liveness;
    }

    /**
     * Returns since when the chain is in this state.
     *
     * @return ms since epoch, 0 if unknown
     */
    public long sinceMillis() {
        return sinceMillis;
    }

    /**
     * Returns the furthest hop of the chain whose switch counter moved during the silence
     * (e.g. "ingress of:..01" or "vNF 0 r0 at of:..02"), "" unless down.
     *
     * @return text
     */
    public String lastHopSeen() {
        return lastHopSeen;
    }

    /**
     * Returns why the chain is down.
     *
     * @return text, "" unless down
     */
    public String reason() {
        return reason;
    }

    /**
     * Returns the ingress classifier's packet counter.
     *
     * @return packets, -1 if it cannot be read
     */
    public long classifiedPackets() {
        return classifiedPackets;
    }

    /**
     * Returns when the last INT report of the chain arrived.
     *
     * @return ms since epoch, 0 if never
     */
    public long lastReportMillis() {
        return lastReportMillis;
    }

    /**
     * Returns the chain's replicas that count dead.
     *
     * @return "vnf/name" texts, sorted
     */
    public List<String> deadReplicas() {
        return deadReplicas;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof ChainState)) {
            return false;
        }
        ChainState c = (ChainState) o;
        return sinceMillis == c.sinceMillis && classifiedPackets == c.classifiedPackets
                && lastReportMillis == c.lastReportMillis && sfc.equals(c.sfc) && liveness == c.liveness
                && lastHopSeen.equals(c.lastHopSeen) && reason.equals(c.reason) && deadReplicas.equals(c.deadReplicas);
    }

    @Override
    public int hashCode() {
        return Objects.hash(sfc, liveness, sinceMillis, lastHopSeen, reason, classifiedPackets, lastReportMillis,
                            deadReplicas);
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper(this).add("sfc", sfc).add("liveness", liveness).add("since", sinceMillis)
                .add("lastHopSeen", lastHopSeen).add("reason", reason).add("classified", classifiedPackets)
                .add("lastReport", lastReportMillis).add("dead", deadReplicas).toString();
    }
}
