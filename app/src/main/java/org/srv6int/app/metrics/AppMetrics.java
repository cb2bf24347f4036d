// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.metrics;

import java.util.function.ToLongFunction;
import org.srv6int.app.api.model.ChainState;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.api.model.LoopStatus;
import org.srv6int.app.api.model.ReplicaState;
import org.srv6int.app.api.model.ReplicaTransition;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfLoopState;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.api.model.VnfReplicaId;
import org.srv6int.app.api.model.VnfSpec;
import org.srv6int.app.export.ExportCounters;
import org.srv6int.app.export.ExportStats;
import org.srv6int.app.api.model.ChainWindow;
import org.srv6int.app.api.model.CollectorCounters;
import org.srv6int.app.api.model.VnfWindow;
import org.srv6int.codec.DecodeStatus;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * Renders the app's metrics from one {@link MetricsInputs} in the Prometheus text format. Names
 * follow Prometheus conventions (base units in the name, {@code _total} for counters); the labels
 * are {@code chain} (chain id), {@code vnf} (position in the chain), {@code vnf_type},
 * {@code replica} (replica name), {@code node} (worker), {@code thread} (collector receive thread)
 * and enumerations (action, outcome, result, reason, state, level). Chains, vNFs and replicas
 * beyond their caps fold into one {@code overflow} series per family. Every metric is listed in
 * docs/metrics.md.
 */
public final class AppMetrics {

    /** Series levels that have a cap. */
    enum Level {
        CHAIN, VNF, REPLICA;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** How a family combines the values of folded keys. */
    private enum Fold { SUM, MAX, MIN }

    private static final double NS = 1e9;
    private static final String UNKNOWN = "unknown";

    private final Map<Level, AtomicLong> foldedTotal = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> readErrors = new ConcurrentHashMap<>();
    private volatile MetricsSettings settings;

    /**
     * Creates the renderer.
     *
     * @param settings caps on series
     */
    public AppMetrics(MetricsSettings settings) {
        this.settings = settings;
        for (Level l : Level.values()) {
            foldedTotal.put(l, new AtomicLong());
        }
        for (String part : MetricsSettings.PARTS) {
            readErrors.put(part, new AtomicLong());
        }
    }

    /**
     * Replaces the caps; the next render uses them.
     *
     * @param s settings
     */
    void settings(MetricsSettings s) {
        settings = s;
    }

    /**
     * Counts a part of the inputs that could not be read.
     *
     * @param part one of {@link MetricsSettings#PARTS}
     */
    void readError(String part) {
        readErrors.computeIfAbsent(part, k -> new AtomicLong()).incrementAndGet();
    }

    /** One key's labels and value; a NaN value writes no sample. */
    private static final class Row {
        final String[] labels;
        final double value;

        Row(String[] labels, double value) {
            this.labels = labels;
            this.value = value;
        }
    }

    /**
     * Writes rows of keys, those the cap folds combined into one overflow sample per distinct
     * extra labels. {@code capLabels} label names take "overflow" in the folded sample.
     */
    private static <K> void rows(TextExposition out, SeriesCap<K> cap, Fold fold, Map<K, Row> rows,
                                 int capLabels) {
        Map<List<String>, Double> overflow = new LinkedHashMap<>();
        String[] overflowNames = null;
        for (Map.Entry<K, Row> e : rows.entrySet()) {
            Row r = e.getValue();
            if (Double.isNaN(r.value)) {
                continue;
            }
            if (cap.keeps(e.getKey())) {
                out.sample(r.value, r.labels);
                continue;
            }
            String[] l = r.labels.clone();
            for (int i = 0; i < capLabels; i++) {
                l[2 * i + 1] = SeriesCap.OVERFLOW;
            }
            overflowNames = l;
            List<String> id = List.of(l);
            overflow.merge(id, r.value, (a, b) -> fold == Fold.SUM ? a + b
                    : fold == Fold.MAX ? Math.max(a, b) : Math.min(a, b));
        }
        if (overflowNames != null) {
            for (Map.Entry<List<String>, Double> e : overflow.entrySet()) {
                out.sample(e.getValue(), e.getKey().toArray(new String[0]));
            }
        }
    }

    /** GlobalLoopService.failureCounters() names and their {@code event} label. */
    private static final String[][] FAILURE_EVENTS = {
        {"chainDowns", "chain_down"}, {"replicaDeaths", "replica_death"}, {"replicaReturns", "replica_return"},
        {"replicaFlaps", "replica_flap"}, {"reroutes", "reroute"},
        {"drainDeletesHeld", "drain_delete_held"}, {"drainsGivenUp", "drain_given_up"},
        {"reservationsJoined", "reservation_joined"}, {"reservationsGivenBack", "reservation_given_back"},
        {"reservationStepsFailed", "reservation_step_failed"},
    };

