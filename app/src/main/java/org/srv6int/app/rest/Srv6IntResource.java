// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.onlab.osgi.ServiceNotFoundException;
import org.onosproject.net.config.InvalidFieldException;
import org.onosproject.rest.AbstractWebResource;
import org.srv6int.app.api.SfcException;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfKey;

import javax.ws.rs.core.MediaType;
import javax.ws.rs.core.Response;
import java.io.IOException;
import java.io.InputStream;
import java.util.function.Supplier;

/**
 * Common parts of the app's resources: body parsing and the JSON error
 * responses {"code": ..., "field": ..., "message": ...}.
 */
abstract class Srv6IntResource extends AbstractWebResource {

    /** Runs a request, mapping the app's failures to JSON error responses. */
    Response handle(Supplier<Response> request) {
        try {
            return request.get();
        } catch (InvalidFieldException e) {
            return error(Response.Status.BAD_REQUEST, e.field(), e.reason());
        } catch (SfcException e) {
            return error(e.reason() == SfcException.Reason.NOT_FOUND ? Response.Status.NOT_FOUND
                                 : Response.Status.CONFLICT, null, e.getMessage());
        } catch (ServiceNotFoundException e) {
            return error(Response.Status.SERVICE_UNAVAILABLE, null, "service not running: " + e.getMessage());
        } catch (IllegalArgumentException e) {
            String m = e.getMessage() == null ? "invalid request" : e.getMessage();
            int colon = m.indexOf(':');
            String field = colon > 0 && m.substring(0, colon).matches("[A-Za-z.\\[\\]0-9]+")
                    ? m.substring(0, colon) : null;
            return error(Response.Status.BAD_REQUEST, field, field == null ? m : m.substring(colon + 1).trim());
        }
    }

    /** Gets a service that may not be running (e.g. the collector), as 503 if absent. */
    <T> T service(Class<T> type) {
        T s = get(type);
        if (s == null) {
            throw new ServiceNotFoundException(type.getSimpleName());
        }
        return s;
    }

    Response error(Response.Status status, String field, String message) {
        ObjectNode n = mapper().createObjectNode().put("code", status.getStatusCode());
        if (field != null) {
            n.put("field", field);
        }
        n.put("message", message);
        return Response.status(status).entity(n).type(MediaType.APPLICATION_JSON_TYPE).build();
    }

    ObjectNode body(InputStream stream) {
        JsonNode n;
        try {
            n = mapper().readTree(stream);
        } catch (IOException e) {
            throw new InvalidFieldException("", "body is not valid JSON: " + e.getMessage());
        }
        if (n == null || !n.isObject()) {
            throw new InvalidFieldException("", "body must be a JSON object");
        }
        return (ObjectNode) n;
    }

    static SfcId sfcId(String text) {
        return SfcCodec.parse("id", () -> SfcId.valueOf(text));
    }

    static VnfKey vnfKey(String sfc, String index) {
        return SfcCodec.parse("index", () -> {
            try {
                return VnfKey.of(SfcId.valueOf(sfc), Integer.parseInt(index));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("vNF index must be a number, got " + index, e);
            }
        });
    }
}
