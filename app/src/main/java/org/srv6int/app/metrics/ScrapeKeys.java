// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.metrics;

import org.srv6int.app.api.model.ChainWindow;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.TelemetrySnapshot;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfLoopState;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.api.model.VnfReplicaId;
import org.srv6int.app.api.model.VnfWindow;

import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The keys of one scrape at the three capped levels (chain, vNF, replica): what is configured
 * and what the last window saw, with the window's values by key and each level's series cap.
 * Built once per scrape and read by every family's renderer in {@link AppMetrics}.
 */
final class ScrapeKeys {
    private static final double NS = 1e9;

    final Map<SfcId, Sfc> chains = new TreeMap<>();
    final TreeSet<SfcId> chainKeys;
    final TreeSet<VnfKey> vnfKeys = new TreeSet<>();
    final Map<VnfReplicaId, VnfReplica> replicas = new TreeMap<>();
    final TreeSet<VnfReplicaId> replicaKeys;
    final Map<SfcId, ChainWindow> chainWindows = new HashMap<>();
    final Map<VnfKey, VnfWindow> vnfWindows = new HashMap<>();
    /** Length of the last window, NaN if there is none. */
    final double windowSeconds;
    final Map<VnfKey, VnfLoopState> loopStates = new HashMap<>();
    final SeriesCap<SfcId> chainCap;
    final SeriesCap<VnfKey> vnfCap;
    final SeriesCap<VnfReplicaId> replicaCap;

    ScrapeKeys(MetricsInputs in, MetricsSettings s) {
        in.chains.forEach(c -> chains.put(c.id(), c));
        TelemetrySnapshot w = in.window;
        chainKeys = new TreeSet<>(chains.keySet());
        for (Sfc c : chains.values()) {
            for (int i = 0; i < c.vnfs().size(); i++) {
                vnfKeys.add(VnfKey.of(c.id(), i));
            }
        }
        in.replicas.forEach(r -> replicas.put(r.id(), r));
        replicaKeys = new TreeSet<>(replicas.keySet());
        double seconds = Double.NaN;
        if (w != null) {
            seconds = (w.windowEndNanos() - w.windowStartNanos()) / NS;
            for (ChainWindow c : w.chains()) {
                SfcId id = SfcId.of(c.chainTag());
                chainWindows.put(id, c);
                chainKeys.add(id);
            }
            for (VnfWindow v : w.vnfs()) {
                vnfWindows.put(v.vnf(), v);
                vnfKeys.add(v.vnf());
                v.replicaPackets().keySet().forEach(n -> replicaKeys.add(VnfReplicaId.of(v.vnf(), n)));
            }
        }
        windowSeconds = seconds;
        if (in.loop != null) {
            in.loop.vnfs().forEach(v -> loopStates.put(v.vnf(), v));
        }
        chainCap = new SeriesCap<>(chainKeys, Comparator.naturalOrder(), s.maxChainSeries());
        vnfCap = new SeriesCap<>(vnfKeys, Comparator.naturalOrder(), s.maxVnfSeries());
        replicaCap = new SeriesCap<>(replicaKeys, Comparator.naturalOrder(), s.maxReplicaSeries());
    }

    /** Lmax of a vNF in nanoseconds, null if its chain does not configure it. */
    Long lmaxNanos(VnfKey k) {
        Sfc c = chains.get(k.sfcId());
        return c != null && k.index() < c.vnfs().size() ? c.vnfs().get(k.index()).lmaxNanos() : null;
    }
}
