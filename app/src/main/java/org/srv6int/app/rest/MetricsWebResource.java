// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.rest;

import org.srv6int.app.api.AppMetricsService;

import javax.ws.rs.GET;
import javax.ws.rs.Path;
import javax.ws.rs.core.Response;

/**
 * The app's metrics for Prometheus, behind ONOS's authentication (docs/metrics.md).
 */
@Path("metrics")
public class MetricsWebResource extends Srv6IntResource {

    /**
     * Gets every metric in the Prometheus text exposition format 0.0.4.
     *
     * @return 200 OK with the exposition text, 503 if the exporter is not running
     */
    @GET
    public Response getMetrics() {
        return handle(() -> {
            AppMetricsService m = service(AppMetricsService.class);
            return Response.ok(m.scrape(), AppMetricsService.CONTENT_TYPE).build();
        });
    }
}
