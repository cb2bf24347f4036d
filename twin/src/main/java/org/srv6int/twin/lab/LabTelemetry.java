// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.lab;

import java.util.concurrent.atomic.AtomicLong;

import org.onlab.metrics.MetricsManager;
import org.onosproject.cluster.ClusterService;
import org.onosproject.mastership.MastershipService;
import org.srv6int.app.api.model.TelemetrySnapshot;
import org.srv6int.app.api.model.VnfWindow;
import org.srv6int.app.telemetry.TelemetryManager;
import org.srv6int.twin.control.AppCore;

/**
 * The app's collector component ({@link TelemetryManager}: its UDP socket from netcfg, its
 * windows every evaluation period) given its references as Declarative Services gives them, for
 * the lab's escalation scenario. {@code AppAssembly} does not wire the collector yet; when it
 * does, the lab takes it from there. Counts the windows and those in which the lab's vNF was over
 * its bound (for the report; the loop reads the same windows).
 */
final class LabTelemetry extends TelemetryManager {

    private final AtomicLong windows = new AtomicLong();
    private final AtomicLong over = new AtomicLong();

    LabTelemetry(AppCore app, MastershipService mastership, ClusterService cluster) {
        configService = app.config;
        pathService = app.pathManager;
        inventory = app.inventory;
        metrics = new MetricsManager();
        mastershipService = mastership;
        clusterService = cluster;
        summaryStore = app.app.summaries();
        activate();
        addWindowConsumer(w -> count(app, w));
    }

    private void count(AppCore app, TelemetrySnapshot w) {
        windows.incrementAndGet();
        for (VnfWindow v : w.vnfs()) {
            long lmax = app.sfcs.getSfc(v.vnf().sfcId()).map(s -> s.vnfs().get(v.vnf().index()).lmaxNanos())
                    .orElse(Long.MAX_VALUE);
            if (v.samples() > 0 && v.p95Nanos() > lmax) {
                over.incrementAndGet();
                return;
            }
        }
    }

    long windows() {
        return windows.get();
    }

    long windowsOver() {
        return over.get();
    }

    void stop() {
        deactivate();
    }
}
