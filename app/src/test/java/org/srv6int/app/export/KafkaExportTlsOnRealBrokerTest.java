// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.export;

import org.junit.AfterClass;
import org.junit.Assume;
import org.junit.BeforeClass;
import org.junit.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

/**
 * The Kafka export over TLS and TLS + SASL PLAIN to a real broker ({@link KafkaBroker} with a
 * certificate from a CA made here with openssl): records are acknowledged over both listeners;
 * a client that trusts another CA, and one with a wrong password, are refused by the handshake
 * and say why in {@link KafkaExport#lastError()}, with nothing acknowledged.
 */
public class KafkaExportTlsOnRealBrokerTest {
    private static final String USER = "srv6int";
    private static final String PASSWORD = "s3cret-pw";
    private static KafkaBroker broker;
    private static Path dir;

    private static void openssl(Path cwd, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("openssl"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).directory(cwd.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("openssl " + cmd + ": " + out);
        }
    }

    /** A CA, a broker certificate for 127.0.0.1 signed by it (key + chain in server.pem), another CA. */
    private static void certificates(Path d) throws Exception {
        openssl(d, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem",
                "-days", "2", "-subj", "/CN=srv6int test CA");
        openssl(d, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "other-ca.key", "-out",
                "other-ca.pem", "-days", "2", "-subj", "/CN=srv6int other CA");
        openssl(d, "req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr",
                "-subj", "/CN=localhost");
        Files.writeString(d.resolve("ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
        openssl(d, "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                "-out", "server.crt", "-days", "2", "-extfile", "ext");
        openssl(d, "pkcs8", "-topk8", "-nocrypt", "-in", "server.key", "-out", "server-pkcs8.key");
        Files.writeString(d.resolve("server.pem"), Files.readString(d.resolve("server-pkcs8.key"))
                + Files.readString(d.resolve("server.crt")));
        Files.writeString(d.resolve("password"), PASSWORD + "\n");
        Files.writeString(d.resolve("wrong-password"), "not-it\n");
    }

    @BeforeClass
    public static void startBroker() throws Exception {
        String cp = System.getProperty("srv6int.kafka.classpath");
        Assume.assumeTrue("srv6int.kafka.classpath not set (tests/ci.d/65-kafka.sh sets it)", cp != null);
        dir = Files.createTempDirectory("srv6int-kafka-tls");
        certificates(dir);
        broker = new KafkaBroker(cp, dir, dir.resolve("server.pem"), USER + ":" + PASSWORD);
        broker.start();
    }

    @AfterClass
    public static void stopBroker() throws Exception {
        if (broker != null) {
            broker.close();
        }
    }

    private static KafkaSettings settings(String prefix, String servers, KafkaSecurity security) {
        return new KafkaSettings(servers, prefix, 100, 1 << 20, 1000, 120_000, null, security);
    }

    private static boolean within(long seconds, BooleanSupplier cond) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!cond.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(50);
        }
        return true;
    }

    /** Offers three windows' records and waits for the three VNF summaries' acks (or 120 s). */
    private static long acked(KafkaExport k, ExportCounters counters) throws Exception {
        Windows windows = new Windows();
        for (int period = 1; period <= 3; period++) {
            for (ExportRecord r : WindowRecords.of(windows.next(20 * period, 100_000L * period), "onos-1", period,
                                                   1_000L * period)) {
                k.offer(r);
            }
        }
        within(120, () -> counters.get(ExportRecord.Kind.VNF_SUMMARY, ExportCounters.Result.ACKED) == 3);
        return counters.get(ExportRecord.Kind.VNF_SUMMARY, ExportCounters.Result.ACKED);
    }

    @Test
    public void recordsArriveOverTlsAndOverTlsWithSasl() throws Exception {
        ExportCounters tls = new ExportCounters();
        try (KafkaExport k = new KafkaExport(settings("tls", broker.sslBootstrap(),
                new KafkaSecurity(dir.resolve("ca.pem").toString(), null, null, null, null)), "tls", tls)) {
            assertEquals("TLS: " + k.lastError(), 3, acked(k, tls));
            assertNull(k.lastError());
        }
        ExportCounters sasl = new ExportCounters();
        try (KafkaExport k = new KafkaExport(settings("sasl", broker.saslBootstrap(),
                new KafkaSecurity(dir.resolve("ca.pem").toString(), null, "PLAIN", USER,
                                  dir.resolve("password").toString())), "sasl", sasl)) {
            assertEquals("SASL_SSL: " + k.lastError(), 3, acked(k, sasl));
            assertNull(k.lastError());
        }
    }

    @Test
    public void aBrokerCertificateFromAnotherCaIsRefused() throws Exception {
        ExportCounters c = new ExportCounters();
        try (KafkaExport k = new KafkaExport(settings("wrong-ca", broker.sslBootstrap(),
                new KafkaSecurity(dir.resolve("other-ca.pem").toString(), null, null, null, null)), "wrong-ca", c)) {
            assertTrue("the export reports " + "SSL handshake failed" + ", last error: " + k.lastError(),
                       refusedWith(k, "SSL handshake failed"));
            assertEquals(0, c.get(ExportRecord.Kind.VNF_SUMMARY, ExportCounters.Result.ACKED));
        }
    }

    @Test
    public void aWrongSaslPasswordIsRefused() throws Exception {
        ExportCounters c = new ExportCounters();
        try (KafkaExport k = new KafkaExport(settings("wrong-password", broker.saslBootstrap(),
                new KafkaSecurity(dir.resolve("ca.pem").toString(), null, "PLAIN", USER,
                                  dir.resolve("wrong-password").toString())), "wrong-password", c)) {
            assertTrue("the export reports " + "Authentication failed" + ", last error: " + k.lastError(),
                       refusedWith(k, "Authentication failed"));
            assertEquals(0, c.get(ExportRecord.Kind.VNF_SUMMARY, ExportCounters.Result.ACKED));
        }
    }

    /**
     * Offers a window's records every 200 ms until the export's last error says why the broker
     * refused it (a send may first time out waiting for metadata) or 60 s pass.
     */
    private static boolean refusedWith(KafkaExport k, String why) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            offerOne(k);
            String e = k.lastError();
            if (e != null && e.contains(why)) {
                return true;
            }
            Thread.sleep(200);
        }
        return false;
    }

    private static void offerOne(KafkaExport k) {
        for (ExportRecord r : WindowRecords.of(new Windows().next(20, 100_000L), "onos-1", 1, 1_000L)) {
            k.offer(r);
        }
    }
}
