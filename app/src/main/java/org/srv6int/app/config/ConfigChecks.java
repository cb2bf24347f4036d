// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.onlab.packet.IpAddress;
import org.onlab.packet.IpPrefix;
import org.onlab.packet.MacAddress;
import org.onosproject.net.config.InvalidFieldException;

import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

/**
 * Field checks that throw {@link InvalidFieldException} naming the field
 * (as a JSON path, e.g. "collector.port") and why, so that netcfg errors tell
 * the operator exactly what to fix.
 */
final class ConfigChecks {

    private ConfigChecks() {
    }

    static void onlyFields(ObjectNode node, String path, String... allowed) {
        List<String> ok = Arrays.asList(allowed);
        Iterator<String> names = node.fieldNames();
        while (names.hasNext()) {
            String name = names.next();
            if (!ok.contains(name)) {
                throw new InvalidFieldException(join(path, name), "unknown field; allowed: " + ok);
            }
        }
    }

    static ObjectNode object(JsonNode parent, String path, String field, boolean required) {
        JsonNode n = parent.get(field);
        if (n == null || n.isNull()) {
            if (required) {
                throw new InvalidFieldException(join(path, field), "is required");
            }
            return null;
        }
        if (!n.isObject()) {
            throw new InvalidFieldException(join(path, field), "must be an object");
        }
        return (ObjectNode) n;
    }

    static long integer(JsonNode parent, String path, String field, boolean required, long min, long max) {
        JsonNode n = parent.get(field);
        if (n == null || n.isNull()) {
            if (required) {
                throw new InvalidFieldException(join(path, field), "is required");
            }
            return min;
        }
        if (!n.isIntegralNumber()) {
            throw new InvalidFieldException(join(path, field), "must be an integer, got " + n);
        }
        long v = n.asLong();
        if (v < min || v > max) {
            throw new InvalidFieldException(join(path, field),
                                            "must be in " + min + ".." + max + ", got " + v);
        }
        return v;
    }

    static void bool(JsonNode parent, String path, String field) {
        JsonNode n = parent.get(field);
        if (n != null && !n.isNull() && !n.isBoolean()) {
            throw new InvalidFieldException(join(path, field), "must be true or false, got " + n);
        }
    }

    static String text(JsonNode parent, String path, String field, boolean required) {
        JsonNode n = parent.get(field);
        if (n == null || n.isNull()) {
            if (required) {
                throw new InvalidFieldException(join(path, field), "is required");
            }
            return null;
        }
        if (!n.isTextual()) {
            throw new InvalidFieldException(join(path, field), "must be a string, got " + n);
        }
        return n.asText();
    }

    static IpAddress ip(JsonNode parent, String path, String field, boolean required, IpAddress.Version v) {
        String t = text(parent, path, field, required);
        if (t == null) {
            return null;
        }
        IpAddress a;
        try {
            a = IpAddress.valueOf(t);
        } catch (IllegalArgumentException e) {
            throw new InvalidFieldException(join(path, field), "is not an IP address: " + t);
        }
        if (v != null && a.version() != v) {
            throw new InvalidFieldException(join(path, field), "must be an " + v + " address, got " + t);
        }
        return a;
    }

    static IpPrefix prefix(JsonNode parent, String path, String field, boolean required, IpAddress.Version v,
                           int maxLength) {
        String t = text(parent, path, field, required);
        if (t == null) {
            return null;
        }
        IpPrefix p;
        try {
            p = IpPrefix.valueOf(t);
        } catch (IllegalArgumentException e) {
            throw new InvalidFieldException(join(path, field), "is not an IP prefix: " + t);
        }
        if (p.version() != v) {
            throw new InvalidFieldException(join(path, field), "must be an " + v + " prefix, got " + t);
        }
        if (p.prefixLength() > maxLength) {
            throw new InvalidFieldException(join(path, field),
                                            "prefix length must be at most " + maxLength + ", got " + t);
        }
        return p;
    }

    static MacAddress mac(JsonNode parent, String path, String field, boolean required) {
        String t = text(parent, path, field, required);
        if (t == null) {
            return null;
        }
        try {
            return MacAddress.valueOf(t);
        } catch (IllegalArgumentException e) {
            throw new InvalidFieldException(join(path, field), "is not a MAC address: " + t);
        }
    }

    static String join(String path, String field) {
        return path == null || path.isEmpty() ? field : path + "." + field;
    }
}
