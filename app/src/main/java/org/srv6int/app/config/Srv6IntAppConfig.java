// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.onlab.packet.IpAddress;
import org.onlab.packet.MacAddress;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.config.Config;
import org.onosproject.net.config.InvalidFieldException;

import java.util.Optional;

import static org.srv6int.app.config.ConfigChecks.bool;
import static org.srv6int.app.config.ConfigChecks.integer;
import static org.srv6int.app.config.ConfigChecks.ip;
import static org.srv6int.app.config.ConfigChecks.object;
import static org.srv6int.app.config.ConfigChecks.onlyFields;

/**
 * App-wide settings, netcfg {@code apps/org.srv6int.app/srv6int}:
 * <pre>
 * {
 *   "collector": { "address": "192.168.0.10", "mac": "00:00:00:00:00:fe", "port": 32766, "truncateBytes": 256,
 *                  "threads": 3, "maxReporters": 256, "maxVnfs": 128, "maxReplicas": 1024, "maxChains": 128,
 *                  "instances": { "onos-1": { "address": "192.168.0.11", "mac": "00:00:00:00:00:f1", "port": 32766 },
 *                                 "onos-2": { ... } } },
 *   "loop": { "enabled": true, "tHatMs": 4000, "evaluationPeriodMs": 500, "demandLatency": "healthyTail",
 *             "silenceMs": 3000, "replicaSilenceMs": 3000, "returnHoldMs": 5000, "pushAside": false,
 *             "interferenceAware": false, "drainIdleMs": 10000, "drainDeadlineMs": 60000, "bucketHoldMs": 10000 },
 *   "kubernetes": { ... see {@link KubernetesSettings} }
 * }
 * </pre>
 * Every field is optional and has the default below; the getters return the
 * default when the field is absent, so an app without this config still runs.
 * {@code collector.instances} maps an ONOS node id to the collector of that cluster instance
 * (each field defaults to the top-level one): a switch reports to the instance that masters it.
 */
public final class Srv6IntAppConfig extends Config<ApplicationId> {

    /** Config key, for both the app and the device subject. */
    public static final String KEY = "srv6int";

    /** Default UDP port of the INT collector. */
    public static final int DEFAULT_COLLECTOR_PORT = 32766;
    /** Default truncation of the mirrored frame in an INT report, bytes. */
    public static final int DEFAULT_TRUNCATE_BYTES = 256;
    /** Default t-hat of Algorithm 4: how long a violation must last before scaling out, ms. */
    public static final long DEFAULT_T_HAT_MS = 4000;
    /** Default period of the global loop's evaluation, ms. */
    public static final long DEFAULT_EVALUATION_PERIOD_MS = 500;
    /**
     * Default silence after which a chain whose ingress classifies traffic but which sends no INT
     * report is reported down, ms (docs/failures.md).
     */
    public static final long DEFAULT_SILENCE_MS = 3000;
    /** Default hold before a replica that died may return (doubled per recent flap), ms. */
    public static final long DEFAULT_RETURN_HOLD_MS = 5000;
    /**
     * Default time a draining bucket's counter must stand still before the bucket counts as free of
     * flows, ms: two ONOS flow-statistics polls of 5 s (docs/failures.md, "Drain by flows").
     */
    public static final long DEFAULT_DRAIN_IDLE_MS = 10_000;
    /** Default drain deadline: a bucket waiting this long moves with its flows, counted as forced, ms. */
    public static final long DEFAULT_DRAIN_DEADLINE_MS = 60_000;
    /** Default hold of a bucket that just moved: it moves again before this only if its replica dies, ms. */
    public static final long DEFAULT_BUCKET_HOLD_MS = 10_000;
    /** Default switches on the collector's allow-list. */
    public static final int DEFAULT_MAX_REPORTERS = 256;
    /** Default vNFs the collector tracks. */
    public static final int DEFAULT_MAX_VNFS = 128;
    /** Default vNF replicas the collector tracks. */
    public static final int DEFAULT_MAX_REPLICAS = 1024;
    /** Default chains the collector tracks. */
    public static final int DEFAULT_MAX_CHAINS = 128;
    // Upper bound of the collector limits: Device_ID and SRH Tag are 16-bit, so more reporters or
    // chains cannot exist; vNFs and replicas are capped alike (each bound vNF costs ~61 KiB of
    // histograms per receive thread, docs/collector.md), far beyond any real deployment.
    static final int MAX_COLLECTOR_LIMIT = 65536;

