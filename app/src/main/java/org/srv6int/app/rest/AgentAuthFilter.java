// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.onlab.rest.AuthorizationFilter;
import org.onlab.rest.BaseResource;
import org.srv6int.app.api.AgentAuthService;

import javax.ws.rs.container.ContainerRequestContext;
import javax.ws.rs.container.ContainerRequestFilter;
import javax.ws.rs.core.HttpHeaders;
import javax.ws.rs.core.MediaType;
import javax.ws.rs.core.Response;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Set;

/**
 * Who may call the app's REST API, in place of ONOS's {@link AuthorizationFilter}. The node
 * agents' two writes, {@code POST loop/escalations} and {@code POST loop/pools}, are left open by
 * the web layer (web.xml) and checked here: the agent's own ServiceAccount token
 * ({@link AgentAuthService}), whose pod's node must be the {@code node} the body names; 401 or
 * 403 otherwise, before the resource sees the request. Every other request goes through ONOS's
 * rule unchanged (an ONOS user; writes need the admin role).
 */
public class AgentAuthFilter extends BaseResource implements ContainerRequestFilter {

    /** The agents' endpoints, relative to the app's REST root. */
    static final Set<String> AGENT_PATHS = Set.of("loop/escalations", "loop/pools");
    /** Largest agent body read (a pool report of 64 NUMA nodes is under 16 KiB). */
    static final int MAX_BODY = 256 * 1024;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final AuthorizationFilter onos = new AuthorizationFilter();

    @Override
    public void filter(ContainerRequestContext ctx) throws IOException {
        if (!"POST".equals(ctx.getMethod()) || !AGENT_PATHS.contains(trim(ctx.getUriInfo().getPath()))) {
            onos.filter(ctx);
            return;
        }
        byte[] body = read(ctx.getEntityStream());
        if (body == null) {
            abort(ctx, 413, "body larger than " + MAX_BODY + " bytes");
            return;
        }
        ctx.setEntityStream(new ByteArrayInputStream(body));
        AgentAuthService auth;
        try {
            auth = get(AgentAuthService.class);
        } catch (RuntimeException e) {
            auth = null;
        }
        if (auth == null) {
            abort(ctx, 503, "agent authentication is not running");
            return;
        }
        AgentAuthService.Verdict v = auth.authenticate(ctx.getHeaderString(HttpHeaders.AUTHORIZATION),
                node(body), source(ctx));
        if (!v.accepted()) {
            abort(ctx, v.status(), v.message());
        }
    }

    // Who sent it, for the log: a proxy's X-Forwarded-For if any (the token names the pod once reviewed).
    private static String source(ContainerRequestContext ctx) {
        String f = ctx.getHeaderString("X-Forwarded-For");
        return f == null ? "an agent" : f;
    }

    private static String trim(String path) {
        String p = path.startsWith("/") ? path.substring(1) : path;
        return p.endsWith("/") ? p.substring(0, p.length() - 1) : p;
    }

    /** The body's "node", null if it has none or is not JSON: the resource then refuses it (400). */
    private static String node(byte[] body) {
        try {
            JsonNode n = MAPPER.readTree(body);
            return n != null && n.path("node").isTextual() && !n.path("node").asText().isBlank()
                    ? n.path("node").asText() : null;
        } catch (IOException e) {
            return null;
        }
    }

    private static byte[] read(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        int n;
        while ((n = in.read(buf)) > 0) {
            out.write(buf, 0, n);
            if (out.size() > MAX_BODY) {
                return null;
            }
        }
        return out.toByteArray();
    }

    private static void abort(ContainerRequestContext ctx, int status, String message) {
        ctx.abortWith(Response.status(status).type(MediaType.APPLICATION_JSON_TYPE)
                .entity(MAPPER.createObjectNode().put("code", status).put("message", message).toString()).build());
    }
}
