// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.telemetry;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The engine's allow-list of reporters and their sequence trackers. Each reconfiguration builds
 * an immutable {@link Snapshot} the receive thread reads through one volatile field; a switch
 * keeps its tracker while it stays collected here, and the counters of trackers let go stay in
 * the totals. Not thread-safe: the engine calls it under its lock.
 */
final class ReporterTable {

    /** Allow-list snapshot: address to reporter slot. */
    static final class Snapshot {
        final LongIntMap bySource;
        final int[] deviceId;
        final SequenceTracker[] trackers;
        // False for a switch another cluster instance masters: its reports are counted and dropped.
        final boolean[] local;

        Snapshot(LongIntMap bySource, int[] deviceId, SequenceTracker[] trackers, boolean[] local) {
            this.bySource = bySource;
            this.deviceId = deviceId;
            this.trackers = trackers;
            this.local = local;
        }
    }

    /** The empty allow-list. */
    static final Snapshot EMPTY = new Snapshot(new LongIntMap(1), new int[0], new SequenceTracker[0], new boolean[0]);

    private final int maxReporters;
    private final Map<Integer, SequenceTracker> trackersBySource = new HashMap<>();
    // Sources this engine has collected at some time.
    private final Set<Integer> everLocal = new HashSet<>();
    // lost, late, duplicates, resyncs of trackers no longer in use
    private final long[] retired = new long[4];
    private boolean cameBack;

    ReporterTable(int maxReporters) {
        this.maxReporters = maxReporters;
    }

    /**
     * Builds the next allow-list.
     *
     * @param reportSources     IPv4 source address (network order) to Device_ID, every configured switch
     * @param masteredElsewhere sources this instance does not master
     * @return the snapshot to publish
     * @throws IllegalArgumentException if more than the limit or a device id is out of range
     */
    Snapshot replace(Map<Integer, Integer> reportSources, Set<Integer> masteredElsewhere) {
        if (reportSources.size() > maxReporters) {
            throw new IllegalArgumentException("too many reporters: " + reportSources.size()
                                                       + " > " + maxReporters
                                                       + " (raise netcfg collector.maxReporters)");
        }
        LongIntMap map = new LongIntMap(reportSources.size());
        int[] devs = new int[reportSources.size()];
        SequenceTracker[] trackers = new SequenceTracker[reportSources.size()];
        boolean[] local = new boolean[reportSources.size()];
        Map<Integer, SequenceTracker> kept = new HashMap<>();
        int i = 0;
        for (Map.Entry<Integer, Integer> e : reportSources.entrySet()) {
            int dev = e.getValue();
            if (dev < 0 || dev > 0xFFFF) {
                throw new IllegalArgumentException("reporter device id out of range: " + dev);
            }
            map.put(e.getKey() & 0xFFFFFFFFL, i);
            devs[i] = dev;
            local[i] = !masteredElsewhere.contains(e.getKey());
            trackers[i] = local[i] ? trackersBySource.getOrDefault(e.getKey(), new SequenceTracker())
                    : new SequenceTracker();
            if (local[i]) {
                kept.put(e.getKey(), trackers[i]);
            }
            i++;
        }
        // Counters of trackers let go stay in the totals, which are monotonic.
        for (Map.Entry<Integer, SequenceTracker> e : trackersBySource.entrySet()) {
            if (kept.get(e.getKey()) != e.getValue()) {
                SequenceTracker t = e.getValue();
                retired[0] += t.lost();
                retired[1] += t.late();
                retired[2] += t.duplicates();
                retired[3] += t.resyncs();
            }
        }
        boolean back = false;
        for (Integer src : kept.keySet()) {
            back |= !trackersBySource.containsKey(src) && everLocal.contains(src);
        }
        cameBack = back;
        everLocal.addAll(kept.keySet());
        trackersBySource.clear();
        trackersBySource.putAll(kept);
        return new Snapshot(map, devs, trackers, local);
    }

    /**
     * Whether the last {@link #replace} took back a switch collected here before: the
     * Port_Counters it reported meanwhile went elsewhere, so the engine restarts its baselines.
     */
    boolean switchCameBack() {
        return cameBack;
    }

    /** Lost, late, duplicate and resync counts of trackers no longer in use (a copy). */
    long[] retired() {
        return retired.clone();
    }
}