    private static String[] chainLabels(SfcId c, String... extra) {
        String[] l = new String[2 + extra.length];
        l[0] = "chain";
        l[1] = Integer.toString(c.id());
        System.arraycopy(extra, 0, l, 2, extra.length);
        return l;
    }

    /**
     * Renders the metrics.
     *
     * @param in inputs of this scrape
     * @param nowMillis wall-clock now, ms since epoch
     * @return exposition text
     */
    String render(MetricsInputs in, long nowMillis) {
        MetricsSettings s = settings;
        TextExposition out = new TextExposition();
        ScrapeKeys k = new ScrapeKeys(in, s);
        chainFamilies(out, k, in);
        vnfFamilies(out, k, in, nowMillis);
        replicaFamilies(out, k);
        lifecycleFamilies(out, in);
        loopFamilies(out, in);
        // --- telemetry window and collector
        if (in.window != null) {
            out.family("srv6int_window_duration_seconds", "gauge", "length of the last closed telemetry window");
            out.sample(k.windowSeconds);
        }
        out.family("srv6int_collector_up", "gauge", "1 if the INT collector component runs");
        out.sample(in.collectorRunning ? 1 : 0);
        collector(out, in.threads);
        cluster(out, in.collectorCounters);
        exports(out, in);
        exporterFamilies(out, k, s);
        return out.toString();
    }

    /** One row per chain key; {@code f} gives the value, null for none. */
    private static Map<SfcId, Row> perChain(ScrapeKeys k, Function<SfcId, Double> f) {
        Map<SfcId, Row> m = new LinkedHashMap<>();
        for (SfcId c : k.chainKeys) {
            Double v = f.apply(c);
            m.put(c, new Row(chainLabels(c), v == null ? Double.NaN : v));
        }
        return m;
    }

    /** One row per vNF key; {@code f} gives the value, null for none. */
    private static Map<VnfKey, Row> perVnf(ScrapeKeys k, Function<VnfKey, Double> f) {
        Map<VnfKey, Row> m = new LinkedHashMap<>();
        for (VnfKey v : k.vnfKeys) {
            Double x = f.apply(v);
            m.put(v, new Row(vnfLabels(v, k.chains), x == null ? Double.NaN : x));
        }
        return m;
    }

    private static void chainFamilies(TextExposition out, ScrapeKeys k, MetricsInputs in) {
        Map<SfcId, Sfc> chains = k.chains;
        Map<SfcId, ChainWindow> chainWindows = k.chainWindows;
        SeriesCap<SfcId> chainCap = k.chainCap;
        out.family("srv6int_chain_latency_p95_seconds", "gauge",
                   "95th-percentile end-to-end latency of the chain in the last telemetry window");
        rows(out, chainCap, Fold.MAX, perChain(k, c -> chainWindows.containsKey(c)
                ? chainWindows.get(c).e2eP95Nanos() / NS : null), 1);
        out.family("srv6int_chain_latency_bound_seconds", "gauge",
                   "end-to-end bound of the chain: the sum of its vNFs' Lmax");
        rows(out, chainCap, Fold.MAX, perChain(k, c -> chains.containsKey(c)
                ? chains.get(c).vnfs().stream().mapToLong(VnfSpec::lmaxNanos).sum() / NS : null), 1);
        out.family("srv6int_chain_packets_per_second", "gauge",
                   "packet rate of the chain at its egress in the last telemetry window");
        rows(out, chainCap, Fold.SUM, perChain(k, c -> chainWindows.containsKey(c)
                ? chainWindows.get(c).ratePps() : null), 1);
        out.family("srv6int_chain_window_reports", "gauge",
                   "INT reports of the chain's egress in the last telemetry window");
        rows(out, chainCap, Fold.SUM, perChain(k, c -> chainWindows.containsKey(c)
                ? (double) chainWindows.get(c).reports() : null), 1);
        out.family("srv6int_global_loop_chain_paused", "gauge",
                   "1 while the global loop leaves the chain alone (paused), else 0");
        rows(out, chainCap, Fold.MAX, perChain(k, c -> chains.containsKey(c)
                ? (in.paused.contains(c) ? 1.0 : 0.0) : null), 1);
        // The failure detection's view (docs/failures.md); NaN when the loop could not be read.
        Map<SfcId, ChainState> liveness = new HashMap<>();
        in.chainStates.forEach(cs -> liveness.put(cs.sfc(), cs));
        out.family("srv6int_chain_down", "gauge",
                   "1 while the failure detection reports the chain DOWN (traffic enters but no INT report "
                           + "leaves, or no segment list is left), else 0");
        rows(out, chainCap, Fold.MAX, perChain(k, c -> liveness.containsKey(c)
                ? (liveness.get(c).liveness() == ChainState.Liveness.DOWN ? 1.0 : 0.0) : null), 1);
        out.family("srv6int_chain_dead_replicas", "gauge",
                   "replicas of the chain the failure detection counts dead");
        rows(out, chainCap, Fold.SUM, perChain(k, c -> liveness.containsKey(c)
                ? (double) liveness.get(c).deadReplicas().size() : null), 1);
    }

