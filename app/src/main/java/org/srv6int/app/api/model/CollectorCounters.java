// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api.model;

import org.srv6int.codec.DecodeStatus;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The collector's counters since start (monotonic).
 */
public final class CollectorCounters {

    private final long datagrams;
    private final long accepted;
    private final long forgedSource;
    private final long forgedDevice;
    private final long malformed;
    private final long lost;
    private final long late;
    private final long duplicates;
    private final long resyncs;
    private final long unmappedEntries;
    private final long staleCounters;
    private final long unknownChain;
    private final long bindingsRefused;
    private final long notMaster;
    private final Map<DecodeStatus, Long> decodeErrors;

    public CollectorCounters(long datagrams, long accepted, long forgedSource, long forgedDevice, long malformed,
                      long lost, long late, long duplicates, long resyncs, long unmappedEntries,
                      long staleCounters, long unknownChain, long bindingsRefused, long notMaster,
                      Map<DecodeStatus, Long> decodeErrors) {
        this.datagrams = datagrams;
        this.accepted = accepted;
        this.forgedSource = forgedSource;
        this.forgedDevice = forgedDevice;
        this.malformed = malformed;
        this.lost = lost;
        this.late = late;
        this.duplicates = duplicates;
        this.resyncs = resyncs;
        this.unmappedEntries = unmappedEntries;
        this.staleCounters = staleCounters;
        this.unknownChain = unknownChain;
        this.bindingsRefused = bindingsRefused;
        this.notMaster = notMaster;
        this.decodeErrors = Map.copyOf(decodeErrors);
    }

    /** @return datagrams received */
    public long datagrams() {
        return datagrams;
    }

    /** @return reports that updated telemetry */
    public long accepted() {
        return accepted;
    }

    /** @return reports from an address not on the allow-list (dropped undecoded) */
    public long forgedSource() {
        return forgedSource;
    }

    /** @return reports whose Reporter Device_ID is not the one configured for their address */
    public long forgedDevice() {
        return forgedDevice;
    }

    /** @return reports the codec rejected */
    public long malformed() {
        return malformed;
    }

    /** @return reports missing from the reporters' sequences */
    public long lost() {
        return lost;
    }

    /** @return reports that arrived out of order (accepted) */
    public long late() {
        return late;
    }

    /** @return repeated or too-old reports (dropped) */
    public long duplicates() {
        return duplicates;
    }

    /** @return sequence re-synchronisations (first report of a reporter included) */
    public long resyncs() {
        return resyncs;
    }

    /** @return INT entries with a vNF latency that no chain's segment lists explain */
    public long unmappedEntries() {
        return unmappedEntries;
    }

    /** @return Port_Counter values older than the last seen (reordered, ignored) */
    public long staleCounters() {
        return staleCounters;
    }

    /** @return accepted reports whose Tag is no known chain (telemetry per hop only) */
    public long unknownChain() {
        return unknownChain;
    }

    /**
     * @return chains whose new hop bindings the collector refused (two vNFs at one hop of one
     *         switch); such a chain kept its previous bindings
     */
    public long bindingsRefused() {
        return bindingsRefused;
    }

    /**
     * @return reports from a configured switch that another cluster instance masters (dropped:
     *         that instance collects them)
     */
    public long notMaster() {
        return notMaster;
    }

    /** @return codec rejections by reason */
    public Map<DecodeStatus, Long> decodeErrors() {
        return decodeErrors;
    }

    /**
     * Adds the counters of the collector's receive threads. Every shard applies the same bindings,
     * so a refusal counts once (the largest), not once per shard.
     *
     * @param shards per-thread counters
     * @return totals
     */
    public static CollectorCounters sum(List<CollectorCounters> shards) {
        long[] t = new long[13];
        Map<DecodeStatus, Long> errors = new EnumMap<>(DecodeStatus.class);
        for (CollectorCounters c : shards) {
            t[0] += c.datagrams;
            t[1] += c.accepted;
            t[2] += c.forgedSource;
            t[3] += c.forgedDevice;
            t[4] += c.malformed;
            t[5] += c.lost;
            t[6] += c.late;
            t[7] += c.duplicates;
            t[8] += c.resyncs;
            t[9] += c.unmappedEntries;
            t[10] += c.staleCounters;
            t[11] += c.unknownChain;
            t[12] += c.notMaster;
            c.decodeErrors.forEach((k, v) -> errors.merge(k, v, Long::sum));
        }
        long refused = shards.stream().mapToLong(c -> c.bindingsRefused).max().orElse(0);
        return new CollectorCounters(t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9], t[10], t[11],
                                     refused, t[12], errors);
    }

    @Override
    public String toString() {
        return "datagrams=" + datagrams + " accepted=" + accepted + " forgedSource=" + forgedSource
                + " forgedDevice=" + forgedDevice + " malformed=" + malformed + " lost=" + lost
                + " late=" + late + " duplicates=" + duplicates + " resyncs=" + resyncs
                + " unmappedEntries=" + unmappedEntries + " staleCounters=" + staleCounters + " unknownChain="
                        + unknownChain
                + " bindingsRefused=" + bindingsRefused + " notMaster=" + notMaster;
    }
}
