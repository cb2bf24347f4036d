// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import com.codahale.metrics.Gauge;
import org.onlab.metrics.MetricsComponent;
import org.onlab.metrics.MetricsFeature;
import org.onlab.metrics.MetricsService;
import org.srv6int.app.telemetry.TelemetryManager;

import java.util.Map;
import java.util.function.Supplier;

/**
 * The loop's failure counters ({@link LoopCore#FAILURE_COUNTERS}) as ONOS metrics gauges, component
 * {@value TelemetryManager#METRICS_COMPONENT}, feature {@value GlobalLoopManager#METRICS_FEATURE}.
 */
final class FailureMetrics {

    private final MetricsService metrics;
    private final MetricsComponent component;
    private final MetricsFeature feature;

    private FailureMetrics(MetricsService metrics, Supplier<Map<String, Long>> counters) {
        this.metrics = metrics;
        component = metrics.registerComponent(TelemetryManager.METRICS_COMPONENT);
        feature = component.registerFeature(GlobalLoopManager.METRICS_FEATURE);
        for (String name : LoopCore.FAILURE_COUNTERS) {
            metrics.registerMetric(component, feature, name,
                                   (Gauge<Long>) () -> counters.get().getOrDefault(name, 0L));
        }
    }

    /**
     * Registers the gauges.
     *
     * @param metrics  metrics service, null for none
     * @param counters the counters' current values
     * @return the registration, null without a metrics service
     */
    static FailureMetrics register(MetricsService metrics, Supplier<Map<String, Long>> counters) {
        return metrics == null ? null : new FailureMetrics(metrics, counters);
    }

    /** Removes the gauges. */
    void remove() {
        for (String name : LoopCore.FAILURE_COUNTERS) {
            metrics.removeMetric(component, feature, name);
        }
    }
}
