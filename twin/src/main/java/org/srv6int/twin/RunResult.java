// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Everything one experiment under one policy produced. */
public final class RunResult {
    /** One timeline.csv row (plus the offered rate, which the summary needs). */
    public static final class Row {
        /** End of the 100 ms bucket, s. */
        public final double t;
        /** Chain id. */
        public final String sfc;
        /** E2E p95, µs (NaN when nothing got through). */
        public final double p95Us;
        /** Delivered Gbit/s. */
        public final double gbps;
        /** Offered Gbit/s. */
        public final double offeredGbps;
        /** Ready replicas of the chain's most replicated vNF. */
        public final int replicas;

        Row(double t, String sfc, double p95Us, double gbps, double offeredGbps, int replicas) {
            this.t = t;
            this.sfc = sfc;
            this.p95Us = p95Us;
            this.gbps = gbps;
            this.offeredGbps = offeredGbps;
            this.replicas = replicas;
        }
    }

    /** One resources.csv row. */
    public static final class ResourceRow {
        /** Time, s. */
        public final double t;
        /** Replica id. */
        public final String vnf;
        /** Values in Resource order. */
        public final double[] values;

        ResourceRow(double t, String vnf, double[] values) {
            this.t = t;
            this.vnf = vnf;
            this.values = values.clone();
        }
    }

    /** Summary of one chain. */
    public static final class ChainSummary {
        /** Chain id. */
        public String sfc;
        /** Bound, µs. */
        public double boundUs;
        /** First 100 ms bucket whose p95 broke the bound, s (NaN: never). */
        public double firstViolationS = Double.NaN;
        /** First horizontal scaling of one of its vNFs, s (NaN: never). */
        public double globalTriggerS = Double.NaN;
        /** End of the last violation episode if the chain stayed within bound afterwards (NaN: never). */
        public double recoveryS = Double.NaN;
        /** Largest bucket p95, µs. */
        public double maxP95Us;
        /** Ready replicas at the end. */
        public int finalReplicas;
        /** Violation episodes [start, end) in s. */
        public final List<double[]> violations = new ArrayList<>();
        /** Fig. 11: largest offered rate met within bound and without loss, Gbit/s (NaN: n/a). */
        public double maxThroughputGbps = Double.NaN;
    }

    final String label;
    final List<Row> rows = new ArrayList<>();
    final List<ResourceRow> resources = new ArrayList<>();
    final Map<String, ChainSummary> chains = new LinkedHashMap<>();
    final List<String> events = new ArrayList<>();
    final Map<String, Object> collector = new LinkedHashMap<>();

    RunResult(String label) {
        this.label = label;
    }

    /** Name of a chain in the outputs: prefixed by the experiment when their names differ. */
    public String chainKey(String chainId) {
        return label.isEmpty() || label.equals(chainId) ? chainId : label + ":" + chainId;
    }

    /** Experiment label. */
    public String label() {
        return label;
    }

    /** Timeline rows. */
    public List<Row> rows() {
        return rows;
    }

    /** Resource rows. */
    public List<ResourceRow> resources() {
        return resources;
    }

    /** Per-chain summaries. */
    public Map<String, ChainSummary> chains() {
        return chains;
    }

    /** The INT collector's figures (empty when no global loop ran). */
    public Map<String, Object> collector() {
        return collector;
    }

    /** Control events (scaling, re-routing). */
    public List<String> events() {
        return events;
    }
}
