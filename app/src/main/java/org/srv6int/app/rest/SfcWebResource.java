// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.rest;

import java.util.List;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.onosproject.net.config.InvalidFieldException;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.SfcException;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.SfcPathService;
import org.srv6int.app.api.SfcService;
import org.srv6int.app.api.VnfInventoryService;

import javax.ws.rs.Consumes;
import javax.ws.rs.DELETE;
import javax.ws.rs.GET;
import javax.ws.rs.POST;
import javax.ws.rs.PUT;
import javax.ws.rs.Path;
import javax.ws.rs.PathParam;
import javax.ws.rs.Produces;
import javax.ws.rs.core.Context;
import javax.ws.rs.core.MediaType;
import javax.ws.rs.core.Response;
import javax.ws.rs.core.UriInfo;
import java.io.InputStream;
import java.util.Comparator;

/**
 * Service function chains.
 */
@Path("sfcs")
public class SfcWebResource extends Srv6IntResource {

    @Context
    private UriInfo uriInfo;

    private final SfcCodec codec = new SfcCodec();

    private static SfcException notFound(SfcId id) {
        return new SfcException(SfcException.Reason.NOT_FOUND, "chain " + id + " not found");
    }

    /**
     * Gets all chains.
     *
     * @return 200 OK with {"sfcs": [...]}
     * @onos.rsModel Sfcs
     */
    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Response getSfcs() {
        return handle(() -> {
            ObjectNode root = mapper().createObjectNode();
            ArrayNode a = root.putArray("sfcs");
            get(SfcService.class).getSfcs().stream().sorted(Comparator.comparing(Sfc::id))
                    .forEach(s -> a.add(codec.encode(s, this)));
            return ok(root).build();
        });
    }

    /**
     * Gets one chain.
     *
     * @param id chain id
     * @return 200 OK, 400 if the id is malformed, 404 if unknown
     * @onos.rsModel Sfc
     */
    @GET
    @Path("{id}")
    @Produces(MediaType.APPLICATION_JSON)
    public Response getSfc(@PathParam("id") String id) {
        return handle(() -> {
            SfcId sid = sfcId(id);
            Sfc sfc = get(SfcService.class).getSfc(sid).orElseThrow(() -> notFound(sid));
            return ok(codec.encode(sfc, this)).build();
        });
    }

    /**
     * Creates a chain.
     *
     * @param stream chain JSON
     * @return 201 Created with Location, 400 naming the bad field, 409 if the id or classifier is taken
     * @onos.rsModel SfcPost
     */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response createSfc(InputStream stream) {
        return handle(() -> {
            Sfc sfc = codec.decode(body(stream), this);
            get(SfcService.class).addSfc(sfc);
            return Response.created(uriInfo.getBaseUriBuilder().path("sfcs").path(sfc.id().toString()).build())
                    .entity(codec.encode(sfc, this)).build();
        });
    }

    /**
     * Replaces a chain.
     *
     * @param id     chain id
     * @param stream chain JSON with the same id
     * @return 200 OK, 400 naming the bad field, 404 if unknown
     * @onos.rsModel SfcPost
     */
    @PUT
    @Path("{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response updateSfc(@PathParam("id") String id, InputStream stream) {
        return handle(() -> {
            SfcId sid = sfcId(id);
            Sfc sfc = codec.decode(body(stream), this);
            if (!sfc.id().equals(sid)) {
                throw new InvalidFieldException("id", "must equal the id in the path (" + sid + ")");
            }
            get(SfcService.class).updateSfc(sfc);
            return ok(codec.encode(sfc, this)).build();
        });
    }

    /**
     * Removes a chain, its replicas and all its flow entries.
     *
     * @param id chain id
     * @return 204 No Content, 404 if unknown
     */
    @DELETE
    @Path("{id}")
    public Response removeSfc(@PathParam("id") String id) {
        return handle(() -> {
            get(SfcService.class).removeSfc(sfcId(id));
            return Response.noContent().build();
        });
    }

    /**
     * Gets a chain's segment lists.
     *
     * @param id chain id
     * @return 200 OK, 404 if unknown
     * @onos.rsModel SfcPaths
     */
    @GET
    @Path("{id}/paths")
    @Produces(MediaType.APPLICATION_JSON)
    public Response getPaths(@PathParam("id") String id) {
        return handle(() -> {
            SfcId sid = sfcId(id);
            Sfc unusedSfc = get(SfcService.class).getSfc(sid).orElseThrow(() -> notFound(sid));
            return ok(new SfcPathsCodec().encode(get(SfcPathService.class).getPaths(sid)
                    .orElse(new org.srv6int.app.api.model.SfcPaths(sid, List.of())), this)).build();
        });
    }

    /**
     * Gets a chain's replicas.
     *
     * @param id chain id
     * @return 200 OK with {"replicas": [...]}, 404 if unknown
     * @onos.rsModel Replicas
     */
    @GET
    @Path("{id}/replicas")
    @Produces(MediaType.APPLICATION_JSON)
    public Response getReplicas(@PathParam("id") String id) {
        return handle(() -> {
            SfcId sid = sfcId(id);
            Sfc unusedSfc = get(SfcService.class).getSfc(sid).orElseThrow(() -> notFound(sid));
            ObjectNode root = mapper().createObjectNode();
            ArrayNode a = root.putArray("replicas");
            ReplicaCodec rc = new ReplicaCodec();
            get(VnfInventoryService.class).getReplicas(sid).forEach(r -> a.add(rc.encode(r, this)));
            return ok(root).build();
        });
    }
}
