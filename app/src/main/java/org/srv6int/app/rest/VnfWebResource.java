// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.rest;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.SfcService;
import org.srv6int.app.api.VnfInventoryService;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.api.model.VnfReplicaId;

import javax.ws.rs.Consumes;
import javax.ws.rs.DELETE;
import javax.ws.rs.GET;
import javax.ws.rs.POST;
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
 * vNFs of every chain and their replicas.
 */
@Path("vnfs")
public class VnfWebResource extends Srv6IntResource {

    @Context
    private UriInfo uriInfo;

    private final ReplicaCodec codec = new ReplicaCodec();

    /**
     * Lists every vNF of every chain with its replicas.
     *
     * @return 200 OK with {"vnfs": [{"sfcId", "index", "type", "lmaxNs", "replicas": [...]}]}
     * @onos.rsModel Vnfs
     */
    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Response getVnfs() {
        return handle(() -> {
            ObjectNode root = mapper().createObjectNode();
            ArrayNode a = root.putArray("vnfs");
            VnfInventoryService inv = get(VnfInventoryService.class);
            get(SfcService.class).getSfcs().stream().sorted(Comparator.comparing(Sfc::id)).forEach(s -> {
                for (int i = 0; i < s.vnfs().size(); i++) {
                    ObjectNode v = a.addObject().put("sfcId", s.id().tag()).put("index", i)
                            .put("type", s.vnfs().get(i).type()).put("lmaxNs", s.vnfs().get(i).lmaxNanos());
                    ArrayNode rs = v.putArray("replicas");
                    inv.getReplicas(VnfKey.of(s.id(), i)).forEach(r -> rs.add(codec.encode(r, this)));
                }
            });
            return ok(root).build();
        });
    }

    /**
     * Adds a replica of a vNF on a Kubernetes node; the app allocates its
     * name and SID and re-routes the chain make-before-break.
     *
     * @param sfc    chain id
     * @param index  vNF index
     * @param stream {"node": "worker2"}
     * @return 201 Created with Location, 400 naming the bad field, 404 if the vNF is unknown
     * @onos.rsModel ReplicaPost
     */
    @POST
    @Path("{sfc}/{index}/replicas")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response addReplica(@PathParam("sfc") String sfc, @PathParam("index") String index,
                               InputStream stream) {
        return handle(() -> {
            VnfKey key = vnfKey(sfc, index);
            String node = JsonFields.text(body(stream), "", "node");
            VnfReplica r = get(VnfInventoryService.class).addReplica(key, node);
            return Response.created(uriInfo.getBaseUriBuilder().path("vnfs").path(sfc).path(index)
                                            .path("replicas").path(r.id().name()).build())
                    .entity(codec.encode(r, this)).build();
        });
    }

    /**
     * Gets one replica.
     *
     * @param sfc   chain id
     * @param index vNF index
     * @param name  replica name
     * @return 200 OK, 404 if unknown
     * @onos.rsModel Replica
     */
    @GET
    @Path("{sfc}/{index}/replicas/{name}")
    @Produces(MediaType.APPLICATION_JSON)
    public Response getReplica(@PathParam("sfc") String sfc, @PathParam("index") String index,
                               @PathParam("name") String name) {
        return handle(() -> {
            VnfReplicaId id = SfcCodec.parse("name", () -> VnfReplicaId.of(vnfKey(sfc, index), name));
            VnfReplica r = get(VnfInventoryService.class).getReplica(id).orElseThrow(
                    () -> new org.srv6int.app.api.SfcException(org.srv6int.app.api.SfcException.Reason.NOT_FOUND,
                                                               "replica " + id + " not found"));
            return ok(codec.encode(r, this)).build();
        });
    }

    /**
     * Drains a replica: no new traffic, entries stay until it is removed.
     *
     * @param sfc   chain id
     * @param index vNF index
     * @param name  replica name
     * @return 200 OK, 404 if unknown
     * @onos.rsModel Replica
     */
    @POST
    @Path("{sfc}/{index}/replicas/{name}/drain")
    @Produces(MediaType.APPLICATION_JSON)
    public Response drainReplica(@PathParam("sfc") String sfc, @PathParam("index") String index,
                                 @PathParam("name") String name) {
        return handle(() -> {
            VnfReplicaId id = SfcCodec.parse("name", () -> VnfReplicaId.of(vnfKey(sfc, index), name));
            return ok(codec.encode(get(VnfInventoryService.class).drainReplica(id), this)).build();
        });
    }

    /**
     * Removes a replica.
     *
     * @param sfc   chain id
     * @param index vNF index
     * @param name  replica name
     * @return 204 No Content, 404 if unknown
     */
    @DELETE
    @Path("{sfc}/{index}/replicas/{name}")
    public Response removeReplica(@PathParam("sfc") String sfc, @PathParam("index") String index,
                                  @PathParam("name") String name) {
        return handle(() -> {
            VnfReplicaId id = SfcCodec.parse("name", () -> VnfReplicaId.of(vnfKey(sfc, index), name));
            get(VnfInventoryService.class).removeReplica(id);
            return Response.noContent().build();
        });
    }
}
