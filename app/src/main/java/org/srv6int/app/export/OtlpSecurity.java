// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.export;

import com.fasterxml.jackson.databind.JsonNode;
import io.opentelemetry.exporter.otlp.http.metrics.OtlpHttpMetricExporterBuilder;
import org.onosproject.net.config.InvalidFieldException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Headers and TLS of the OTLP push (netcfg {@code export.otlp.headers}, {@code headerFiles},
 * {@code tls}):
 * <pre>
 * "headers":     { "X-Scope-OrgID": "srv6int" },
 * "headerFiles": { "Authorization": "/etc/srv6int/otlp-authorization" },
 * "tls":         { "caFile": "/etc/srv6int/otlp-ca.pem", "clientCertFile": "/etc/srv6int/otlp-client.pem" }
 * </pre>
 * {@code headerFiles} are for secrets (a bearer token, a basic-auth value): the value is the
 * file's content, stripped, read again at every push so a rotated file is picked up, never kept in
 * netcfg; they need an {@code https} endpoint. The CA (PEM) replaces the JVM's trust store and the
 * collector's name is checked against its certificate; {@code clientCertFile} (optional, PEM:
 * unencrypted PKCS#8 key and certificate chain, as for Kafka) for collectors that want client
 * certificates. {@code tls} needs an {@code https} endpoint; an {@code https} endpoint without
 * {@code tls} trusts the JVM's CAs.
 */