    static final String COLLECTOR = "collector";
    static final String ADDRESS = "address";
    static final String PORT = "port";
    static final String MAC = "mac";
    static final String TRUNCATE = "truncateBytes";
    static final String THREADS = "threads";
    static final String MAX_REPORTERS = "maxReporters";
    static final String MAX_VNFS = "maxVnfs";
    static final String MAX_REPLICAS = "maxReplicas";
    static final String MAX_CHAINS = "maxChains";
    static final String INSTANCES = "instances";
    static final String LOOP = "loop";
    static final String ENABLED = "enabled";
    static final String T_HAT = "tHatMs";
    static final String PERIOD = "evaluationPeriodMs";
    static final String DEMAND = "demandLatency";
    static final String SILENCE = "silenceMs";
    static final String REPLICA_SILENCE = "replicaSilenceMs";
    static final String RETURN_HOLD = "returnHoldMs";
    static final String DRAIN_IDLE = "drainIdleMs";
    static final String DRAIN_DEADLINE = "drainDeadlineMs";
    static final String BUCKET_HOLD = "bucketHoldMs";
    static final String PUSH_ASIDE = "pushAside";
    static final String INTERFERENCE_AWARE = "interferenceAware";
    /** Demand C_i = R_i * min(L_i, L*_i) (default; see docs/global-loop.md). */
    public static final String DEMAND_HEALTHY_TAIL = "healthyTail";
    /** Demand C_i = R_i * L_i, the paper's formula as written. */
    public static final String DEMAND_MEASURED = "measured";
    static final String KUBERNETES = "kubernetes";

    @Override
    public boolean isValid() {
        validate();
        return true;
    }

    // A collector address of 0.0.0.0 would listen on every interface: refused like a missing one.
    private static void notWildcard(ObjectNode o, String path) {
        if (o.has(ADDRESS) && IpAddress.valueOf(o.get(ADDRESS).asText()).isZero()) {
            throw new InvalidFieldException(ConfigChecks.join(path, ADDRESS),
                                            "must be the address the switches send reports to, not 0.0.0.0");
        }
    }

