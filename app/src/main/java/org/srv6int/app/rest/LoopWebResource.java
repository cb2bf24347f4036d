// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.rest;

import java.util.List;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.onosproject.net.config.InvalidFieldException;
import org.srv6int.app.api.model.Escalation;
import org.srv6int.app.api.model.EscalationReceipt;
import org.srv6int.app.api.ChainOwnershipService;
import org.srv6int.app.api.GlobalLoopService;
import org.srv6int.app.api.NodePoolService;
import org.srv6int.app.api.model.NodePools;

import javax.ws.rs.Consumes;
import javax.ws.rs.DefaultValue;
import javax.ws.rs.GET;
import javax.ws.rs.POST;
import javax.ws.rs.Path;
import javax.ws.rs.PathParam;
import javax.ws.rs.Produces;
import javax.ws.rs.QueryParam;
import javax.ws.rs.core.MediaType;
import javax.ws.rs.core.Response;
import java.io.InputStream;

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
     * Gets every chain's liveness as the failure detection sees it (UP, IDLE, DOWN with the last
     * hop seen and the reason, UNKNOWN) and its counters (docs/failures.md).
     *
     * @return 200 OK with {"chains": [...], "counters": {...}}
     * @onos.rsModel ChainStates
     */
    @GET
    @Path("chains")
    @Produces(MediaType.APPLICATION_JSON)
    public Response getChainStates() {
        return handle(() -> {
            GlobalLoopService loop = service(GlobalLoopService.class);
            ObjectNode root = mapper().createObjectNode();
            ArrayNode a = root.putArray("chains");
            TelemetryCodecs.ChainStateCodec c = new TelemetryCodecs.ChainStateCodec();
            loop.chainStates().forEach(st -> a.add(c.encode(st, this)));
            ObjectNode counters = root.putObject("counters");
            loop.failureCounters().forEach(counters::put);
            return ok(root).build();
        });
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

    /**
     * Gets the interference matrix the placement uses (vnf-interference.txt): for each target vNF
     * class and competitor class, the target's normalized throughput now, the paper's seed and
     * the telemetry samples that moved it.
     *
     * @param target one target class only, "I".."V" (optional)
     * @return 200 OK, 400 if target is not a class
     * @onos.rsModel Interference
     */
    @GET
    @Path("interference")
    @Produces(MediaType.APPLICATION_JSON)
    public Response getInterference(@QueryParam("target") String target) {
        return handle(() -> {
            List<org.srv6int.app.api.model.VnfClass> rows;
            if (target == null) {
                rows = List.of(org.srv6int.app.api.model.VnfClass.values());
            } else {
                try {
                    rows = List.of(org.srv6int.app.api.model.VnfClass.parse(target));
                } catch (IllegalArgumentException e) {
                    throw new InvalidFieldException("target", e.getMessage());
                }
            }
            return ok(InterferenceJson.encode(mapper(), service(GlobalLoopService.class).interference(), rows))
                    .build();
        });
    }

    /**
     * Takes a node agent's escalation: the local loop of a vNF tried every resource type and
     * the vNF is still over its bound. Body (the node agent's EscalationClient):
     * {"chainId": 2, "vnfIndex": 0, "node": "worker1", "l95Ns": 7200000, "lmaxNs": 5000000,
     * "triedResources": ["CPU", "LLC"]}. Scaling is a write: ONOS's REST authentication and
     * its write authorization apply as to every other POST of the app.
     *
     * <p>Any instance takes it (agents post to one Service URL): the loop's leader records it
     * and answers the decision; another instance queues it in the cluster's store
     * ({@code srv6int-loop-escalations}, one entry per chain, vNF and node, a repeat counted on
     * the entry) for the leader's next round, and answers
     * {"queued": {"chainId", "vnfIndex", "node", "posts", "firstMs", "lastMs", "receivedBy"},
     * "leader": "onos-1"} (docs/cluster.md).
     *
     * @param stream escalation JSON
     * @return 202 with the recorded decision (leader) or what was queued (any other instance);
     *         400 naming the bad field; 404 if the chain or vNF is unknown; 503 if the loop is
     *         disabled or the escalation could be neither recorded nor queued (store unavailable)
     * @onos.rsModel Escalation
     */
    @POST
    @Path("escalations")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response postEscalation(InputStream stream) {
        return handle(() -> {
            Escalation e = EscalationCodec.decode(body(stream));
            GlobalLoopService loop = service(GlobalLoopService.class);
            EscalationReceipt r;
            try {
                r = loop.submitEscalation(e);
            } catch (IllegalStateException ex) {
                return error(Response.Status.SERVICE_UNAVAILABLE, null, ex.getMessage());
            }
            if (r.decided()) {
                return Response.status(Response.Status.ACCEPTED)
                        .entity(new TelemetryCodecs.LoopDecisionCodec().encode(r.decision(), this)).build();
            }
            return Response.status(Response.Status.ACCEPTED)
                    .entity(EscalationCodec.encodeQueued(r.queuedEscalation(), r.leader(), mapper())).build();
        });
    }

    /**
     * Takes a node agent's pool report (what its pools still hold, per NUMA node or for the
     * node): the global loop places a replica only where a fresh report holds the vNF type's
     * need (docs/global-loop.md, "Pools"). Sent every {@code poolReportPeriodMs} by the agent
     * on the escalation's authenticated client.
     *
     * @param stream report JSON ({@link PoolReportCodec})
     * @return 202 with the stored report; 400 naming the bad field (counted, nothing stored);
     *         404 if the node has no switch attachment in netcfg (counted, not stored)
     * @onos.rsModel PoolReport
     */
    @POST
    @Path("pools")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response postPools(InputStream stream) {
        return handle(() -> {
            NodePoolService pools = service(NodePoolService.class);
            JsonNode b;
            try {
                b = body(stream);
            } catch (InvalidFieldException e) {
                pools.countMalformed();
                throw e;
            }
            NodePools stored;
            try {
                stored = PoolReportCodec.submit(b, pools);
            } catch (InvalidFieldException e) {
                throw e;
            } catch (IllegalArgumentException e) {
                return error(Response.Status.NOT_FOUND, null, e.getMessage());
            }
            return Response.status(Response.Status.ACCEPTED).entity(
                    PoolReportCodec.encode(stored, stored.receivedAtMillis(), pools.maxAgeMillis(), mapper())).build();
        });
    }

    /**
     * Lists every node's latest pool report with its age and whether the loop still uses it,
     * and the report counters.
     *
     * @return 200 with {"maxAgeMs", "nodes": [..], "counters": {"accepted", "malformed", "unknownNode"}}
     * @onos.rsModel PoolReports
     */
    @GET
    @Path("pools")
    @Produces(MediaType.APPLICATION_JSON)
    public Response getPools() {
        return handle(() -> ok(PoolReportCodec.encodeAll(service(NodePoolService.class), mapper())).build());
    }

    /**
     * Pauses the loop of one chain: no action on its vNFs until resumed.
     *
     * @param id chain id
     * @return 200 with {"paused": [ids]}, 400 bad id, 404 unknown chain, 409 naming the
     *         ServiceFunctionChain object that declares the chain
     */
    @POST
    @Path("chains/{id}/pause")
    @Produces(MediaType.APPLICATION_JSON)
    public Response pauseChain(@PathParam("id") String id) {
        return setPaused(id, true);
    }

    /**
     * Resumes the loop of one chain.
     *
     * @param id chain id
     * @return 200 with {"paused": [ids]}, 400 bad id, 404 unknown chain, 409 naming the
     *         ServiceFunctionChain object that declares the chain
     */
    @POST
    @Path("chains/{id}/resume")
    @Produces(MediaType.APPLICATION_JSON)
    public Response resumeChain(@PathParam("id") String id) {
        return setPaused(id, false);
    }

    private Response setPaused(String id, boolean paused) {
        return handle(() -> {
            // pause is part of a CR's spec: a chain declared by a ServiceFunctionChain changes only through it
            ChainOwnershipService owners = get(ChainOwnershipService.class);
            if (owners != null) {
                owners.checkChangeable(sfcId(id));
            }
            service(GlobalLoopService.class).setPaused(sfcId(id), paused);
            return ok(pausedJson()).build();
        });
    }

    /**
     * Lists the chains whose loop is paused.
     *
     * @return 200 with {"paused": [ids]}
     */
    @GET
    @Path("paused")
    @Produces(MediaType.APPLICATION_JSON)
    public Response getPaused() {
        return handle(() -> ok(pausedJson()).build());
    }

    private ObjectNode pausedJson() {
        ObjectNode root = mapper().createObjectNode();
        ArrayNode a = root.putArray("paused");
        service(GlobalLoopService.class).pausedChains().forEach(c -> a.add(c.id()));
        return root;
    }
}
