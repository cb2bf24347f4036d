// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.model;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The vNF model measured on this project's real vNFs (vnf/, tools/vnf-curves, docs/lab.md
 * "curves"): per engine, the CPU cost of one packet (cores used / packets forwarded, median of the
 * repetitions) at each CPU quota for the frame mix 200/256/512/1024 bytes, and at quota 1 for each
 * of the four sizes. A type's service time at quota q and size s is the cost at q (linear between
 * the measured quotas, held outside them) times cost(s) / cost(mix) at quota 1 (linear in size
 * between the measured sizes), times the assumed model's sensitivity to LLC ways, memory bandwidth
 * and frequency relative to a full, uncontended allocation (the measuring machine partitions none
 * of them).
 *
 * <p>Engines: Fwd is vnf-fwd, Snort is vnf-ids (Hyperscan, 5000 rules), nDPI is vnf-dpi; ntopng,
 * which classifies with nDPI, is vnf-dpi too (we have no ntopng engine).
 */
public final class MeasuredCurves {
    /** The curves kept in the repository (twin's resources; tools/vnf-curves writes them). */
    public static final String CURVES = "vnf-curves.csv";
    /** Capacity at quota 1 per frame size. */
    public static final String SIZES = "vnf-sizes.csv";
    private static final Allocation FULL = new Allocation(1, Resource.LLC_WAYS.max(), Resource.MEM_BW_PCT.max(),
            Resource.CPU_FREQ_MHZ.max());
    /** Mean frame size of the measured mix, bytes. */
    public static final double MIX_BYTES = (200 + 256 + 512 + 1024) / 4.0;
    private static volatile MeasuredCurves instance;

    private final Map<String, TreeMap<Double, Double>> costByQuota;
    private final Map<String, TreeMap<Double, Double>> costBySize;

    MeasuredCurves(Map<String, TreeMap<Double, Double>> costByQuota, Map<String, TreeMap<Double, Double>> costBySize) {
        this.costByQuota = costByQuota;
        this.costBySize = costBySize;
        for (String e : List.of("fwd", "dpi", "ids")) {
            if (!costByQuota.containsKey(e)) {
                throw new IllegalArgumentException(CURVES + " has no rows for vnf " + e);
            }
        }
    }

    /** The curves of the repository, loaded once. */
    public static MeasuredCurves instance() {
        MeasuredCurves m = instance;
        if (m == null) {
            synchronized (MeasuredCurves.class) {
                m = instance;
                if (m == null) {
                    m = new MeasuredCurves(medians(read(CURVES), false), medians(read(SIZES), true));
                    instance = m;
                }
            }
        }
        return m;
    }

    /** The engine measured for a type. */
    public static String engine(VnfType t) {
        switch (t) {
            case FWD:
                return "fwd";
            case SNORT:
                return "ids";
            default:
                return "dpi"; // nDPI, and ntopng (which classifies with nDPI)
        }
    }

    /**
     * Service time of one packet on one core, microseconds.
     *
     * @param t type
     * @param a allocation
     * @param sizeBytes frame size
     * @return microseconds
     */
    public double serviceTimeUs(VnfType t, Allocation a, int sizeBytes) {
        String e = engine(t);
        double us = interpolate(costByQuota.get(e), a.get(Resource.CPU_QUOTA));
        TreeMap<Double, Double> bySize = costBySize.get(e);
        if (bySize != null && !bySize.isEmpty()) {
            us *= interpolate(bySize, sizeBytes) / interpolate(bySize, MIX_BYTES);
        }
        return us * t.serviceTimeUs(a, sizeBytes) / t.serviceTimeUs(FULL, sizeBytes);
    }

    /**
     * Measured cost of one packet of the mix, µs of a core.
     *
     * @param engine fwd, dpi or ids
     * @param quota CPU quota, cores
     * @return microseconds
     */
    public double costUs(String engine, double quota) {
        TreeMap<Double, Double> m = costByQuota.get(engine);
        if (m == null) {
            throw new IllegalArgumentException("no measured engine " + engine);
        }
        return interpolate(m, quota);
    }

    /** Median cost (µs of a core per packet) per engine and quota, as loaded. */
    public Map<String, TreeMap<Double, Double>> costByQuota() {
        return Collections.unmodifiableMap(costByQuota);
    }

    static double interpolate(TreeMap<Double, Double> m, double x) {
        Map.Entry<Double, Double> lo = m.floorEntry(x);
        Map.Entry<Double, Double> hi = m.ceilingEntry(x);
        if (lo == null) {
            return hi.getValue();
        }
        if (hi == null || hi.getKey().equals(lo.getKey())) {
            return lo.getValue();
        }
        double f = (x - lo.getKey()) / (hi.getKey() - lo.getKey());
        return lo.getValue() + f * (hi.getValue() - lo.getValue());
    }

    /** Rows of a CSV resource as column-name maps. */
    static List<Map<String, String>> read(String name) {
        try (InputStream in = MeasuredCurves.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("measured vNF curves missing: resource " + name);
            }
            return parse(new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<Map<String, String>> parse(BufferedReader r) throws IOException {
        String[] head = r.readLine().split(",", -1);
        List<Map<String, String>> rows = new ArrayList<>();
        for (String line = r.readLine(); line != null; line = r.readLine()) {
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.split(",", -1);
            Map<String, String> row = new HashMap<>();
            for (int i = 0; i < head.length && i < f.length; i++) {
                row.put(head[i], f[i]);
            }
            rows.add(row);
        }
        return rows;
    }

    /**
     * Median per-packet cost, µs of a core, per engine and quota (or, for the sizes file whose
     * vnf column is {@code engine@size}, per engine and size).
     */
    static Map<String, TreeMap<Double, Double>> medians(List<Map<String, String>> rows, boolean bySize) {
        Map<String, Map<Double, List<Double>>> all = new HashMap<>();
        for (Map<String, String> row : rows) {
            double pps = Double.parseDouble(row.get("pps"));
            double cores = Double.parseDouble(row.get("cores_used"));
            if (pps <= 0 || cores <= 0) {
                continue; // nothing forwarded or no CPU time seen: no cost to read
            }
            String v = row.get("vnf");
            double key;
            if (bySize) {
                int at = v.indexOf('@');
                key = Double.parseDouble(v.substring(at + 1));
                v = v.substring(0, at);
            } else {
                key = Double.parseDouble(row.get("quota_cores"));
            }
            all.computeIfAbsent(v, k -> new HashMap<>()).computeIfAbsent(key, k -> new ArrayList<>())
                    .add(cores / pps * 1e6);
        }
        Map<String, TreeMap<Double, Double>> out = new HashMap<>();
        all.forEach((v, byKey) -> {
            TreeMap<Double, Double> m = new TreeMap<>();
            byKey.forEach((k, list) -> {
                Collections.sort(list);
                int n = list.size();
                m.put(k, n % 2 == 1 ? list.get(n / 2) : (list.get(n / 2 - 1) + list.get(n / 2)) / 2);
            });
            out.put(v, m);
        });
        return out;
    }
}