    /**
     * Checks every field.
     *
     * @throws InvalidFieldException naming the first bad field and why
     */
    public void validate() {
        if (!object.isObject()) {
            throw new InvalidFieldException(KEY, "must be an object");
        }
        onlyFields(object, "", COLLECTOR, LOOP, KUBERNETES);
        ObjectNode c = object(object, "", COLLECTOR, false);
        if (c != null) {
            onlyFields(c, COLLECTOR, ADDRESS, MAC, PORT, TRUNCATE, THREADS, MAX_REPORTERS, MAX_VNFS, MAX_REPLICAS,
                       MAX_CHAINS, INSTANCES);
            ip(c, COLLECTOR, ADDRESS, false, IpAddress.Version.INET);
            notWildcard(c, COLLECTOR);
            ConfigChecks.mac(c, COLLECTOR, MAC, c.has(ADDRESS));
            integer(c, COLLECTOR, PORT, false, 1, 65535);
            integer(c, COLLECTOR, TRUNCATE, false, 64, 9000);
            integer(c, COLLECTOR, THREADS, false, 1, 256);
            integer(c, COLLECTOR, MAX_REPORTERS, false, 1, MAX_COLLECTOR_LIMIT);
            integer(c, COLLECTOR, MAX_VNFS, false, 1, MAX_COLLECTOR_LIMIT);
            integer(c, COLLECTOR, MAX_REPLICAS, false, 1, MAX_COLLECTOR_LIMIT);
            integer(c, COLLECTOR, MAX_CHAINS, false, 1, MAX_COLLECTOR_LIMIT - 1);
            ObjectNode inst = object(c, COLLECTOR, INSTANCES, false);
            if (inst != null) {
                String path = ConfigChecks.join(COLLECTOR, INSTANCES);
                inst.fieldNames().forEachRemaining(node -> {
                    ObjectNode e = object(inst, path, node, true);
                    String p = ConfigChecks.join(path, node);
                    onlyFields(e, p, ADDRESS, MAC, PORT);
                    ip(e, p, ADDRESS, !c.has(ADDRESS), IpAddress.Version.INET);
                    notWildcard(e, p);
                    ConfigChecks.mac(e, p, MAC, !c.has(MAC));
                    integer(e, p, PORT, false, 1, 65535);
                });
            }
        }
        ObjectNode l = object(object, "", LOOP, false);
        if (l != null) {
            onlyFields(l, LOOP, ENABLED, T_HAT, PERIOD, DEMAND, SILENCE, REPLICA_SILENCE, RETURN_HOLD, PUSH_ASIDE,
                       INTERFERENCE_AWARE, DRAIN_IDLE, DRAIN_DEADLINE, BUCKET_HOLD);
            bool(l, LOOP, ENABLED);
            bool(l, LOOP, PUSH_ASIDE);
            bool(l, LOOP, INTERFERENCE_AWARE);
            integer(l, LOOP, T_HAT, false, 1, 3_600_000);
            integer(l, LOOP, PERIOD, false, 10, 60_000);
            integer(l, LOOP, SILENCE, false, 1, 600_000);
            integer(l, LOOP, REPLICA_SILENCE, false, 0, 600_000);
            integer(l, LOOP, RETURN_HOLD, false, 0, 3_600_000);
            integer(l, LOOP, DRAIN_IDLE, false, 1, 3_600_000);
            integer(l, LOOP, DRAIN_DEADLINE, false, 1, 3_600_000);
            integer(l, LOOP, BUCKET_HOLD, false, 0, 3_600_000);
            // A deadline before the idle time would force every drain (BucketDrain refuses it too).
            long idle = l.has(DRAIN_IDLE) ? l.get(DRAIN_IDLE).asLong() : DEFAULT_DRAIN_IDLE_MS;
            long deadline = l.has(DRAIN_DEADLINE) ? l.get(DRAIN_DEADLINE).asLong() : DEFAULT_DRAIN_DEADLINE_MS;
            if (deadline < idle) {
                throw new InvalidFieldException(ConfigChecks.join(LOOP, l.has(DRAIN_DEADLINE) ? DRAIN_DEADLINE
                        : DRAIN_IDLE), "the drain deadline (" + deadline + " ms) must not be shorter than the drain "
                        + "idle time (" + idle + " ms)");
            }
            // A silence shorter than two windows would call a chain down between two reports.
            long period = l.has(PERIOD) ? l.get(PERIOD).asLong() : DEFAULT_EVALUATION_PERIOD_MS;
            if (l.has(SILENCE) && l.get(SILENCE).asLong() < 2 * period) {
                throw new InvalidFieldException(ConfigChecks.join(LOOP, SILENCE), "must be at least two "
                        + "evaluation periods (" + 2 * period + " ms), not " + l.get(SILENCE).asLong());
            }
            if (l.has(REPLICA_SILENCE) && l.get(REPLICA_SILENCE).asLong() != 0
                    && l.get(REPLICA_SILENCE).asLong() < 2 * period) {
                throw new InvalidFieldException(ConfigChecks.join(LOOP, REPLICA_SILENCE), "must be 0 (off) or at "
                        + "least two evaluation periods (" + 2 * period + " ms), not "
                        + l.get(REPLICA_SILENCE).asLong());
            }
            String d = ConfigChecks.text(l, LOOP, DEMAND, false);
            if (d != null && !d.equals(DEMAND_HEALTHY_TAIL) && !d.equals(DEMAND_MEASURED)) {
                throw new InvalidFieldException(ConfigChecks.join(LOOP, DEMAND), "must be \"" + DEMAND_HEALTHY_TAIL
                        + "\" or \"" + DEMAND_MEASURED + "\", not \"" + d + "\"");
            }
        }
        ObjectNode k = object(object, "", KUBERNETES, false);
        if (k != null) {
            KubernetesSettings.validate(k, KUBERNETES);
        }
    }

    /**
     * Returns the Kubernetes settings of the global loop's replica platform.
     *
     * @return settings, empty if the section is absent (no replica platform)
     */
    public Optional<KubernetesSettings> kubernetes() {
        JsonNode k = object.get(KUBERNETES);
        return k == null || !k.isObject() ? Optional.empty() : Optional.of(new KubernetesSettings((ObjectNode) k));
    }

    private long read(String section, String field, long def) {
        JsonNode sec = object.get(section);
        if (sec == null || !sec.has(field) || !sec.get(field).canConvertToLong()) {
            return def;
        }
        return sec.get(field).asLong();
    }

    /**
     * Returns the collector's IPv4 address (destination of INT reports).
     *
     * @return address, empty if not configured
     */
    public Optional<IpAddress> collectorAddress() {
        JsonNode c = object.get(COLLECTOR);
        if (c == null || !c.has(ADDRESS)) {
            return Optional.empty();
        }
        return Optional.of(IpAddress.valueOf(c.get(ADDRESS).asText()));
    }

