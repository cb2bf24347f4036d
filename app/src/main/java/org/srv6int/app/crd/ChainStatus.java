// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.crd;

import org.srv6int.app.api.model.ChainState;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.api.model.VnfSpec;
import org.srv6int.app.api.model.VnfWindow;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The status of a ServiceFunctionChain (docs/crd.md §3) from the app's view of its chain:
 * {@code observedGeneration}, {@code state}, the conditions Programmed / WithinBound / Scaling /
 * Down, replicas per vNF with node, SID and state, p95 against the bound, the last decisions. A
 * condition keeps its {@code lastTransitionTime} while its status stays. The digest is the status
 * without its measurements (p95s, condition messages that quote them): the controller writes a
 * change of the digest within a window and a change of measurements alone at most every 10 s.
 */
final class ChainStatus {

    /** Decisions shown, newest first. */
    static final int LAST_DECISIONS = 10;

    /** What the app knows of the chain at one sync. */
    static final class Inputs {
        long generation;
        Map<String, Object> previous = Map.of();
        /** Why the app refused the chain (null: it holds it). */
        String refusedReason;
        String refusedMessage;
        /** Whether the switches hold the chain's entries. */
        boolean installed;
        boolean paused;
        List<VnfSpec> vnfs = List.of();
        List<VnfReplica> replicas = List.of();
        ChainState liveness;
        Map<Integer, VnfWindow> windows = Map.of();
        /** The chain's decisions, newest first, without HOLDs. */
        List<LoopDecision> decisions = List.of();
        long nowMillis;
    }

    private final Map<String, Object> status = new LinkedHashMap<>();
    private final Map<String, Object> digest = new LinkedHashMap<>();

    private ChainStatus() {
    }

    /**
     * Builds the status.
     *
     * @param in what the app knows
     * @return the status
     */
    static ChainStatus of(Inputs in) {
        ChainStatus s = new ChainStatus();
        s.build(in);
        return s;
    }

    Map<String, Object> body() {
        return status;
    }

    String digest() {
        return digest.toString();
    }

    private void build(Inputs in) {
        List<Map<String, Object>> conditions = new ArrayList<>();
        boolean refused = in.refusedReason != null;
        conditions.add(refused ? condition(in, "Programmed", "False", in.refusedReason, in.refusedMessage)
                : in.installed ? condition(in, "Programmed", "True", "Installed",
                                           "the switches hold the chain's segment lists and ingress/egress entries")
                : condition(in, "Programmed", "Unknown", "Installing", "the app holds the chain; its entries are "
                        + "not on the switches yet"));

        List<Map<String, Object>> vnfs = new ArrayList<>();
        int total = 0;
        int worst = -1;
        double worstRatio = -1;
        String over = null;
        boolean anyWindow = false;
        for (int i = 0; i < in.vnfs.size(); i++) {
            VnfSpec spec = in.vnfs.get(i);
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("index", i);
            v.put("type", spec.type());
            v.put("lmaxNs", spec.lmaxNanos());
            VnfWindow w = in.windows.get(i);
            if (w != null && w.samples() > 0) {
                anyWindow = true;
                v.put("p95Ns", w.p95Nanos());
                boolean within = w.p95Nanos() <= spec.lmaxNanos();
                v.put("withinBound", within);
                double ratio = (double) w.p95Nanos() / spec.lmaxNanos();
                if (ratio > worstRatio) {
                    worstRatio = ratio;
                    worst = i;
                }
                if (!within && over == null) {
                    over = "vnf " + i + " (" + spec.type() + ") p95 " + human(w.p95Nanos()) + " over its bound "
                            + human(spec.lmaxNanos());
                }
            }
            List<Map<String, Object>> rs = new ArrayList<>();
            final int index = i;
            in.replicas.stream().filter(r -> r.vnf().index() == index)
                    .sorted(Comparator.comparing(r -> r.id().name())).forEach(r -> {
                        Map<String, Object> m = new LinkedHashMap<>();
                        m.put("name", r.id().name());
                        m.put("node", r.node());
                        m.put("sid", r.sid().toString());
                        boolean dead = in.liveness != null && in.liveness.deadReplicas().contains(r.id().name());
                        m.put("state", dead ? "DEAD" : r.state().name());
                        m.put("weight", r.weight());
                        rs.add(m);
                    });
            total += rs.size();
            v.put("replicas", rs);
            vnfs.add(v);
        }

        conditions.add(!anyWindow ? condition(in, "WithinBound", "Unknown", "NoTelemetry",
                                              "no telemetry window of the chain yet")
                : over != null ? condition(in, "WithinBound", "False", "OverBound", over)
                : condition(in, "WithinBound", "True", "WithinBound", "every vNF's p95 is within its bound"));
        LoopDecision inProgress = in.decisions.stream()
                .filter(d -> d.outcome() == LoopDecision.Outcome.IN_PROGRESS).findFirst().orElse(null);
        conditions.add(inProgress != null ? condition(in, "Scaling", "True", camel(inProgress.action()),
                                                      "vnf " + inProgress.vnf().index() + ": " + inProgress.detail())
                : condition(in, "Scaling", "False", "Idle", "no scaling or replacement in progress"));
        ChainState.Liveness live = in.liveness == null ? ChainState.Liveness.UNKNOWN : in.liveness.liveness();
        switch (live) {
            case DOWN:
                conditions.add(condition(in, "Down", "True", "NoReports", "traffic enters but no INT report leaves; "
                        + "last hop seen " + in.liveness.lastHopSeen() + ": " + in.liveness.reason()));
                break;
            case UP:
                conditions.add(condition(in, "Down", "False", "ReportsArrive", "INT reports of the chain arrive"));
                break;
            case IDLE:
                conditions.add(condition(in, "Down", "False", "Idle", "the ingress classifies no traffic"));
                break;
            default:
                conditions.add(condition(in, "Down", "Unknown", "Unknown", "the failure detection has no state "
                        + "of the chain (not yet seen, or this instance does not run the loop)"));
        }

        String state = refused ? "Refused" : in.paused ? "Paused" : !in.installed ? "Pending"
                : live == ChainState.Liveness.DOWN ? "Down" : inProgress != null ? "Scaling"
                : over != null ? "OverBound" : "Ready";

        status.put("observedGeneration", in.generation);
        status.put("state", state);
        status.put("conditions", conditions);
        status.put("replicas", total);
        if (worst >= 0) {
            Map<String, Object> b = new LinkedHashMap<>();
            long lmax = in.vnfs.get(worst).lmaxNanos();
            long p95 = in.windows.get(worst).p95Nanos();
            b.put("vnfIndex", worst);
            b.put("lmaxNs", lmax);
            b.put("p95Ns", p95);
            b.put("bound", human(lmax));
            b.put("p95", human(p95));
            status.put("bottleneck", b);
        }
        status.put("vnfs", vnfs);
        List<Map<String, Object>> decisions = new ArrayList<>();
        in.decisions.stream().limit(LAST_DECISIONS).forEach(d -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("time", Instant.ofEpochMilli(d.timeMillis()).truncatedTo(ChronoUnit.SECONDS).toString());
            if (d.vnf().index() >= 0 && d.vnf().index() < 6) {
                m.put("vnfIndex", d.vnf().index());
            }
            m.put("action", d.action().name());
            m.put("replicasBefore", d.replicasBefore());
            m.put("replicasAfter", d.replicasAfter());
            m.put("outcome", d.outcome().name());
            m.put("detail", d.detail().length() > 1024 ? d.detail().substring(0, 1021) + "..." : d.detail());
            decisions.add(m);
        });
        status.put("lastDecisions", decisions);

