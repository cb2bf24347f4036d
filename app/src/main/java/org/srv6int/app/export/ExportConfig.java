// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.export;

import com.fasterxml.jackson.databind.JsonNode;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.config.Config;
import org.onosproject.net.config.InvalidFieldException;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Iterator;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * netcfg of the exports, {@code apps/org.srv6int.app/export}; each export is off while its field
 * is absent:
 * <pre>{ "kafka": { "bootstrapServers": "10.0.0.5:9092", "topicPrefix": "srv6int",
 *              "queueRecords": 10000, "bufferBytes": 4194304, "maxBlockMs": 100,
 *              "deliveryTimeoutMs": 120000,
 *              "intReports": { "sampleEvery": 100, "maxPerSecond": 1000, "queueRecords": 10000 } },
 *   "otlp": { "endpoint": "http://collector:4318/v1/metrics", "intervalMs": 10000,
 *             "timeoutMs": 5000, "queueBatches": 4 } }</pre>
 * Kafka's {@code tls} and {@code sasl} are read by {@link KafkaSecurity}, OTLP's {@code headers},
 * {@code headerFiles} and {@code tls} by {@link OtlpSecurity}.
 * A bad field is rejected with its name and the running exports stay as they were.
 */
public final class ExportConfig extends Config<ApplicationId> {

    /** Config key. */
    public static final String KEY = "export";
    static final String KAFKA = "kafka";
    static final String OTLP = "otlp";

    private static final Pattern HOST_PORT = Pattern.compile("[A-Za-z0-9._\\-]+:(\\d{1,5})|"
            + "\\[[0-9A-Fa-f:.]+\\]:(\\d{1,5})");
    private static final Pattern TOPIC = Pattern.compile("[A-Za-z0-9._\\-]{1,200}");

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
    public ExportSettings settings() {
        if (!object.isObject()) {
            throw new InvalidFieldException(KEY, "must be an object");
        }
        fieldsIn(object, KEY, Set.of(KAFKA, OTLP));
        return new ExportSettings(object.has(KAFKA) ? kafka(object.get(KAFKA)) : null,
                                  object.has(OTLP) ? otlp(object.get(OTLP)) : null);
    }

    private static OtlpSettings otlp(JsonNode o) {
        if (!o.isObject()) {
            throw new InvalidFieldException(OTLP, "must be an object");
        }
        fieldsIn(o, OTLP, Set.of("endpoint", "intervalMs", "timeoutMs", "queueBatches", "headers", "headerFiles",
                                 "tls"));
        String endpoint = text(o, "otlp.endpoint", o.get("endpoint"), null);
        if (endpoint == null) {
            throw new InvalidFieldException("otlp.endpoint", "required");
        }
        URI u;
        try {
            u = new URI(endpoint.trim());
        } catch (URISyntaxException e) {
            throw new InvalidFieldException("otlp.endpoint", "not a URL: '" + endpoint + "'");
        }
        if (!("http".equals(u.getScheme()) || "https".equals(u.getScheme())) || u.getHost() == null) {
            throw new InvalidFieldException("otlp.endpoint",
                                            "must be an http(s) URL with a host, e.g. http://collector:4318/v1/metrics,"
                                                    + " got '" + endpoint + "'");
        }
        return new OtlpSettings(u.toString(),
                                (int) integer(o, "otlp.intervalMs", "intervalMs", 100, 86_400_000,
                                              OtlpSettings.DEFAULT_INTERVAL_MS),
                                (int) integer(o, "otlp.timeoutMs", "timeoutMs", 100, 600_000,
                                              OtlpSettings.DEFAULT_TIMEOUT_MS),
                                (int) integer(o, "otlp.queueBatches", "queueBatches", 1, 1000,
                                              OtlpSettings.DEFAULT_QUEUE_BATCHES),
                                OtlpSecurity.parse(o, "https".equals(u.getScheme())));
    }