    /**
     * Returns the MAC the switches address INT reports to (the collector's,
     * or its next hop's).
     *
     * @return MAC, empty if not configured
     */
    public Optional<MacAddress> collectorMac() {
        JsonNode c = object.get(COLLECTOR);
        if (c == null || !c.has(MAC)) {
            return Optional.empty();
        }
        return Optional.of(MacAddress.valueOf(c.get(MAC).asText()));
    }

    /**
     * Returns the collector's UDP port.
     *
     * @return port, default {@value #DEFAULT_COLLECTOR_PORT}
     */
    public int collectorPort() {
        return (int) read(COLLECTOR, PORT, DEFAULT_COLLECTOR_PORT);
    }

    /**
     * Returns the collector of one cluster instance: its entry in {@code collector.instances},
     * each absent field taken from the top level.
     *
     * @param nodeId ONOS node id of the instance
     * @return endpoint, empty if no address or MAC is configured for it
     */
    public Optional<CollectorEndpoint> collectorOf(String nodeId) {
        Optional<IpAddress> addr = collectorAddressOf(nodeId);
        JsonNode c = object.get(COLLECTOR);
        JsonNode e = c == null ? null : c.path(INSTANCES).path(nodeId);
        JsonNode mac = e != null && e.has(MAC) ? e.get(MAC) : c == null ? null : c.get(MAC);
        if (addr.isEmpty() || mac == null) {
            return Optional.empty();
        }
        return Optional.of(new CollectorEndpoint(addr.get(), MacAddress.valueOf(mac.asText()),
                                                 collectorPortOf(nodeId)));
    }

    /**
     * Returns the address one cluster instance's collector listens on.
     *
     * @param nodeId ONOS node id of the instance
     * @return its {@code collector.instances} address, else the top-level one, else empty
     */
    public Optional<IpAddress> collectorAddressOf(String nodeId) {
        JsonNode e = object.path(COLLECTOR).path(INSTANCES).path(nodeId);
        return e.has(ADDRESS) ? Optional.of(IpAddress.valueOf(e.get(ADDRESS).asText())) : collectorAddress();
    }

    /**
     * Returns the UDP port one cluster instance's collector listens on.
     *
     * @param nodeId ONOS node id of the instance
     * @return its {@code collector.instances} port, else the top-level one
     */
    public int collectorPortOf(String nodeId) {
        JsonNode e = object.path(COLLECTOR).path(INSTANCES).path(nodeId);
        return e.has(PORT) ? e.get(PORT).asInt() : collectorPort();
    }

    /**
     * Returns whether {@code collector.instances} names collectors per cluster instance.
     *
     * @return true if the map is present and not empty
     */
    public boolean collectorPerInstance() {
        JsonNode c = object.get(COLLECTOR);
        return c != null && c.path(INSTANCES).size() > 0;
    }

    /**
     * Returns the collector's receive threads (one SO_REUSEPORT socket and window shard each).
     *
     * @return threads, default the available processors minus one (at least 1)
     */
    public int collectorThreads() {
        return (int) read(COLLECTOR, THREADS, defaultCollectorThreads());
    }

    /**
     * Returns the default receive thread count: one core is left to the rest of ONOS.
     *
     * @return available processors minus one, at least 1
     */
    public static int defaultCollectorThreads() {
        return Math.max(1, Runtime.getRuntime().availableProcessors() - 1);
    }

    /**
     * Returns how many switches the collector's allow-list holds.
     *
     * @return reporters, default {@value #DEFAULT_MAX_REPORTERS}
     */
    public int collectorMaxReporters() {
        return (int) read(COLLECTOR, MAX_REPORTERS, DEFAULT_MAX_REPORTERS);
    }

    /**
     * Returns how many vNFs the collector tracks.
     *
     * @return vNFs, default {@value #DEFAULT_MAX_VNFS}
     */
    public int collectorMaxVnfs() {
        return (int) read(COLLECTOR, MAX_VNFS, DEFAULT_MAX_VNFS);
    }

    /**
     * Returns how many vNF replicas the collector tracks.
     *
     * @return replicas, default {@value #DEFAULT_MAX_REPLICAS}
     */
    public int collectorMaxReplicas() {
        return (int) read(COLLECTOR, MAX_REPLICAS, DEFAULT_MAX_REPLICAS);
    }

    /**
     * Returns how many chains the collector tracks.
     *
     * @return chains, default {@value #DEFAULT_MAX_CHAINS}
     */
    public int collectorMaxChains() {
        return (int) read(COLLECTOR, MAX_CHAINS, DEFAULT_MAX_CHAINS);
    }

