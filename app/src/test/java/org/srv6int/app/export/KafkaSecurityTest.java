// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.export;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.Test;
import org.onosproject.net.config.InvalidFieldException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/** netcfg {@code kafka.tls} and {@code kafka.sasl}: what the producer gets, and each bad field named. */
public class KafkaSecurityTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode json(String s) throws Exception {
        return JSON.readTree(s);
    }

    private static void refused(String tls, String sasl, String field) throws Exception {
        try {
            KafkaSecurity.parse(tls == null ? null : json(tls), sasl == null ? null : json(sasl));
            fail("accepted, expected " + field + " refused");
        } catch (InvalidFieldException e) {
            assertTrue(e.getMessage(), e.getMessage().contains(field));
        }
    }

    @Test
    public void settingsBecomeProducerProperties() throws Exception {
        Path ca = Files.createTempFile("ca", ".pem");
        Path pw = Files.createTempFile("pw", "");
        Files.writeString(pw, "p\"w\\d\n");
        assertNull(KafkaSecurity.parse(null, null));
        Properties p = new Properties();
        KafkaSecurity.parse(json("{\"caFile\": \"" + ca + "\"}"), null).apply(p);
        assertEquals("SSL", p.get("security.protocol"));
        assertEquals("PEM", p.get("ssl.truststore.type"));
        assertEquals(ca.toString(), p.get("ssl.truststore.location"));
        assertNull(p.get("sasl.jaas.config"));
        p.clear();
        KafkaSecurity.parse(json("{\"caFile\": \"" + ca + "\"}"), json("{\"mechanism\": \"SCRAM-SHA-512\","
                + " \"username\": \"srv6int\", \"passwordFile\": \"" + pw + "\"}")).apply(p);
        assertEquals("SASL_SSL", p.get("security.protocol"));
        assertEquals("SCRAM-SHA-512", p.get("sasl.mechanism"));
        assertEquals("org.apache.kafka.common.security.scram.ScramLoginModule required username=\"srv6int\""
                + " password=\"p\\\"w\\\\d\";", p.get("sasl.jaas.config"));
        Files.delete(pw);
        try {
            new KafkaSecurity(ca.toString(), null, "PLAIN", "u", pw.toString()).apply(new Properties());
            fail("a missing password file was accepted");
        } catch (IllegalStateException e) {
            assertTrue(e.getMessage(), e.getMessage().startsWith("export.kafka.sasl.passwordFile: cannot read"));
        }
    }

    @Test
    public void badFieldsAreNamed() throws Exception {
        Path ca = Files.createTempFile("ca", ".pem");
        String okTls = "{\"caFile\": \"" + ca + "\"}";
        refused(null, "{\"mechanism\": \"PLAIN\"}", "kafka.sasl");
        refused("{}", null, "kafka.tls.caFile");
        refused("{\"caFile\": \"ca.pem\"}", null, "kafka.tls.caFile");
        refused("{\"caFile\": \"/nonexistent/ca.pem\"}", null, "kafka.tls.caFile");
        refused("{\"caFile\": \"" + ca + "\", \"verify\": false}", null, "kafka.tls.verify");
        refused(okTls, "{\"mechanism\": \"GSSAPI\", \"username\": \"u\", \"passwordFile\": \"" + ca + "\"}",
                "kafka.sasl.mechanism");
        refused(okTls, "{\"mechanism\": \"PLAIN\", \"passwordFile\": \"" + ca + "\"}", "kafka.sasl.username");
        refused(okTls, "{\"mechanism\": \"PLAIN\", \"username\": \"u\", \"password\": \"x\"}", "kafka.sasl.password");
    }
}