    private static KafkaSettings kafka(JsonNode k) {
        if (!k.isObject()) {
            throw new InvalidFieldException(KAFKA, "must be an object");
        }
        fieldsIn(k, KAFKA, Set.of("bootstrapServers", "topicPrefix", "queueRecords", "bufferBytes", "maxBlockMs",
                                  "deliveryTimeoutMs", "intReports", "tls", "sasl"));
        String servers = text(k, "kafka.bootstrapServers", k.get("bootstrapServers"), null);
        if (servers == null) {
            throw new InvalidFieldException("kafka.bootstrapServers", "required");
        }
        for (String hp : servers.split(",", -1)) {
            var m = HOST_PORT.matcher(hp.trim());
            if (!m.matches()) {
                throw new InvalidFieldException("kafka.bootstrapServers", "not host:port: '" + hp + "'");
            }
            int port = Integer.parseInt(m.group(1) != null ? m.group(1) : m.group(2));
            if (port < 1 || port > 65535) {
                throw new InvalidFieldException("kafka.bootstrapServers", "port out of range: '" + hp + "'");
            }
        }
        String prefix = text(k, "kafka.topicPrefix", k.get("topicPrefix"), KafkaSettings.DEFAULT_TOPIC_PREFIX);
        if (!TOPIC.matcher(prefix).matches()) {
            throw new InvalidFieldException("kafka.topicPrefix", "must be 1-200 of [A-Za-z0-9._-], got '" + prefix
                    + "'");
        }
        return new KafkaSettings(servers.trim(), prefix,
                                 (int) integer(k, "kafka.queueRecords", "queueRecords", 1, 1_000_000,
                                               KafkaSettings.DEFAULT_QUEUE_RECORDS),
                                 integer(k, "kafka.bufferBytes", "bufferBytes", 64 << 10, 1L << 30,
                                         KafkaSettings.DEFAULT_BUFFER_BYTES),
                                 (int) integer(k, "kafka.maxBlockMs", "maxBlockMs", 0, 10_000,
                                               KafkaSettings.DEFAULT_MAX_BLOCK_MS),
                                 (int) integer(k, "kafka.deliveryTimeoutMs", "deliveryTimeoutMs", 1000, 3_600_000,
                                               KafkaSettings.DEFAULT_DELIVERY_TIMEOUT_MS),
                                 k.has("intReports") ? intReports(k.get("intReports")) : null,
                                 KafkaSecurity.parse(k.get("tls"), k.get("sasl")));
    }

    private static IntReportSettings intReports(JsonNode r) {
        String where = "kafka.intReports";
        if (!r.isObject()) {
            throw new InvalidFieldException(where, "must be an object");
        }
        fieldsIn(r, where, Set.of("sampleEvery", "maxPerSecond", "queueRecords"));
        return new IntReportSettings(
                (int) integer(r, where + ".sampleEvery", "sampleEvery", 1, 1_000_000,
                              IntReportSettings.DEFAULT_SAMPLE_EVERY),
                (int) integer(r, where + ".maxPerSecond", "maxPerSecond", 1, 100_000,
                              IntReportSettings.DEFAULT_MAX_PER_SECOND),
                (int) integer(r, where + ".queueRecords", "queueRecords", 1, 1_000_000,
                              IntReportSettings.DEFAULT_QUEUE_RECORDS));
    }

    static void fieldsIn(JsonNode n, String where, Set<String> allowed) {
        for (Iterator<String> it = n.fieldNames(); it.hasNext();) {
            String f = it.next();
            if (!allowed.contains(f)) {
                throw new InvalidFieldException(where + "." + f, "unknown field; allowed: " + new TreeSet<>(allowed));
            }
        }
    }

    static String text(JsonNode parent, String name, JsonNode n, String dflt) {
        if (n == null) {
            return dflt;
        }
        if (!n.isTextual() || n.asText().isBlank()) {
            throw new InvalidFieldException(name, "must be a non-empty string, got " + n);
        }
        return n.asText();
    }

    static long integer(JsonNode parent, String name, String field, long min, long max, long dflt) {
        JsonNode n = parent.get(field);
        if (n == null) {
            return dflt;
        }
        if (!n.isIntegralNumber() || !n.canConvertToLong()) {
            throw new InvalidFieldException(name, "must be an integer, got " + n);
        }
        long v = n.asLong();
        if (v < min || v > max) {
            throw new InvalidFieldException(name, "must be in " + min + ".." + max + ", got " + v);
        }
        return v;
    }
}