    /**
     * Returns the truncation length of the mirrored frame.
     *
     * @return bytes, default {@value #DEFAULT_TRUNCATE_BYTES}
     */
    public int truncateBytes() {
        return (int) read(COLLECTOR, TRUNCATE, DEFAULT_TRUNCATE_BYTES);
    }

    /**
     * Returns whether the global loop is switched on.
     *
     * @return default true
     */
    public boolean loopEnabled() {
        JsonNode l = object.get(LOOP);
        return l == null || !l.has(ENABLED) || l.get(ENABLED).asBoolean(true);
    }

    /**
     * Returns whether a vNF over its bound first tries CoCo's push-aside (a neighbour with slack
     * moves off its node) before the global loop scales it out.
     *
     * @return default false
     */
    public boolean pushAside() {
        JsonNode l = object.get(LOOP);
        return l != null && l.has(PUSH_ASIDE) && l.get(PUSH_ASIDE).asBoolean(false);
    }

    /**
     * Returns whether the global loop's replica placement first keeps the nodes whose resident
     * vNF classes interfere least with the new replica (vnf-interference.txt).
     *
     * @return default false
     */
    public boolean interferenceAware() {
        JsonNode l = object.get(LOOP);
        return l != null && l.has(INTERFERENCE_AWARE) && l.get(INTERFERENCE_AWARE).asBoolean(false);
    }

    /**
     * Returns t-hat of Algorithm 4.
     *
     * @return ms, default {@value #DEFAULT_T_HAT_MS}
     */
    public long tHatMillis() {
        return read(LOOP, T_HAT, DEFAULT_T_HAT_MS);
    }

    /**
     * Returns the global loop's evaluation period.
     *
     * @return ms, default {@value #DEFAULT_EVALUATION_PERIOD_MS}
     */
    public long evaluationPeriodMillis() {
        return read(LOOP, PERIOD, DEFAULT_EVALUATION_PERIOD_MS);
    }

    /**
     * Returns whether the global loop's demand C_i takes the healthy tail latency min(L_i, L*_i)
     * rather than the measured L_i (docs/global-loop.md, "Interpretation of the paper").
     *
     * @return true unless {@code loop.demandLatency} is {@value #DEMAND_MEASURED}
     */
    public boolean demandFromHealthyTail() {
        JsonNode l = object.get(LOOP);
        return l == null || !l.has(DEMAND) || !DEMAND_MEASURED.equals(l.get(DEMAND).asText());
    }

    /**
     * Returns the silence after which a chain whose ingress classifies traffic but which sends no
     * INT report is reported down.
     *
     * @return ms, default {@value #DEFAULT_SILENCE_MS}
     */
    public long silenceMillis() {
        return read(LOOP, SILENCE, DEFAULT_SILENCE_MS);
    }

    /**
     * Returns the silence after which a replica no INT report crossed, while its chain carries
     * traffic, counts as dead; 0 turns this off (pod readiness and port state still count).
     *
     * @return ms, default {@link #silenceMillis()}
     */
    public long replicaSilenceMillis() {
        return read(LOOP, REPLICA_SILENCE, silenceMillis());
    }

    /**
     * Returns how long a dead replica stays out before it may return on probation (doubled for
     * each death within the last ten holds, at most 16 times).
     *
     * @return ms, default {@value #DEFAULT_RETURN_HOLD_MS}
     */
    public long returnHoldMillis() {
        return read(LOOP, RETURN_HOLD, DEFAULT_RETURN_HOLD_MS);
    }

    /**
     * Returns how long a draining bucket's packet counter must stand still (at a reading taken since
     * the wait began) before the bucket counts as free of flows and moves.
     *
     * @return ms, default {@value #DEFAULT_DRAIN_IDLE_MS}
     */
    public long drainIdleMillis() {
        return read(LOOP, DRAIN_IDLE, DEFAULT_DRAIN_IDLE_MS);
    }

    /**
     * Returns how long a bucket waits for its flows to end at most; then it moves anyway (forced,
     * counted).
     *
     * @return ms, default {@value #DEFAULT_DRAIN_DEADLINE_MS}, never below {@link #drainIdleMillis()}
     */
    public long drainDeadlineMillis() {
        return read(LOOP, DRAIN_DEADLINE, DEFAULT_DRAIN_DEADLINE_MS);
    }

    /**
     * Returns how long a bucket that just moved stays where it is unless its replica dies
     * (hysteresis against a flapping replica).
     *
     * @return ms, default {@value #DEFAULT_BUCKET_HOLD_MS}
     */
    public long bucketHoldMillis() {
        return read(LOOP, BUCKET_HOLD, DEFAULT_BUCKET_HOLD_MS);
    }
}