    private static void vnfFamilies(TextExposition out, ScrapeKeys k, MetricsInputs in, long nowMillis) {
        Map<VnfKey, VnfWindow> vnfWindows = k.vnfWindows;
        Map<VnfKey, VnfLoopState> loopStates = k.loopStates;
        SeriesCap<VnfKey> vnfCap = k.vnfCap;
        Function<VnfKey, Long> lmax = k::lmaxNanos;
        out.family("srv6int_vnf_latency_p95_seconds", "gauge",
                   "95th-percentile vNF processing latency L_i (all replicas) in the last telemetry window");
        rows(out, vnfCap, Fold.MAX, perVnf(k, v -> vnfWindows.containsKey(v)
                ? vnfWindows.get(v).p95Nanos() / NS : null), 3);
        out.family("srv6int_vnf_latency_p99_seconds", "gauge",
                   "99th-percentile vNF processing latency (all replicas) in the last telemetry window");
        rows(out, vnfCap, Fold.MAX, perVnf(k, v -> vnfWindows.containsKey(v)
                ? vnfWindows.get(v).p99Nanos() / NS : null), 3);
        out.family("srv6int_vnf_latency_bound_seconds", "gauge", "latency bound Lmax_i of the vNF");
        rows(out, vnfCap, Fold.MAX, perVnf(k, v -> lmax.apply(v) == null ? null : lmax.apply(v) / NS), 3);
        out.family("srv6int_vnf_latency_slack_seconds", "gauge",
                   "Lmax_i minus the window's p95 (negative while the vNF violates its bound)");
        rows(out, vnfCap, Fold.MIN, perVnf(k, v -> lmax.apply(v) != null && vnfWindows.containsKey(v)
                ? (lmax.apply(v) - vnfWindows.get(v).p95Nanos()) / NS : null), 3);
        out.family("srv6int_vnf_packets_per_second", "gauge",
                   "throughput R_i of the vNF (all replicas) in the last telemetry window, from Port_Counter");
        rows(out, vnfCap, Fold.SUM, perVnf(k, v -> vnfWindows.containsKey(v)
                ? vnfWindows.get(v).ratePps() : null), 3);
        out.family("srv6int_vnf_window_samples", "gauge",
                   "vNF latency samples (INT metadata entries) in the last telemetry window");
        rows(out, vnfCap, Fold.SUM, perVnf(k, v -> vnfWindows.containsKey(v)
                ? (double) vnfWindows.get(v).samples() : null), 3);
        if (in.replicasKnown) {
            replicasByState(out, k, in);
        }
        out.family("srv6int_vnf_violating", "gauge",
                   "1 while the vNF's p95 exceeds Lmax_i in the global loop's view, else 0 (loop leader only)");
        rows(out, vnfCap, Fold.MAX, perVnf(k, v -> loopStates.containsKey(v)
                ? (loopStates.get(v).violating() ? 1.0 : 0.0) : null), 3);
        out.family("srv6int_vnf_violation_duration_seconds", "gauge",
                   "how long the vNF's current violation has lasted (0 when none; compare with t-hat)");
        rows(out, vnfCap, Fold.MAX, perVnf(k, v -> {
            VnfLoopState st = loopStates.get(v);
            if (st == null) {
                return null;
            }
            return st.violating() ? Math.max(0, nowMillis - st.violatingSinceMillis()) / 1e3 : 0.0;
        }), 3);
    }

