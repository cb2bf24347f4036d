// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.rest;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.SfcException;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.SfcService;
import org.srv6int.app.api.TelemetryService;

import javax.ws.rs.GET;
import javax.ws.rs.Path;
import javax.ws.rs.PathParam;
import javax.ws.rs.Produces;
import javax.ws.rs.core.MediaType;
import javax.ws.rs.core.Response;

/**
 * INT telemetry from the collector.
 */
@Path("telemetry")
public class TelemetryWebResource extends Srv6IntResource {

    /**
     * Gets the collector's counters.
     *
     * @return 200 OK with {"counters": {...}}, 503 if the collector is not running
     * @onos.rsModel Counters
     */
    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Response getCounters() {
        return handle(() -> {
            ObjectNode root = mapper().createObjectNode();
            ObjectNode c = root.putObject("counters");
            service(TelemetryService.class).counters().forEach(c::put);
            return ok(root).build();
        });
    }

    /**
     * Gets a chain's telemetry and that of each of its vNFs.
     *
     * @param id chain id
     * @return 200 OK with {"sfc": {...} or null, "vnfs": [...]}, 404 if the chain is unknown
     * @onos.rsModel SfcTelemetry
     */
    @GET
    @Path("sfcs/{id}")
    @Produces(MediaType.APPLICATION_JSON)
    public Response getSfcTelemetry(@PathParam("id") String id) {
        return handle(() -> {
            SfcId sid = sfcId(id);
            Sfc unusedSfc = get(SfcService.class).getSfc(sid).orElseThrow(
                    () -> new SfcException(SfcException.Reason.NOT_FOUND, "chain " + sid + " not found"));
            TelemetryService t = service(TelemetryService.class);
            ObjectNode root = mapper().createObjectNode();
            t.sfcTelemetry(sid).ifPresentOrElse(
                    s -> root.set("sfc", new TelemetryCodecs.SfcTelemetryCodec().encode(s, this)),
                    () -> root.putNull("sfc"));
            ArrayNode a = root.putArray("vnfs");
            TelemetryCodecs.VnfTelemetryCodec vc = new TelemetryCodecs.VnfTelemetryCodec();
            t.vnfTelemetry(sid).forEach(v -> a.add(vc.encode(v, this)));
            return ok(root).build();
        });
    }
}