public final class OtlpSecurity {
    /** RFC 9110 field-name token. */
    private static final Pattern HEADER_NAME = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}");
    private static final Pattern PEM_BLOCK = Pattern.compile(
            "-----BEGIN ([A-Z ]+)-----[\\s\\S]*?-----END \\1-----\\s*");

    private final Map<String, String> headers;
    private final Map<String, String> headerFiles;
    private final String caFile;
    private final String clientCertFile;

    /**
     * Creates the settings.
     *
     * @param headers        header name to value
     * @param headerFiles    header name to the file holding its value
     * @param caFile         PEM file of the CA(s) the collector's certificate must chain to, or null
     * @param clientCertFile PEM key and chain of this client, or null
     */
    public OtlpSecurity(Map<String, String> headers, Map<String, String> headerFiles, String caFile,
                        String clientCertFile) {
        this.headers = Collections.unmodifiableMap(new TreeMap<>(headers));
        this.headerFiles = Collections.unmodifiableMap(new TreeMap<>(headerFiles));
        this.caFile = caFile;
        this.clientCertFile = clientCertFile;
    }

    /** @return header name to value */
    public Map<String, String> headers() {
        return headers;
    }

    /** @return header name to the file holding its value */
    public Map<String, String> headerFiles() {
        return headerFiles;
    }

    /** @return the CA file, or null for the JVM's trust store */
    public String caFile() {
        return caFile;
    }

    /**
     * Sets TLS and headers on the exporter's builder, reading the CA and client files now.
     *
     * @param b       the builder
     * @param onError told, at a push, when a header file cannot be read (the last value read is sent)
     * @throws IllegalArgumentException naming the file when a TLS file cannot be read or parsed
     */
    void apply(OtlpHttpMetricExporterBuilder b, Consumer<String> onError) {
        if (caFile != null) {
            b.setTrustedCertificates(read(caFile, "otlp.tls.caFile"));
        }
        if (clientCertFile != null) {
            String pem = new String(read(clientCertFile, "otlp.tls.clientCertFile"), StandardCharsets.US_ASCII);
            StringBuilder key = new StringBuilder();
            StringBuilder certs = new StringBuilder();
            Matcher m = PEM_BLOCK.matcher(pem);
            while (m.find()) {
                if (m.group(1).equals("CERTIFICATE")) {
                    certs.append(m.group()).append('\n');
                } else if (m.group(1).endsWith("PRIVATE KEY")) {
                    key.append(m.group()).append('\n');
                }
            }
            if (key.length() == 0 || certs.length() == 0) {
                throw new IllegalArgumentException("otlp.tls.clientCertFile: " + clientCertFile
                        + " must hold a PEM private key and certificate");
            }
            b.setClientTls(key.toString().getBytes(StandardCharsets.US_ASCII),
                           certs.toString().getBytes(StandardCharsets.US_ASCII));
        }
        if (!headers.isEmpty() || !headerFiles.isEmpty()) {
            Map<String, String> last = new LinkedHashMap<>();
            b.setHeaders(() -> headerValues(last, onError));
        }
    }

    /** Headers of one push: the literal ones and each file's content, its last good value if unreadable. */
    private synchronized Map<String, String> headerValues(Map<String, String> last,
                                                          Consumer<String> onError) {
        Map<String, String> out = new LinkedHashMap<>(headers);
        for (Map.Entry<String, String> e : headerFiles.entrySet()) {
            try {
                String v = Files.readString(Paths.get(e.getValue()), StandardCharsets.UTF_8).strip();
                if (v.isEmpty() || v.indexOf('\n') >= 0 || v.indexOf('\r') >= 0) {
                    throw new IOException("empty or more than one line");
                }
                last.put(e.getKey(), v);
            } catch (IOException | RuntimeException x) {
                onError.accept("otlp.headerFiles." + e.getKey() + ": cannot read " + e.getValue() + ": " + x);
            }
            String v = last.get(e.getKey());
            if (v != null) {
                out.put(e.getKey(), v);
            }
        }
        return out;
    }

    private static byte[] read(String file, String field) {
        try {
            return Files.readAllBytes(Paths.get(file));
        } catch (IOException e) {
            throw new IllegalArgumentException(field + ": cannot read " + file + ": " + e);
        }
    }

    /**
     * Parses {@code headers}, {@code headerFiles} and {@code tls} of the otlp section.
     *
     * @param otlp  the otlp object
     * @param https whether the endpoint is https
     * @return settings, or null when none is given
     * @throws InvalidFieldException naming the bad field
     */
    static OtlpSecurity parse(JsonNode otlp, boolean https) {
        JsonNode h = otlp.get("headers");
        JsonNode hf = otlp.get("headerFiles");
        JsonNode tls = otlp.get("tls");
        if (h == null && hf == null && tls == null) {
            return null;
        }
        Map<String, String> headers = strings(h, "otlp.headers");
        Map<String, String> files = strings(hf, "otlp.headerFiles");
        for (String name : files.keySet()) {
            if (headers.keySet().stream().anyMatch(name::equalsIgnoreCase)) {
                throw new InvalidFieldException("otlp.headerFiles." + name, "also set in otlp.headers");
            }
            KafkaSecurity.readableFile(hf, "otlp.headerFiles", name, true);
        }
        if (!files.isEmpty() && !https) {
            throw new InvalidFieldException("otlp.headerFiles", "needs an https endpoint: secrets over plain HTTP "
                    + "would be sent in clear");
        }
        String ca = null;
        String cert = null;
        if (tls != null) {
            if (!https) {
                throw new InvalidFieldException("otlp.tls", "needs an https endpoint");
            }
            if (!tls.isObject()) {
                throw new InvalidFieldException("otlp.tls", "must be an object");
            }
            ExportConfig.fieldsIn(tls, "otlp.tls", Set.of("caFile", "clientCertFile"));
            ca = KafkaSecurity.readableFile(tls, "otlp.tls", "caFile", true);
            cert = KafkaSecurity.readableFile(tls, "otlp.tls", "clientCertFile", false);
        }
        return new OtlpSecurity(headers, files, ca, cert);
    }

    private static Map<String, String> strings(JsonNode o, String where) {
        Map<String, String> out = new TreeMap<>();
        if (o == null) {
            return out;
        }
        if (!o.isObject()) {
            throw new InvalidFieldException(where, "must be an object of header name to string");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!HEADER_NAME.matcher(e.getKey()).matches()) {
                throw new InvalidFieldException(where + "." + e.getKey(), "not an HTTP header name");
            }
            JsonNode v = e.getValue();
            if (!v.isTextual() || v.asText().isBlank() || v.asText().matches("(?s).*[\\r\\n\\x00].*")) {
                throw new InvalidFieldException(where + "." + e.getKey(), "must be a non-empty one-line string");
            }
            out.put(e.getKey(), v.asText());
        }
        return out;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof OtlpSecurity)) {
            return false;
        }
        OtlpSecurity s = (OtlpSecurity) o;
        return headers.equals(s.headers) && headerFiles.equals(s.headerFiles) && Objects.equals(caFile, s.caFile)
                && Objects.equals(clientCertFile, s.clientCertFile);
    }

    @Override
    public int hashCode() {
        return Objects.hash(headers, headerFiles, caFile, clientCertFile);
    }

    /** Names headers, never their values (a literal header may still be a credential). */
    @Override
    public String toString() {
        return "headers " + headers.keySet() + ", header files " + headerFiles.keySet()
                + (caFile == null ? "" : ", CA " + caFile) + (clientCertFile == null ? "" : ", client cert");
    }
}