    private static void replicasByState(TextExposition out, ScrapeKeys k, MetricsInputs in) {
        Map<VnfKey, int[]> byState = new HashMap<>();
        for (VnfReplica r : in.replicas) {
            byState.computeIfAbsent(r.vnf(), x -> new int[ReplicaState.values().length])[r.state().ordinal()]++;
        }
        out.family("srv6int_vnf_replicas", "gauge", "replicas of the vNF in the inventory, by state");
        for (ReplicaState st : ReplicaState.values()) {
            Map<VnfKey, Row> m = new LinkedHashMap<>();
            for (VnfKey v : k.vnfKeys) {
                int[] counts = byState.get(v);
                int n = counts == null ? 0 : counts[st.ordinal()];
                String[] l = concat(vnfLabels(v, k.chains), "state", st.name().toLowerCase(Locale.ROOT));
                m.put(v, new Row(l, n));
            }
            rows(out, k.vnfCap, Fold.SUM, m, 3);
        }
    }

    /** The replica life cycle of this instance: steps taken by edge, steps refused. */
    private static void lifecycleFamilies(TextExposition out, MetricsInputs in) {
        if (in.transitions.isEmpty() && in.refusedTransitions.isEmpty()) {
            return;
        }
        out.family("srv6int_replica_transitions_total", "counter",
                   "replica records this instance moved, by life-cycle step and edge (from, to; none: no record)");
        for (ReplicaTransition t : in.transitions) {
            out.sample(t.count(), "step", lower(t.step()), "from", stateLabel(t.from()), "to", stateLabel(t.to()));
        }
        out.family("srv6int_replica_transitions_refused_total", "counter",
                   "life-cycle steps this instance refused (not in the table from the record's state, or a "
                           + "weight the state cannot have), by step and the state asked from");
        for (ReplicaTransition t : in.refusedTransitions) {
            out.sample(t.count(), "step", lower(t.step()), "from", stateLabel(t.from()));
        }
    }

    private static String stateLabel(Optional<ReplicaState> s) {
        return s.map(x -> lower(x.name())).orElse("none");
    }

    private static void replicaFamilies(TextExposition out, ScrapeKeys k) {
        Map<VnfReplicaId, Row> weights = new LinkedHashMap<>();
        Map<VnfReplicaId, Row> rates = new LinkedHashMap<>();
        for (VnfReplicaId id : k.replicaKeys) {
            VnfReplica r = k.replicas.get(id);
            String[] l = replicaLabels(id, r == null ? UNKNOWN : r.node());
            weights.put(id, new Row(l, r == null ? Double.NaN : r.weight()));
            VnfWindow vw = k.vnfWindows.get(id.vnf());
            Long pk = vw == null ? null : vw.replicaPackets().get(id.name());
            rates.put(id, new Row(l, pk == null || !(k.windowSeconds > 0) ? Double.NaN : pk / k.windowSeconds));
        }
        out.family("srv6int_replica_weight", "gauge",
                   "weight of the replica in its vNF's multipath group (0 while draining or pending)");
        rows(out, k.replicaCap, Fold.SUM, weights, 4);
        out.family("srv6int_replica_packets_per_second", "gauge",
                   "packets through the replica in the last telemetry window, per second");
        rows(out, k.replicaCap, Fold.SUM, rates, 4);
    }

    private static void loopFamilies(TextExposition out, MetricsInputs in) {
        LoopStatus ls = in.loop;
        if (ls == null) {
            return;
        }
        out.family("srv6int_global_loop_enabled", "gauge", "1 if the global loop is enabled in netcfg");
        out.sample(ls.enabled() ? 1 : 0);
        out.family("srv6int_global_loop_leader", "gauge", "1 if this instance runs the global loop");
        out.sample(ls.leader() ? 1 : 0);
        out.family("srv6int_global_loop_t_hat_seconds", "gauge",
                   "t-hat: how long a violation must last before the loop scales out");
        out.sample(ls.tHatMillis() / 1e3);
        if (ls.lastEvaluationMillis() > 0) {
            out.family("srv6int_global_loop_last_evaluation_timestamp_seconds", "gauge",
                       "when the loop last evaluated a window, seconds since the epoch");
            out.sample(ls.lastEvaluationMillis() / 1e3);
        }
        out.family("srv6int_global_loop_paused_chains", "gauge", "chains whose loop is paused");
        out.sample(in.paused.size());
        out.family("srv6int_global_loop_decisions_total", "counter",
                   "decisions the loop running here made, by action (restarts from 0 with the loop)");
        for (LoopDecision.Action a : LoopDecision.Action.values()) {
            out.sample(in.decisionsMade.getOrDefault(a, 0L), "action", lower(a.name()));
        }
        out.family("srv6int_global_loop_failures_total", "counter",
                   "what the failure detection running here saw, by event (restarts from 0 on a new leader)");
        for (String[] e : FAILURE_EVENTS) {
            out.sample(in.failureCounters.getOrDefault(e[0], 0L), "event", e[1]);
        }
        out.family("srv6int_global_loop_decisions_ended_total", "counter",
                   "decisions that ended, by action and outcome (restarts from 0 with the loop)");
        for (LoopDecision.Action a : LoopDecision.Action.values()) {
            for (LoopDecision.Outcome o : new LoopDecision.Outcome[] {
                    LoopDecision.Outcome.SUCCEEDED, LoopDecision.Outcome.FAILED}) {
                out.sample(in.decisionsEnded.getOrDefault(a, Map.of()).getOrDefault(o, 0L),
                           "action", lower(a.name()), "outcome", lower(o.name()));
            }
        }
    }

