package org.srv6int.app.telemetry;

import org.srv6int.codec.DecodeStatus;

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
    private final Map<DecodeStatus, Long> decodeErrors;

    CollectorCounters(long datagrams, long accepted, long forgedSource, long forgedDevice, long malformed,
                      long lost, long late, long duplicates, long resyncs, long unmappedEntries,
                      long staleCounters, long unknownChain, long bindingsRefused, Map<DecodeStatus, Long> decodeErrors) {
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

    /** @return codec rejections by reason */
    public Map<DecodeStatus, Long> decodeErrors() {
        return decodeErrors;
    }

    @Override
    public String toString() {
        return "datagrams=" + datagrams + " accepted=" + accepted + " forgedSource=" + forgedSource
                + " forgedDevice=" + forgedDevice + " malformed=" + malformed + " lost=" + lost
                + " late=" + late + " duplicates=" + duplicates + " resyncs=" + resyncs
                + " unmappedEntries=" + unmappedEntries + " staleCounters=" + staleCounters + " unknownChain=" + unknownChain
                + " bindingsRefused=" + bindingsRefused;
    }
}
