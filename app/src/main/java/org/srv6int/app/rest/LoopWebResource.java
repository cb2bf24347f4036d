package org.srv6int.app.rest;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.onosproject.net.config.InvalidFieldException;
import org.srv6int.app.api.GlobalLoopService;

import javax.ws.rs.DefaultValue;
import javax.ws.rs.GET;
import javax.ws.rs.Path;
import javax.ws.rs.Produces;
import javax.ws.rs.QueryParam;
import javax.ws.rs.core.MediaType;
import javax.ws.rs.core.Response;

/**
 * The global closed loop (Algorithm 4).
 */
@Path("loop")
public class LoopWebResource extends Srv6IntResource {

    /** Most decisions one request returns. */
    static final int MAX_LIMIT = 1000;

    /**
     * Gets the loop's status.
     *
     * @return 200 OK, 503 if the loop is not running
     * @onos.rsModel LoopStatus
     */
    @GET
    @Path("status")
    @Produces(MediaType.APPLICATION_JSON)
    public Response getStatus() {
        return handle(() -> ok(new TelemetryCodecs.LoopStatusCodec()
                                       .encode(service(GlobalLoopService.class).status(), this)).build());
    }

    /**
     * Gets the most recent decisions, newest first.
     *
     * @param limit most decisions, 1..1000, default 50
     * @return 200 OK with {"decisions": [...]}, 400 if limit is out of range
     * @onos.rsModel LoopDecisions
     */
    @GET
    @Path("decisions")
    @Produces(MediaType.APPLICATION_JSON)
    public Response getDecisions(@QueryParam("limit") @DefaultValue("50") String limit) {
        return handle(() -> {
            int n;
            try {
                n = Integer.parseInt(limit);
            } catch (NumberFormatException e) {
                throw new InvalidFieldException("limit", "must be an integer, got " + limit);
            }
            if (n < 1 || n > MAX_LIMIT) {
                throw new InvalidFieldException("limit", "must be in 1.." + MAX_LIMIT + ", got " + n);
            }
            ObjectNode root = mapper().createObjectNode();
            ArrayNode a = root.putArray("decisions");
            TelemetryCodecs.LoopDecisionCodec c = new TelemetryCodecs.LoopDecisionCodec();
            service(GlobalLoopService.class).decisions(n).forEach(d -> a.add(c.encode(d, this)));
            return ok(root).build();
        });
    }
}
