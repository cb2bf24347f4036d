// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.telemetry;

import org.srv6int.app.api.model.TelemetrySnapshot;
import org.srv6int.app.api.model.CollectorCounters;
import org.srv6int.app.api.model.PeerWindow;
import org.srv6int.app.api.ReportTap;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongSupplier;

/**
 * The collector's window shards: one {@link TelemetryEngine} (decoder, sequence trackers,
 * histograms, counters) per receive thread, so the hot path shares nothing and takes no lock.
 * Configuration goes to every shard; {@link #roll()} adds the shards' closed windows into one
 * snapshot (histograms added, so a percentile is over the union of samples).
 *
 * <p>Shards are added on demand and never removed: counters stay monotonic when the thread count
 * changes. SO_REUSEPORT hashes a datagram's 4-tuple to a socket, so every report of one switch
 * (fixed source address and port) lands in one shard and its sequence and Port_Counter state
 * there is exact; when the socket count changes a switch may move to another shard, which
 * re-synchronises it on its first report (counted in {@link CollectorCounters#resyncs()}).
 */
public final class TelemetryShards {

    private final TelemetryEngine.Limits limits;
    private final LongSupplier clock;
    private final List<TelemetryEngine> shards = new CopyOnWriteArrayList<>();
    private final WindowMerge merge;
    private Map<Integer, Integer> reporters = Map.of();
    private Set<Integer> elsewhere = Set.of();
    private Collection<HopBinding> bindings = List.of();
    private ReportTap tap;
    private int summaryBytes;
    private long exchangeFailures;
    private long summariesRejected;

    /**
     * Creates shards.
     *
     * @param count  initial shard count (at least 1)
     * @param limits each shard's size limits
     * @param clock  monotonic nanosecond clock of the windows
     */
    public TelemetryShards(int count, TelemetryEngine.Limits limits, LongSupplier clock) {
        this.limits = limits;
        this.clock = clock;
        this.merge = new WindowMerge(limits.highestLatencyNanos);
        ensure(count);
    }

    /**
     * Makes sure at least {@code count} shards exist; new ones get the current configuration.
     *
     * @param count shards wanted
     */
    public synchronized void ensure(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("collector threads must be at least 1, got " + count);
        }
        while (shards.size() < count) {
            TelemetryEngine e = new TelemetryEngine(limits, clock);
            e.setReporters(reporters, elsewhere);
            e.setBindings(bindings);
            shards.add(e);
        }
        applyTap();
    }

    /**
     * Starts or stops the per-report export's sampling on every shard; the rate cap is shared
     * evenly among the shards.
     *
     * @param t where sampled reports go, null to stop
     */
    public synchronized void setReportTap(ReportTap t) {
        tap = t;
        applyTap();
    }

    private void applyTap() {
        for (TelemetryEngine e : shards) {
            e.setReportTap(tap, tap == null ? 0 : (double) tap.maxPerSecond() / shards.size());
        }
    }

    /** @return number of shards */
    public int size() {
        return shards.size();
    }

    /**
     * Returns shard {@code i}, which exactly one receive thread feeds.
     *
     * @param i index
     * @return the shard's engine
     */
    public TelemetryEngine shard(int i) {
        return shards.get(i);
    }

    /**
     * Replaces every shard's allow-list (see {@link TelemetryEngine#setReporters(Map, Set)}).
     *
     * @param reportSources     source address to Device_ID, every configured switch
     * @param masteredElsewhere sources of the switches another instance masters
     */
    public synchronized void setReporters(Map<Integer, Integer> reportSources, Set<Integer> masteredElsewhere) {
        for (TelemetryEngine e : shards) {
            e.setReporters(reportSources, masteredElsewhere);
        }
        reporters = Map.copyOf(reportSources);
        elsewhere = Set.copyOf(masteredElsewhere);
    }

    /**
     * Replaces every shard's hop bindings (see {@link TelemetryEngine#setBindings(Collection)}).
     *
     * @param all every binding of every chain
     * @return one message per refused chain (the same in every shard)
     */
    public synchronized List<String> setBindings(Collection<HopBinding> all) {
        List<String> refused = List.of();
        for (TelemetryEngine e : shards) {
            refused = e.setBindings(all);
        }
        bindings = List.copyOf(all);
        return refused;
    }

    /**
     * Closes every shard's window and merges them.
     *
     * @return the closed window of the whole collector
     */
    public synchronized TelemetrySnapshot roll() {
        merge.clear();
        for (TelemetryEngine e : shards) {
            e.rollInto(merge);
        }
        return merge.snapshot(counters());
    }

    /**
     * Closes every shard's window, publishes its summary to the cluster and adds the other
     * instances' fresh summaries: the window of the whole cluster. A stale summary (older than
     * {@link SummaryExchange#staleAfterMillis()}) is listed in {@link TelemetrySnapshot#peers()}
     * but not used; a summary that cannot be decoded is counted and left out; if the exchange
     * fails the window holds this instance's reports only.
     *
     * @param cluster the exchange
     * @return the cluster's window
     */
    public synchronized TelemetrySnapshot roll(SummaryExchange cluster) {
        merge.clear();
        for (TelemetryEngine e : shards) {
            e.rollInto(merge);
        }
        CollectorCounters c = counters();
        String me = cluster.localNode();
        long now = cluster.nowMillis();
        byte[] mine = merge.encode(me, now, c.lost());
        summaryBytes = mine.length;
        merge.peer(new PeerWindow(me, 0, true, mine.length, c.lost()));
        List<byte[]> all;
        try {
            all = cluster.exchange(mine);
        } catch (RuntimeException e) {
            exchangeFailures++;
            return merge.snapshot(c);
        }
        for (byte[] other : all) {
            WindowMerge.SummaryHeader h;
            try {
                h = WindowMerge.header(other);
                if (h.node.equals(me)) {
                    continue;
                }
                long age = Math.max(0, now - h.wallMillis);
                boolean fresh = age <= cluster.staleAfterMillis();
                if (fresh) {
                    merge.add(other);
                }
                merge.peer(new PeerWindow(h.node, age, fresh, other.length, h.lost));
            } catch (IllegalArgumentException e) {
                summariesRejected++;
            }
        }
        return merge.snapshot(c);
    }

    /** @return size of this instance's last published summary, bytes */
    public synchronized int summaryBytes() {
        return summaryBytes;
    }

    /** @return windows whose summary exchange failed (they held this instance's reports only) */
    public synchronized long exchangeFailures() {
        return exchangeFailures;
    }

    /** @return other instances' summaries that could not be decoded (left out) */
    public synchronized long summariesRejected() {
        return summariesRejected;
    }

    /**
     * Returns the totals over all receive threads.
     *
     * @return counters
     */
    public CollectorCounters counters() {
        return CollectorCounters.sum(shardCounters());
    }

    /**
     * Returns each receive thread's counters (a racy but monotonic read of plain fields).
     *
     * @return counters by shard index
     */
    public List<CollectorCounters> shardCounters() {
        List<CollectorCounters> out = new ArrayList<>();
        for (TelemetryEngine e : shards) {
            out.add(e.counters());
        }
        return out;
    }
}
