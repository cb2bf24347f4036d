// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.export;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceResponse;
import org.junit.After;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;
import org.onosproject.net.config.InvalidFieldException;
import org.srv6int.app.testing.PaperTestbed;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManagerFactory;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * The OTLP push over TLS with headers, against an in-process OTLP/HTTP receiver (the JDK's
 * {@code HttpsServer}) whose certificate for 127.0.0.1 is signed by a CA made here with openssl:
 * with that CA the push is acknowledged and the receiver sees the literal header and the one read
 * from a file (and the file's new content after it is rewritten); with another CA the push fails
 * and the receiver decodes nothing; a receiver that wants a client certificate refuses a push
 * without one and takes it with one. netcfg refuses TLS or header files on a plain-HTTP endpoint.
 */
public class OtlpExportTlsTest {
    private static final String METRICS = "# HELP srv6int_up up\n# TYPE srv6int_up gauge\nsrv6int_up 1\n";
    private static final char[] STORE_PASSWORD = "changeit".toCharArray();
    private static Path dir;

    private final List<Headers> seen = new CopyOnWriteArrayList<>();
    private final List<OtlpExport> exports = new ArrayList<>();
    private HttpsServer receiver;

    private static void openssl(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("openssl"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("openssl " + cmd + ": " + out);
        }
    }

    /** A CA, a receiver certificate for 127.0.0.1 and a client certificate signed by it, another CA. */
    @BeforeClass
    public static void certificates() throws Exception {
        dir = Files.createTempDirectory("srv6int-otlp-tls");
        openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem",
                "-days", "2", "-subj", "/CN=srv6int test CA");
        openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "other-ca.key", "-out",
                "other-ca.pem", "-days", "2", "-subj", "/CN=srv6int other CA");
        Files.writeString(dir.resolve("ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
        for (String who : List.of("server", "client")) {
            openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", who + ".key", "-out", who + ".csr",
                    "-subj", "/CN=" + who);
            openssl("x509", "-req", "-in", who + ".csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                    "-out", who + ".crt", "-days", "2", "-extfile", "ext");
        }
        openssl("pkcs12", "-export", "-in", "server.crt", "-inkey", "server.key", "-out", "server.p12",
                "-passout", "pass:" + new String(STORE_PASSWORD));
        openssl("pkcs8", "-topk8", "-nocrypt", "-in", "client.key", "-out", "client-pkcs8.key");
        Files.writeString(dir.resolve("client.pem"), Files.readString(dir.resolve("client-pkcs8.key"))
                + Files.readString(dir.resolve("client.crt")));
    }

    @AfterClass
    public static void removeCertificates() throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    /** Starts a receiver on a port of the OS's choosing; it answers 200 to each push it decodes. */
    private String startReceiver(boolean wantClientCert) throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(dir.resolve("server.p12"))) {
            ks.load(in, STORE_PASSWORD);
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, STORE_PASSWORD);
        KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(dir.resolve("ca.pem"))) {
            trust.setCertificateEntry("ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
        receiver = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        receiver.setHttpsConfigurator(new HttpsConfigurator(ctx) {
            @Override
            public void configure(HttpsParameters params) {
                SSLParameters p = getSSLContext().getDefaultSSLParameters();
                p.setNeedClientAuth(wantClientCert);
                params.setSSLParameters(p);
            }
        });
        receiver.createContext("/v1/metrics", x -> {
            try (InputStream in = x.getRequestBody()) {
                ExportMetricsServiceRequest.parseFrom(in.readAllBytes());
            }
            seen.add(x.getRequestHeaders());
            byte[] ok = ExportMetricsServiceResponse.getDefaultInstance().toByteArray();
            x.getResponseHeaders().add("Content-Type", "application/x-protobuf");
            x.sendResponseHeaders(200, ok.length == 0 ? -1 : ok.length);
            x.getResponseBody().write(ok);
            x.close();
        });
        receiver.start();
        return "https://127.0.0.1:" + receiver.getAddress().getPort() + "/v1/metrics";
    }

    @After
    public void tearDown() {
        exports.forEach(OtlpExport::close);
        if (receiver != null) {
            receiver.stop(0);
        }
    }

    private OtlpExport push(String endpoint, OtlpSecurity security, ExportCounters counters) {
        OtlpExport e = new OtlpExport(new OtlpSettings(endpoint, 200, 5000, 4, security), "onos-1",
                                      () -> METRICS, counters);
        exports.add(e);
        return e;
    }

    private static long count(ExportCounters c, ExportCounters.Result r) {
        return c.get(ExportRecord.Kind.METRICS, r);
    }

    private static void await(BooleanSupplier done, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not reached in 30 s: " + what);
            }
            Thread.sleep(20);
        }
    }

    private static OtlpSecurity parse(String otlpJson) throws Exception {
        return settingsOf(otlpJson).otlp().security();
    }

    private static ExportSettings settingsOf(String otlpJson) throws Exception {
        ObjectMapper m = new ObjectMapper();
        ExportConfig c = new ExportConfig();
        c.init(PaperTestbed.APP_ID, ExportConfig.KEY, (ObjectNode) m.readTree("{\"otlp\": " + otlpJson + "}"), m,
               cfg -> { });
        return c.settings();
    }

    @Test
    public void pushWithTheCaCarriesBothHeaders() throws Exception {
        String url = startReceiver(false);
        Path token = Files.createTempFile(dir, "token", "");
        Files.writeString(token, "Bearer first-token\n");
        OtlpSecurity sec = parse("{\"endpoint\": \"" + url + "\", \"headers\": {\"X-Scope-OrgID\": \"srv6int\"},"
                + " \"headerFiles\": {\"Authorization\": \"" + token + "\"},"
                + " \"tls\": {\"caFile\": \"" + dir.resolve("ca.pem") + "\"}}");
        ExportCounters counters = new ExportCounters();
        OtlpExport e = push(url, sec, counters);
        await(() -> count(counters, ExportCounters.Result.ACKED) >= 1, "a push acked over TLS");
        Headers h = seen.get(0);
        assertEquals("srv6int", h.getFirst("X-Scope-OrgID"));
        assertEquals("Bearer first-token", h.getFirst("Authorization"));
        // a rotated secret is sent from the next push on, without a netcfg change
        Files.writeString(token, "Bearer second-token\n");
        await(() -> seen.stream().anyMatch(x -> "Bearer second-token".equals(x.getFirst("Authorization"))),
              "the rewritten token sent");
        // an unreadable file: the last value read is kept, the error named
        Files.delete(token);
        int before = seen.size();
        await(() -> seen.size() > before + 1, "pushes after the file went");
        assertEquals("Bearer second-token", seen.get(seen.size() - 1).getFirst("Authorization"));
        assertTrue(e.lastError(), e.lastError() != null && e.lastError().contains("otlp.headerFiles.Authorization"));
        assertEquals(0, count(counters, ExportCounters.Result.FAILED));
    }

    @Test
    public void anotherCaIsRefused() throws Exception {
        String url = startReceiver(false);
        ExportCounters counters = new ExportCounters();
        OtlpExport e = push(url, new OtlpSecurity(Map.of(), Map.of(),
                                                  dir.resolve("other-ca.pem").toString(), null), counters);
        await(() -> count(counters, ExportCounters.Result.FAILED) >= 2, "pushes failed on the wrong CA");
        assertEquals(0, count(counters, ExportCounters.Result.ACKED));
        assertTrue("receiver decoded a push it should never have had", seen.isEmpty());
        assertTrue(e.lastError(), e.lastError() != null && e.lastError().contains("SSL"));
        // the JVM's trust store does not hold the test CA either
        ExportCounters plain = new ExportCounters();
        push(url, null, plain);
        await(() -> count(plain, ExportCounters.Result.FAILED) >= 1, "a push failed without the CA");
        assertEquals(0, count(plain, ExportCounters.Result.ACKED));
    }

    @Test
    public void clientCertificateWhenTheReceiverWantsOne() throws Exception {
        String url = startReceiver(true);
        String ca = dir.resolve("ca.pem").toString();
        ExportCounters without = new ExportCounters();
        OtlpExport e = push(url, new OtlpSecurity(Map.of(), Map.of(), ca, null), without);
        await(() -> count(without, ExportCounters.Result.FAILED) >= 1
                      || count(without, ExportCounters.Result.ACKED) > 0, "a push without a client cert ended");
        assertEquals("acked without a client cert: " + seen.size() + " seen", 0,
                     count(without, ExportCounters.Result.ACKED));
        assertTrue(e.lastError(), e.lastError() != null);
        assertEquals(0, count(without, ExportCounters.Result.ACKED));
        ExportCounters with = new ExportCounters();
        push(url, parse("{\"endpoint\": \"" + url + "\", \"tls\": {\"caFile\": \"" + ca + "\", \"clientCertFile\": \""
                + dir.resolve("client.pem") + "\"}}"), with);
        await(() -> count(with, ExportCounters.Result.ACKED) >= 1, "a push with the client cert acked");
    }

    private static void refused(String otlpJson, String field) throws Exception {
        try {
            settingsOf(otlpJson);
            fail("accepted, expected " + field + " refused: " + otlpJson);
        } catch (InvalidFieldException e) {
            assertTrue(e.getMessage(), e.getMessage().contains(field));
        }
    }

    @Test
    public void badFieldsAreNamed() throws Exception {
        String ca = dir.resolve("ca.pem").toString();
        String https = "\"endpoint\": \"https://collector:4318/v1/metrics\"";
        refused("{\"endpoint\": \"http://collector:4318/v1/metrics\", \"tls\": {\"caFile\": \"" + ca + "\"}}",
                "otlp.tls");
        refused("{\"endpoint\": \"http://collector:4318/v1/metrics\", \"headerFiles\": {\"Authorization\": \""
                + ca + "\"}}", "otlp.headerFiles");
        refused("{" + https + ", \"headerFiles\": {\"Authorization\": \"/nonexistent/token\"}}",
                "otlp.headerFiles.Authorization");
        refused("{" + https + ", \"headerFiles\": {\"Authorization\": \"token\"}}", "otlp.headerFiles.Authorization");
        refused("{" + https + ", \"headers\": {\"Bad Name\": \"x\"}}", "otlp.headers.Bad Name");
        refused("{" + https + ", \"headers\": {\"X-A\": \"a\\nb\"}}", "otlp.headers.X-A");
        refused("{" + https + ", \"headers\": {\"X-A\": 1}}", "otlp.headers.X-A");
        refused("{" + https + ", \"headers\": {\"authorization\": \"x\"}, \"headerFiles\": {\"Authorization\": \""
                + ca + "\"}}", "otlp.headerFiles.Authorization");
        refused("{" + https + ", \"tls\": {}}", "otlp.tls.caFile");
        refused("{" + https + ", \"tls\": {\"caFile\": \"" + ca + "\", \"insecure\": true}}", "otlp.tls.insecure");
        // a literal header over plain HTTP is fine (a tenant id); the settings never print header values
        ExportSettings s = settingsOf("{\"endpoint\": \"http://collector:4318/v1/metrics\","
                + " \"headers\": {\"X-Scope-OrgID\": \"tenant-7\"}}");
        assertEquals("tenant-7", s.otlp().security().headers().get("X-Scope-OrgID"));
        assertTrue(s.toString(), !s.toString().contains("tenant-7") && s.toString().contains("X-Scope-OrgID"));
    }

    @Test
    public void aClientFileWithoutKeyIsRefusedAtStart() throws Exception {
        try {
            push("https://127.0.0.1:1/v1/metrics", new OtlpSecurity(Map.of(), Map.of(),
                    dir.resolve("ca.pem").toString(), dir.resolve("client.crt").toString()), new ExportCounters());
            fail("a client file without a key was accepted");
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("otlp.tls.clientCertFile"));
        }
    }
}