    /** The exporter itself: its caps, what they folded, what it could not read. */
    private void exporterFamilies(TextExposition out, ScrapeKeys k, MetricsSettings s) {
        int[] folded = {k.chainCap.folded(), k.vnfCap.folded(), k.replicaCap.folded()};
        int[] limits = {s.maxChainSeries(), s.maxVnfSeries(), s.maxReplicaSeries()};
        out.family("srv6int_metrics_series_limit", "gauge", "cap on keys with series of their own, by level");
        for (Level l : Level.values()) {
            out.sample(limits[l.ordinal()], "level", l.label());
        }
        out.family("srv6int_metrics_series_folded", "gauge",
                   "keys folded into the overflow series in this scrape, by level");
        for (Level l : Level.values()) {
            out.sample(folded[l.ordinal()], "level", l.label());
        }
        out.family("srv6int_metrics_series_folded_total", "counter",
                   "keys folded into the overflow series, summed over scrapes, by level");
        for (Level l : Level.values()) {
            out.sample(foldedTotal.get(l).addAndGet(folded[l.ordinal()]), "level", l.label());
        }
        out.family("srv6int_metrics_read_errors_total", "counter",
                   "scrapes that could not read a part of the app's state, by part");
        for (Map.Entry<String, AtomicLong> e : new TreeMap<>(readErrors).entrySet()) {
            out.sample(e.getValue().get(), "part", e.getKey());
        }
    }

    private static void collector(TextExposition out, List<CollectorCounters> threads) {
        if (threads.isEmpty()) {
            return;
        }
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < threads.size(); i++) {
            ids.add(Integer.toString(i));
        }
        out.family("srv6int_collector_datagrams_total", "counter",
                   "UDP datagrams the collector received, by receive thread");
        for (int i = 0; i < threads.size(); i++) {
            out.sample(threads.get(i).datagrams(), "thread", ids.get(i));
        }
        out.family("srv6int_collector_reports_total", "counter",
                   "INT reports by what became of them (accepted, or dropped: forged_source = not on the "
                           + "allow-list, forged_device, malformed, duplicate, not_master), by receive thread");
        for (int i = 0; i < threads.size(); i++) {
            CollectorCounters c = threads.get(i);
            String t = ids.get(i);
            out.sample(c.accepted(), "thread", t, "result", "accepted");
            out.sample(c.forgedSource(), "thread", t, "result", "forged_source");
            out.sample(c.forgedDevice(), "thread", t, "result", "forged_device");
            out.sample(c.malformed(), "thread", t, "result", "malformed");
            out.sample(c.duplicates(), "thread", t, "result", "duplicate");
            out.sample(c.notMaster(), "thread", t, "result", "not_master");
        }
        counterPerThread(out, threads, "srv6int_collector_reports_lost_total",
                         "reports missing from the reporters' sequence numbers", CollectorCounters::lost);
        counterPerThread(out, threads, "srv6int_collector_reports_late_total",
                         "reports that arrived out of order (accepted)", CollectorCounters::late);
        counterPerThread(out, threads, "srv6int_collector_reports_unknown_chain_total",
                         "accepted reports whose SRH Tag names no known chain", CollectorCounters::unknownChain);
        counterPerThread(out, threads, "srv6int_collector_reporter_resyncs_total",
                         "sequence re-synchronisations (a reporter's first report included)",
                         CollectorCounters::resyncs);
        counterPerThread(out, threads, "srv6int_collector_int_entries_unmapped_total",
                         "INT entries with a vNF latency no chain's segment lists explain",
                         CollectorCounters::unmappedEntries);
        counterPerThread(out, threads, "srv6int_collector_port_counters_stale_total",
                         "Port_Counter values older than the last seen (ignored)", CollectorCounters::staleCounters);
        counterPerThread(out, threads, "srv6int_collector_bindings_refused_total",
                         "chains whose new hop bindings were refused (two vNFs at one hop of one switch)",
                         CollectorCounters::bindingsRefused);
        out.family("srv6int_collector_decode_errors_total", "counter",
                   "reports the codec rejected, by reason and receive thread");
        for (int i = 0; i < threads.size(); i++) {
            Map<DecodeStatus, Long> e = threads.get(i).decodeErrors();
            for (DecodeStatus d : DecodeStatus.values()) {
                if (d != DecodeStatus.OK) {
                    out.sample(e.getOrDefault(d, 0L), "thread", ids.get(i), "reason", lower(d.name()));
                }
            }
        }
    }

