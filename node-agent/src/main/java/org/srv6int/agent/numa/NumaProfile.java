// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.numa;

import java.util.Collections;
import java.util.HashMap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The VNF profiler's lookup table (the paper's §III, Table I): for each vNF type and
 * throughput level, the least LLC ways and memory bandwidth that reach it on the NIC's
 * node ("local", where DDIO puts packets into the LLC) and on another node ("remote";
 * no entry: the level is not reachable there). A chain on one node needs the element-wise
 * maximum of its vNFs' tuples (Observation 5, Max_alloc). Not thread-safe (it caches lookups).
 */
public final class NumaProfile {

    /** Type used for a vNF whose type has no row: the element-wise maximum of every row. */
    public static final String ANY = "*";

    private final double[] levels;
    private final Map<String, NumaNeed[][]> rows = new LinkedHashMap<>();
    /** Ladders already computed, by local flag and types (the engine asks for the same few many times). */
    private final Map<String, Map<Double, NumaNeed>> ladders = new HashMap<>();

    /**
     * Creates an empty table.
     *
     * @param levels upper throughput bound of each column, Gbps, ascending
     */
    public NumaProfile(double... levels) {
        if (levels.length == 0) {
            throw new IllegalArgumentException("a profile needs at least one level");
        }
        for (int i = 1; i < levels.length; i++) {
            if (levels[i] <= levels[i - 1]) {
                throw new IllegalArgumentException("levels must ascend: " + levels[i - 1] + ", " + levels[i]);
            }
        }
        this.levels = levels.clone();
    }

    /**
     * The paper's Table I: Router and Basic Monitor, columns 1-4, 5, 6-7, 8, 9, 10 Gbps;
     * remote tops out at 7 Gbps (the "—" entries). Every other type gets {@link #ANY}.
     *
     * @return the table
     */
    public static NumaProfile paperTableOne() {
        NumaProfile p = new NumaProfile(4, 5, 7, 8, 9, 10);
        p.row("router",
                new int[][] {{2, 10}, {2, 20}, {3, 20}, {3, 30}, {4, 30}, {5, 40}},
                new int[][] {{3, 20}, {3, 30}, {5, 30}});
        p.row("monitor",
                new int[][] {{2, 10}, {2, 20}, {2, 30}, {4, 30}, {4, 30}, {4, 50}},
                new int[][] {{3, 20}, {3, 30}, {4, 40}});
        return p;
    }

    /**
     * Adds a type's row.
     *
     * @param type vNF type
     * @param local {ways, percent} per level on the NIC's node
     * @param remote {ways, percent} per reachable level on another node (may be shorter)
     * @return this
     */
    public NumaProfile row(String type, int[][] local, int[][] remote) {
        if (local.length != levels.length || remote.length > levels.length || remote.length == 0) {
            throw new IllegalArgumentException("type " + type + ": " + local.length + " local / " + remote.length
                    + " remote entries for " + levels.length + " levels");
        }
        NumaNeed[][] r = new NumaNeed[2][levels.length];
        for (int i = 0; i < local.length; i++) {
            r[0][i] = new NumaNeed(local[i][0], local[i][1]);
        }
        for (int i = 0; i < remote.length; i++) {
            r[1][i] = new NumaNeed(remote[i][0], remote[i][1]);
        }
        rows.put(type, r);
        ladders.clear();
        return this;
    }

    private NumaNeed[][] rowOf(String type) {
        NumaNeed[][] r = rows.get(type);
        if (r != null) {
            return r;
        }
        NumaNeed[][] any = new NumaNeed[2][levels.length];
        for (int side = 0; side < 2; side++) {
            for (int i = 0; i < levels.length; i++) {
                NumaNeed m = NumaNeed.ZERO;
                for (NumaNeed[][] each : rows.values()) {
                    if (each[side][i] == null) {
                        m = null; // a level one type cannot reach, ANY cannot either
                        break;
                    }
                    m = m.max(each[side][i]);
                }
                any[side][i] = m;
            }
        }
        return any;
    }

    /**
     * Whether the table has a row for a type.
     *
     * @param type vNF type
     * @return true if profiled
     */
    public boolean known(String type) {
        return rows.containsKey(type);
    }

    /**
     * Highest level of the table.
     *
     * @return Gbps
     */
    public double topLevel() {
        return levels[levels.length - 1];
    }

    /**
     * What a chain needs at a rate (Max_alloc over its vNFs).
     *
     * @param types vNF types of the chain
     * @param gbps offered rate
     * @param local on the NIC's node
     * @return the tuple, or null if the rate is not reachable there
     */
    public NumaNeed need(List<String> types, double gbps, boolean local) {
        int level = levelFor(gbps);
        if (level < 0) {
            return null;
        }
        return ladder(types, local).get(levels[level]);
    }

    private NumaNeed needAt(List<String> types, int level, boolean local) {
        NumaNeed n = NumaNeed.ZERO;
        for (String t : types) {
            NumaNeed e = rowOf(t)[local ? 0 : 1][level];
            if (e == null) {
                return null;
            }
            n = n.max(e);
        }
        return n;
    }

    private int levelFor(double gbps) {
        for (int i = 0; i < levels.length; i++) {
            if (gbps <= levels[i] + 1e-9) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Highest rate the chain reaches on a node at all (the paper's max_remote for a remote node).
     *
     * @param types vNF types
     * @param local on the NIC's node
     * @return Gbps
     */
    public double maxRate(List<String> types, boolean local) {
        double best = 0;
        for (double level : ladder(types, local).keySet()) {
            best = level;
        }
        return best;
    }

    /**
     * The throughput levels and the chain's tuple for each reachable one, ascending.
     *
     * @param types vNF types
     * @param local on the NIC's node
     * @return level (Gbps) to tuple
     */
    public Map<Double, NumaNeed> ladder(List<String> types, boolean local) {
        String key = local + "|" + String.join(",", types);
        Map<Double, NumaNeed> cached = ladders.get(key);
        if (cached != null) {
            return cached;
        }
        Map<Double, NumaNeed> out = new LinkedHashMap<>();
        for (int i = 0; i < levels.length; i++) {
            NumaNeed n = needAt(types, i, local);
            if (n != null) {
                out.put(levels[i], n);
            }
        }
        Map<Double, NumaNeed> frozen = Collections.unmodifiableMap(out);
        ladders.put(key, frozen);
        return frozen;
    }

    /**
     * Throughput a chain reaches with an allocation: the highest level whose tuple fits it.
     * Below the lowest level's tuple the lowest level is scaled by the scarcer of the two
     * resources (the table has no finer column).
     *
     * @param types vNF types
     * @param alloc ways and bandwidth it holds
     * @param local on the NIC's node
     * @return Gbps
     */
    public double achievable(List<String> types, NumaNeed alloc, boolean local) {
        double best = -1;
        for (Map.Entry<Double, NumaNeed> e : ladder(types, local).entrySet()) {
            if (e.getValue().fitsIn(alloc)) {
                best = e.getKey();
            }
        }
        if (best >= 0) {
            return best;
        }
        NumaNeed low = needAt(types, 0, local);
        if (low == null) {
            return 0;
        }
        double f = Math.min(low.ways() == 0 ? 1 : (double) alloc.ways() / low.ways(),
                low.mbPercent() == 0 ? 1 : (double) alloc.mbPercent() / low.mbPercent());
        return levels[0] * Math.max(0, Math.min(1, f));
    }

    /**
     * Profiled types.
     *
     * @return names
     */
    public List<String> types() {
        return new ArrayList<>(rows.keySet());
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "profile of %s up to %.0f Gbps", rows.keySet(), topLevel());
    }
}
