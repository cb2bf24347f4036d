// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.telemetry;

import org.onlab.metrics.MetricsManager;
import org.onosproject.cluster.ClusterService;
import org.onosproject.mastership.MastershipService;
import org.srv6int.app.api.SfcPathService;
import org.srv6int.app.api.VnfInventoryService;
import org.srv6int.app.config.Srv6IntConfigService;
import org.srv6int.app.store.TelemetrySummaryStore;

/**
 * Wires and drives a {@link TelemetryManager} from tests of other packages, as OSGi would wire
 * it; windows close when the test says so.
 */
public final class TelemetryManagers {

    private TelemetryManagers() {
    }

    /**
     * Wires and activates a collector component.
     *
     * @param config     netcfg
     * @param paths      segment lists
     * @param inventory  replicas
     * @param mastership this instance's mastership view
     * @param cluster    this instance's cluster view
     * @param summaries  the cluster's summary store
     * @return the active component
     */
    public static TelemetryManager start(Srv6IntConfigService config, SfcPathService paths,
                                         VnfInventoryService inventory, MastershipService mastership,
                                         ClusterService cluster, TelemetrySummaryStore summaries) {
        TelemetryManager m = new TelemetryManager();
        m.configService = config;
        m.pathService = paths;
        m.inventory = inventory;
        m.metrics = new MetricsManager();
        m.mastershipService = mastership;
        m.clusterService = cluster;
        m.summaryStore = summaries;
        m.activate();
        return m;
    }

    /**
     * Deactivates a collector component.
     *
     * @param m component
     */
    public static void stop(TelemetryManager m) {
        m.deactivate();
    }

    /**
     * Closes a window of the component now and waits for its consumers.
     *
     * @param m component
     * @throws Exception if the window thread is gone
     */
    public static void windowNow(TelemetryManager m) throws Exception {
        m.windowNow();
    }
}