        // The digest: everything but the measurements.
        digest.put("observedGeneration", in.generation);
        digest.put("state", state);
        List<String> conds = new ArrayList<>();
        conditions.forEach(c -> conds.add(c.get("type") + "=" + c.get("status") + "/" + c.get("reason")));
        digest.put("conditions", conds);
        List<Object> reps = new ArrayList<>();
        vnfs.forEach(v -> reps.add(List.of(v.getOrDefault("withinBound", "-"), v.get("replicas"))));
        digest.put("vnfs", reps);
        digest.put("bottleneck", worst);
        digest.put("lastDecisions", decisions);
    }

    // A condition; it keeps its lastTransitionTime while its status stays the same.
    @SuppressWarnings("unchecked")
    private static Map<String, Object> condition(Inputs in, String type, String status, String reason, String msg) {
        String since = Instant.ofEpochMilli(in.nowMillis).truncatedTo(ChronoUnit.SECONDS).toString();
        Object prev = in.previous.get("conditions");
        if (prev instanceof List) {
            for (Object o : (List<Object>) prev) {
                if (o instanceof Map && type.equals(((Map<String, Object>) o).get("type"))
                        && status.equals(((Map<String, Object>) o).get("status"))
                        && ((Map<String, Object>) o).get("lastTransitionTime") != null) {
                    since = Objects.toString(((Map<String, Object>) o).get("lastTransitionTime"));
                }
            }
        }
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("type", type);
        c.put("status", status);
        c.put("observedGeneration", in.generation);
        c.put("lastTransitionTime", since);
        c.put("reason", reason);
        c.put("message", msg);
        return c;
    }

    /** SCALE_OUT → ScaleOut (a condition's reason is UpperCamelCase). */
    static String camel(LoopDecision.Action a) {
        StringBuilder b = new StringBuilder();
        for (String part : a.name().split("_")) {
            b.append(part.charAt(0)).append(part.substring(1).toLowerCase());
        }
        return b.toString();
    }

    /** A duration for people: 2ms, 812us, 1.5s. */
    static String human(long nanos) {
        if (nanos >= 1_000_000_000L) {
            return trim(nanos / 1e9) + "s";
        }
        if (nanos >= 1_000_000L) {
            return trim(nanos / 1e6) + "ms";
        }
        if (nanos >= 1_000L) {
            return trim(nanos / 1e3) + "us";
        }
        return nanos + "ns";
    }

    private static String trim(double v) {
        String s = v >= 100 ? String.format("%.0f", v) : v >= 10 ? String.format("%.1f", v)
                : String.format("%.2f", v);
        if (s.contains(".")) {
            s = s.replaceAll("0+$", "").replaceAll("\\.$", "");
        }
        return s;
    }
}
