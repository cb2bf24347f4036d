package org.srv6int.app.export;

import com.fasterxml.jackson.databind.JsonNode;
import org.onosproject.net.config.InvalidFieldException;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Objects;
import java.util.Set;

/**
 * Settings of the OTLP export (netcfg {@code apps/org.srv6int.app/export}, field {@code otlp}):
 * the collector's OTLP/HTTP metrics endpoint and how often to push.
 */
public final class OtlpSettings {

    /** Default push interval. */
    public static final long DEFAULT_INTERVAL_MS = 10_000;

    private final String endpoint;
    private final long intervalMs;

    /**
     * Creates settings.
     *
     * @param endpoint   OTLP/HTTP metrics endpoint, e.g. http://host:4318/v1/metrics
     * @param intervalMs push interval
     */
    public OtlpSettings(String endpoint, long intervalMs) {
        this.endpoint = Objects.requireNonNull(endpoint);
        this.intervalMs = intervalMs;
    }

    static OtlpSettings parse(JsonNode n) {
        if (!n.isObject()) {
            throw new InvalidFieldException(ExportConfig.OTLP, "must be an object");
        }
        ExportConfig.fieldsIn(n, ExportConfig.OTLP, Set.of("endpoint", "intervalMs"));
        String endpoint = ExportConfig.text(n, "otlp.endpoint", n.get("endpoint"), null);
        if (endpoint == null) {
            throw new InvalidFieldException("otlp.endpoint", "required");
        }
        try {
            URI u = new URI(endpoint);
            if (!("http".equals(u.getScheme()) || "https".equals(u.getScheme())) || u.getHost() == null) {
                throw new InvalidFieldException("otlp.endpoint", "must be an http(s) URL with a host, got " + endpoint);
            }
        } catch (URISyntaxException e) {
            throw new InvalidFieldException("otlp.endpoint", "not a URL: " + endpoint);
        }
        long interval = ExportConfig.integer(n, "otlp.intervalMs", "intervalMs", 1000, 3_600_000, DEFAULT_INTERVAL_MS);
        return new OtlpSettings(endpoint, interval);
    }

    /** @return OTLP/HTTP metrics endpoint */
    public String endpoint() {
        return endpoint;
    }

    /** @return push interval in ms */
    public long intervalMs() {
        return intervalMs;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof OtlpSettings && endpoint.equals(((OtlpSettings) o).endpoint)
                && intervalMs == ((OtlpSettings) o).intervalMs;
    }

    @Override
    public int hashCode() {
        return Objects.hash(endpoint, intervalMs);
    }

    @Override
    public String toString() {
        return "otlp " + endpoint + " every " + intervalMs + " ms";
    }
}
