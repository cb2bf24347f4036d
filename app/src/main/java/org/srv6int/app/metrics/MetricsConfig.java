// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.metrics;

import java.util.TreeSet;
import com.fasterxml.jackson.databind.JsonNode;
import org.onlab.packet.IpAddress;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.config.Config;
import org.onosproject.net.config.InvalidFieldException;

import java.util.Iterator;
import java.util.Set;

/**
 * netcfg of the exporter, {@code apps/org.srv6int.app/metrics}:
 * <pre>{ "address": "10.0.0.5", "port": 9464, "maxChainSeries": 256, "maxVnfSeries": 1024,
 *   "maxReplicaSeries": 4096 }</pre>
 * Without {@code port} there is no plain port (the REST path always serves); with a port and no
 * {@code address} it listens on 127.0.0.1 only: a scraper on another host needs the address
 * named (issue 31: listeners bind what is configured, nothing wider). Every field is
 * optional; a bad one is rejected with its name and the previous settings stay.
 */
public final class MetricsConfig extends Config<ApplicationId> {

    /** Config key. */
    public static final String KEY = "metrics";
    static final String ADDRESS = "address";
    /** Where the plain port listens when netcfg names no address. */
    static final String LOOPBACK = "127.0.0.1";
    static final String PORT = "port";
    static final String MAX_CHAINS = "maxChainSeries";
    static final String MAX_VNFS = "maxVnfSeries";
    static final String MAX_REPLICAS = "maxReplicaSeries";
    private static final Set<String> FIELDS = Set.of(ADDRESS, PORT, MAX_CHAINS, MAX_VNFS, MAX_REPLICAS);

    @Override
    public boolean isValid() {
        settings();
        return true;
    }

    /**
     * Checks every field and returns the settings they give.
     *
     * @return settings
     * @throws InvalidFieldException naming the first bad field and why
     */
    public MetricsSettings settings() {
        if (!object.isObject()) {
            throw new InvalidFieldException(KEY, "must be an object");
        }
        for (Iterator<String> it = object.fieldNames(); it.hasNext();) {
            String f = it.next();
            if (!FIELDS.contains(f)) {
                throw new InvalidFieldException(f, "unknown field; allowed: " + new TreeSet<>(FIELDS));
            }
        }
        String address = null;
        int port = 0;
        if (object.has(PORT)) {
            port = (int) integer(PORT, 1, 65535, 0);
            address = LOOPBACK;
            if (object.has(ADDRESS)) {
                JsonNode a = object.get(ADDRESS);
                if (!a.isTextual()) {
                    throw new InvalidFieldException(ADDRESS, "must be a string, got " + a);
                }
                try {
                    address = IpAddress.valueOf(a.asText()).toString();
                } catch (IllegalArgumentException e) {
                    throw new InvalidFieldException(ADDRESS, "not an IP address: " + a);
                }
            }
        } else if (object.has(ADDRESS)) {
            throw new InvalidFieldException(ADDRESS, "needs port");
        }
        return new MetricsSettings((int) integer(MAX_CHAINS, 1, 1_000_000, MetricsSettings.DEFAULT_MAX_CHAINS),
                                   (int) integer(MAX_VNFS, 1, 1_000_000, MetricsSettings.DEFAULT_MAX_VNFS),
                                   (int) integer(MAX_REPLICAS, 1, 1_000_000, MetricsSettings.DEFAULT_MAX_REPLICAS),
                                   address, port);
    }

    private long integer(String field, long min, long max, long dflt) {
        JsonNode n = object.get(field);
        if (n == null) {
            return dflt;
        }
        if (!n.canConvertToLong() || !n.isIntegralNumber()) {
            throw new InvalidFieldException(field, "must be an integer, got " + n);
        }
        long v = n.asLong();
        if (v < min || v > max) {
            throw new InvalidFieldException(field, "must be in " + min + ".." + max + ", got " + v);
        }
        return v;
    }
}
