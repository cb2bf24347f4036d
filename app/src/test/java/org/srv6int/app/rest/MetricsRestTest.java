// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.rest;

import org.glassfish.jersey.server.ResourceConfig;
import org.junit.Test;
import org.onlab.osgi.TestServiceDirectory;
import org.srv6int.app.api.AppMetricsService;

import javax.ws.rs.core.MediaType;
import javax.ws.rs.core.Response;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * {@code GET /onos/srv6int/metrics}: the exporter's text with the exposition format's content
 * type; 503 with a JSON error while the exporter is not running.
 */
public class MetricsRestTest extends JerseyResourceTest {

    public MetricsRestTest() {
        super(ResourceConfig.forApplicationClass(Srv6IntWebApplication.class));
    }

    @Test
    public void servesTheExpositionText() {
        String text = "# HELP srv6int_collector_up up\n# TYPE srv6int_collector_up gauge\nsrv6int_collector_up 1\n";
        AppMetricsService m = () -> text;
        setServiceDirectory(new TestServiceDirectory().add(AppMetricsService.class, m));
        Response r = target("metrics").request().get();
        assertEquals(200, r.getStatus());
        // Jersey may reorder the parameters: compare type and parameters, not the string
        assertEquals(MediaType.valueOf(AppMetricsService.CONTENT_TYPE), r.getMediaType());
        assertEquals(text, r.readEntity(String.class));
    }

    @Test
    public void withoutTheExporterIs503() {
        setServiceDirectory(new TestServiceDirectory());
        Response r = target("metrics").request().get();
        assertEquals(503, r.getStatus());
        String body = r.readEntity(String.class);
        assertTrue(body, body.contains("AppMetricsService"));
    }
}
