// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api;

/**
 * The app's metrics in the Prometheus text exposition format 0.0.4 (served by the REST resource
 * {@code GET /onos/srv6int/metrics} and the optional plain port).
 */
public interface AppMetricsService {

    /** Content type of {@link #scrape()}. */
    String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    /**
     * Renders the metrics now.
     *
     * @return exposition text
     */
    String scrape();
}
