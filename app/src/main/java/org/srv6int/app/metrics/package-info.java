// SPDX-License-Identifier: Apache-2.0
/**
 * The app's metrics in the Prometheus text exposition format (0.0.4): per chain and vNF the
 * telemetry window's figures, replicas and weights, the global loop's state and decisions, and the
 * INT collector's counters per receive thread. Everything is read from what the collector, its
 * windows and the loop already keep; a scrape never takes a lock of the collector's receive path.
 *
 * <p>{@link org.srv6int.app.metrics.AppMetrics} renders plain inputs with a cap on series
 * ({@link org.srv6int.app.metrics.SeriesCap}); {@link org.srv6int.app.metrics.AppMetricsManager}
 * is the ONOS component that gathers the inputs from the app's services and optionally serves
 * them on a plain port set in netcfg ({@link org.srv6int.app.metrics.MetricsConfig}). The REST
 * resource {@code GET /onos/srv6int/metrics} serves the same text behind ONOS's authentication.
 */
package org.srv6int.app.metrics;
