// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.metrics;

import org.srv6int.app.api.model.ChainState;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.api.model.LoopStatus;
import org.srv6int.app.api.model.ReplicaTransition;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.export.ExportStats;
import org.srv6int.app.api.model.CollectorCounters;
import org.srv6int.app.api.model.TelemetrySnapshot;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What one scrape renders, gathered from the app's services: every field is a copy or an
 * immutable snapshot, so rendering touches no live state. A part that could not be read is left
 * empty (and counted by the exporter).
 */
final class MetricsInputs {

    /** Chains, any order. */
    final List<Sfc> chains = new ArrayList<>();
    /** Replicas of every vNF, any order. */
    final List<VnfReplica> replicas = new ArrayList<>();
    /** Whether the inventory was read (else replica counts are unknown, not 0). */
    boolean replicasKnown;
    /** The replica life cycle's steps taken by edge; empty where it does not run or was not read. */
    final List<ReplicaTransition> transitions = new ArrayList<>();
    /** The replica life cycle's refusals by step and state. */
    final List<ReplicaTransition> refusedTransitions = new ArrayList<>();
    /** Last closed telemetry window, null before the first. */
    TelemetrySnapshot window;
    /** Collector counters per receive thread; empty while the collector is not running. */
    final List<CollectorCounters> threads = new ArrayList<>();
    /** Whether the collector component is there. */
    boolean collectorRunning;
    /** The collector's named counters (TelemetryService.counters()), for the cluster exchange. */
    Map<String, Long> collectorCounters = Map.of();
    /** Global loop status, null if the loop component is not there. */
    LoopStatus loop;
    /** The failure detection's state of every chain; empty where the loop does not run. */
    final List<ChainState> chainStates = new ArrayList<>();
    /** The failure detection's counters (GlobalLoopService.failureCounters()). */
    Map<String, Long> failureCounters = Map.of();
    /** Chains whose loop is paused. */
    final Set<SfcId> paused = new TreeSet<>();
    /** Decisions made, by action. */
    final Map<LoopDecision.Action, Long> decisionsMade = new EnumMap<>(LoopDecision.Action.class);
    /** Decisions ended, by action then outcome. */
    final Map<LoopDecision.Action, Map<LoopDecision.Outcome, Long>> decisionsEnded =
            new EnumMap<>(LoopDecision.Action.class);
    /** What each export did, by export and kind; empty if the exports component is not there. */
    final List<ExportStats> exports = new ArrayList<>();
    /** Whether the Kafka export is on. */
    boolean kafkaEnabled;
    /** Whether the OTLP push of the metrics is on. */
    boolean otlpEnabled;
}
