// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.export;

import com.fasterxml.jackson.databind.JsonNode;
import org.onosproject.net.config.InvalidFieldException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Iterator;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;

/**
 * TLS and SASL of the Kafka export (netcfg {@code export.kafka.tls} and {@code export.kafka.sasl}):
 * <pre>
 * "tls":  { "caFile": "/etc/srv6int/kafka-ca.pem", "clientCertFile": "/etc/srv6int/kafka-client.pem" },
 * "sasl": { "mechanism": "SCRAM-SHA-512", "username": "srv6int", "passwordFile": "/etc/srv6int/kafka-password" }
 * </pre>
 * The CA (PEM) is the only trust anchor and the broker's name is checked against its certificate;
 * {@code clientCertFile} (optional, PEM: unencrypted PKCS#8 key and certificate chain) for brokers
 * that want client certificates. SASL (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512) only over TLS; the
 * password is read from its file each time a producer is made, never kept in netcfg.
 */
public final class KafkaSecurity {
    static final Set<String> MECHANISMS = Set.of("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512");

    private final String caFile;
    private final String clientCertFile;
    private final String mechanism;
    private final String username;
    private final String passwordFile;

    /**
     * Creates the settings.
     *
     * @param caFile         PEM file of the CA(s) the broker's certificate must chain to
     * @param clientCertFile PEM key and chain of this client, or null
     * @param mechanism      SASL mechanism, or null for TLS alone
     * @param username       SASL user (with a mechanism)
     * @param passwordFile   file holding the SASL password (with a mechanism)
     */
    public KafkaSecurity(String caFile, String clientCertFile, String mechanism, String username,
                         String passwordFile) {
        this.caFile = Objects.requireNonNull(caFile, "caFile");
        this.clientCertFile = clientCertFile;
        this.mechanism = mechanism;
        this.username = username;
        this.passwordFile = passwordFile;
    }

    /** @return Kafka's security.protocol for these settings */
    public String protocol() {
        return mechanism == null ? "SSL" : "SASL_SSL";
    }

    /** @return the SASL mechanism, or null */
    public String mechanism() {
        return mechanism;
    }

    /**
     * Adds these settings to a producer's properties, reading the password file.
     *
     * @param p producer properties
     * @throws IllegalStateException naming the file when the password cannot be read
     */
    void apply(Properties p) {
        p.put("security.protocol", protocol());
        p.put("ssl.truststore.type", "PEM");
        p.put("ssl.truststore.location", caFile);
        p.put("ssl.endpoint.identification.algorithm", "https");
        if (clientCertFile != null) {
            p.put("ssl.keystore.type", "PEM");
            p.put("ssl.keystore.location", clientCertFile);
        }
        if (mechanism != null) {
            String password;
            try {
                password = Files.readString(Paths.get(passwordFile), StandardCharsets.UTF_8).strip();
            } catch (IOException e) {
                throw new IllegalStateException("export.kafka.sasl.passwordFile: cannot read " + passwordFile
                        + ": " + e);
            }
            if (password.isEmpty()) {
                throw new IllegalStateException("export.kafka.sasl.passwordFile: " + passwordFile + " is empty");
            }
            String module = "PLAIN".equals(mechanism) ? "org.apache.kafka.common.security.plain.PlainLoginModule"
                    : "org.apache.kafka.common.security.scram.ScramLoginModule";
            p.put("sasl.mechanism", mechanism);
            p.put("sasl.jaas.config", module + " required username=\"" + jaas(username) + "\" password=\""
                    + jaas(password) + "\";");
        }
    }

    private static String jaas(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    /**
     * Parses {@code tls} and {@code sasl} of the kafka section.
     *
     * @param tls  the tls object, or null
     * @param sasl the sasl object, or null
     * @return settings, or null when neither is given
     * @throws InvalidFieldException naming the bad field
     */
    static KafkaSecurity parse(JsonNode tls, JsonNode sasl) {
        if (tls == null && sasl == null) {
            return null;
        }
        if (tls == null) {
            throw new InvalidFieldException("kafka.sasl", "needs kafka.tls: SASL over plain TCP would send the "
                    + "password in clear");
        }
        only(tls, "kafka.tls", Set.of("caFile", "clientCertFile"));
        String ca = readableFile(tls, "kafka.tls", "caFile", true);
        String cert = readableFile(tls, "kafka.tls", "clientCertFile", false);
        if (sasl == null) {
            return new KafkaSecurity(ca, cert, null, null, null);
        }
        only(sasl, "kafka.sasl", Set.of("mechanism", "username", "passwordFile"));
        String mech = sasl.path("mechanism").asText("");
        if (!MECHANISMS.contains(mech)) {
            throw new InvalidFieldException("kafka.sasl.mechanism", "must be one of PLAIN, SCRAM-SHA-256, "
                    + "SCRAM-SHA-512, got '" + mech + "'");
        }
        String user = sasl.path("username").asText("");
        if (user.isEmpty()) {
            throw new InvalidFieldException("kafka.sasl.username", "required");
        }
        return new KafkaSecurity(ca, cert, mech, user, readableFile(sasl, "kafka.sasl", "passwordFile", true));
    }

    private static void only(JsonNode o, String where, Set<String> fields) {
        if (!o.isObject()) {
            throw new InvalidFieldException(where, "must be an object");
        }
        for (Iterator<String> it = o.fieldNames(); it.hasNext();) {
            String f = it.next();
            if (!fields.contains(f)) {
                throw new InvalidFieldException(where + "." + f, "unknown field; known: " + fields);
            }
        }
    }

    /** An absolute path to a readable file, checked when netcfg is applied. */
    static String readableFile(JsonNode o, String where, String field, boolean required) {
        JsonNode n = o.get(field);
        if (n == null) {
            if (required) {
                throw new InvalidFieldException(where + "." + field, "required");
            }
            return null;
        }
        Path p = Paths.get(n.asText(""));
        if (!n.isTextual() || !p.isAbsolute()) {
            throw new InvalidFieldException(where + "." + field, "must be an absolute path, got " + n);
        }
        if (!Files.isRegularFile(p) || !Files.isReadable(p)) {
            throw new InvalidFieldException(where + "." + field, "cannot read " + p);
        }
        return p.toString();
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof KafkaSecurity)) {
            return false;
        }
        KafkaSecurity s = (KafkaSecurity) o;
        return caFile.equals(s.caFile) && Objects.equals(clientCertFile, s.clientCertFile)
                && Objects.equals(mechanism, s.mechanism) && Objects.equals(username, s.username)
                && Objects.equals(passwordFile, s.passwordFile);
    }

    @Override
    public int hashCode() {
        return Objects.hash(caFile, clientCertFile, mechanism, username, passwordFile);
    }

    @Override
    public String toString() {
        return protocol() + (mechanism == null ? "" : " " + mechanism + " as " + username) + ", CA " + caFile;
    }
}