    private static void counterPerThread(TextExposition out, List<CollectorCounters> threads, String name,
                                         String help, ToLongFunction<CollectorCounters> f) {
        out.family(name, "counter", help + ", by receive thread");
        for (int i = 0; i < threads.size(); i++) {
            out.sample(f.applyAsLong(threads.get(i)), "thread", Integer.toString(i));
        }
    }

    private static void exports(TextExposition out, MetricsInputs in) {
        if (in.exports.isEmpty()) {
            return;
        }
        out.family("srv6int_export_enabled", "gauge", "1 while the export is on in netcfg, by sink");
        out.sample(in.kafkaEnabled ? 1 : 0, "sink", "kafka");
        out.sample(in.otlpEnabled ? 1 : 0, "sink", "otlp");
        out.family("srv6int_export_records_total", "counter",
                   "records handed to an export by what became of them (acked, failed, dropped_queue_full, "
                           + "dropped_at_close), by sink and kind");
        for (ExportStats s : in.exports) {
            for (ExportCounters.Result r : ExportCounters.Result.values()) {
                out.sample(s.counts().getOrDefault(r, 0L), "sink", s.sink(), "kind", s.kind().label(),
                           "result", r.label());
            }
        }
        out.family("srv6int_export_send_retries_total", "counter",
                   "sends the producer refused (buffer full or broker unknown past max.block.ms) and the export "
                           + "thread tried again, by sink and kind");
        for (ExportStats s : in.exports) {
            out.sample(s.retries(), "sink", s.sink(), "kind", s.kind().label());
        }
        out.family("srv6int_export_queue_records", "gauge",
                   "records waiting in the export's bounded hand-off queue, by sink and kind");
        for (ExportStats s : in.exports) {
            out.sample(s.queued(), "sink", s.sink(), "kind", s.kind().label());
        }
    }

    private static void cluster(TextExposition out, Map<String, Long> c) {
        if (c.containsKey("clusterExchangeFailures")) {
            out.family("srv6int_cluster_window_exchange_failures_total", "counter",
                       "exchanges of this instance's window summary with the other instances that failed");
            out.sample(c.get("clusterExchangeFailures"));
        }
        if (c.containsKey("clusterSummariesRejected")) {
            out.family("srv6int_cluster_windows_rejected_total", "counter",
                       "other instances' window summaries rejected (undecodable or stale)");
            out.sample(c.get("clusterSummariesRejected"));
        }
        if (c.containsKey("clusterSummaryBytes")) {
            out.family("srv6int_cluster_window_bytes", "gauge",
                    "size of this instance's last window summary sent to the cluster");
            out.sample(c.get("clusterSummaryBytes"));
        }
    }

    private static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }

    private static String[] concat(String[] a, String... b) {
        String[] l = new String[a.length + b.length];
        System.arraycopy(a, 0, l, 0, a.length);
        System.arraycopy(b, 0, l, a.length, b.length);
        return l;
    }

    private static String[] vnfLabels(VnfKey k, Map<SfcId, Sfc> chains) {
        Sfc c = chains.get(k.sfcId());
        String type = c != null && k.index() < c.vnfs().size() ? c.vnfs().get(k.index()).type() : UNKNOWN;
        return chainLabels(k.sfcId(), "vnf", Integer.toString(k.index()), "vnf_type", type);
    }

    private static String[] replicaLabels(VnfReplicaId id, String node) {
        return chainLabels(id.vnf().sfcId(), "vnf", Integer.toString(id.vnf().index()), "replica", id.name(),
                           "node", node);
    }
}
