// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.rest;

import com.fasterxml.jackson.databind.JsonNode;
import org.onosproject.net.config.InvalidFieldException;

/**
 * Reading JSON request fields with errors that name the field (as a JSON
 * path) and say why; the REST layer turns them into 400 responses.
 */
final class JsonFields {

    private JsonFields() {
    }

    static JsonNode required(JsonNode parent, String path, String field) {
        JsonNode n = parent == null ? null : parent.get(field);
        if (n == null || n.isNull()) {
            throw new InvalidFieldException(join(path, field), "is required");
        }
        return n;
    }

    static String text(JsonNode parent, String path, String field) {
        JsonNode n = required(parent, path, field);
        if (!n.isTextual()) {
            throw new InvalidFieldException(join(path, field), "must be a string");
        }
        return n.asText();
    }

    static long integer(JsonNode parent, String path, String field, long min, long max, Long def) {
        JsonNode n = parent.get(field);
        if ((n == null || n.isNull()) && def != null) {
            return def;
        }
        n = required(parent, path, field);
        if (!n.isIntegralNumber()) {
            throw new InvalidFieldException(join(path, field), "must be an integer");
        }
        long v = n.asLong();
        if (v < min || v > max) {
            throw new InvalidFieldException(join(path, field), "must be in " + min + ".." + max + ", got " + v);
        }
        return v;
    }

    static String join(String path, String field) {
        return path == null || path.isEmpty() ? field : path + "." + field;
    }
}
