// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.export;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * A real single-node KRaft Kafka broker (broker and controller in one process) run from the jars
 * of Maven Central, in a child JVM: {@code srv6int.kafka.classpath} is its classpath,
 * {@code srv6int.kafka.java} the java that runs it (JDK 17; default: this JVM's). Its data
 * directory survives {@link #stop()}, so {@link #start()} again is a broker restart.
 */
final class KafkaBroker implements AutoCloseable {

    private final String classpath;
    private final String java;
    private final Path dir;
    private final Path props;
    private final Path log;
    private final int port;
    private final int sslPort;
    private final int saslPort;
    private Process process;

    /**
     * Formats a broker's storage in {@code dir}.
     *
     * @param classpath broker classpath
     * @param dir       empty directory
     * @throws Exception if formatting fails
     */
    KafkaBroker(String classpath, Path dir) throws Exception {
        this(classpath, dir, null, null);
    }

    /**
     * Formats a broker's storage in {@code dir}; with a server PEM, the broker also listens with
     * TLS (listener SSL) and TLS + SASL PLAIN (listener SASL_SSL, one user).
     *
     * @param classpath  broker classpath
     * @param dir        empty directory
     * @param serverPem  unencrypted PKCS#8 key and certificate chain of the broker, or null
     * @param saslUser   "user:password" of the SASL_SSL listener (with serverPem)
     * @throws Exception if formatting fails
     */
    KafkaBroker(String classpath, Path dir, Path serverPem, String saslUser) throws Exception {
        this.classpath = classpath;
        this.java = System.getProperty("srv6int.kafka.java",
                                       Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        this.dir = dir;
        this.port = freePort();
        this.sslPort = serverPem == null ? 0 : freePort();
        this.saslPort = serverPem == null ? 0 : freePort();
        int controller = freePort();
        String tls = serverPem == null ? "" : String.join("\n",
                "ssl.keystore.type=PEM",
                "ssl.keystore.location=" + serverPem,
                "sasl.enabled.mechanisms=PLAIN",
                "listener.name.sasl_ssl.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule"
                        + " required user_" + saslUser.split(":", 2)[0] + "=\"" + saslUser.split(":", 2)[1] + "\";",
                "");
        String extra = serverPem == null ? "" : ",SSL://127.0.0.1:" + sslPort + ",SASL_SSL://127.0.0.1:" + saslPort;
        props = dir.resolve("server.properties");
        log = dir.resolve("broker.log");
        Files.writeString(props, String.join("\n",
                "process.roles=broker,controller",
                "node.id=1",
                "controller.quorum.voters=1@127.0.0.1:" + controller,
                "listeners=PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controller + extra,
                "advertised.listeners=PLAINTEXT://127.0.0.1:" + port + extra,
                "inter.broker.listener.name=PLAINTEXT",
                "controller.listener.names=CONTROLLER",
                "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,SSL:SSL,SASL_SSL:SASL_SSL",
                tls + "log.dirs=" + dir.resolve("data"),
                "num.partitions=1",
                "offsets.topic.replication.factor=1",
                "transaction.state.log.replication.factor=1",
                "transaction.state.log.min.isr=1",
                "group.initial.rebalance.delay.ms=0",
                "auto.create.topics.enable=true", ""), StandardCharsets.UTF_8);
        String clusterId = clusterId();
        Process f = new ProcessBuilder(java, "-cp", classpath, "kafka.tools.StorageTool", "format", "-t", clusterId,
                                       "-c", props.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("format.log").toFile()).start();
        if (!f.waitFor(300, TimeUnit.SECONDS) || f.exitValue() != 0) {
            f.destroyForcibly();
            throw new IOException("formatting the broker's storage failed: "
                                          + Files.readString(dir.resolve("format.log")));
        }
    }

    /**
     * A random cluster id as Kafka's Uuid prints it. One starting with '-' (1 in 64) would be read by
     * StorageTool as an option and the format would fail, which Kafka's own Uuid.randomUuid() avoids
     * the same way: by drawing again (the 65-kafka step failed so once, CI of session 12).
     */
    static String clusterId() {
        while (true) {
            UUID u = UUID.randomUUID();
            byte[] b = new byte[16];
            for (int i = 0; i < 8; i++) {
                b[i] = (byte) (u.getMostSignificantBits() >>> (56 - 8 * i));
                b[8 + i] = (byte) (u.getLeastSignificantBits() >>> (56 - 8 * i));
            }
            String id = Base64.getUrlEncoder().withoutPadding().encodeToString(b);
            if (!id.startsWith("-")) {
                return id;
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** @return bootstrap.servers of the TLS listener */
    String sslBootstrap() {
        return "127.0.0.1:" + sslPort;
    }

    /** @return bootstrap.servers of the TLS + SASL PLAIN listener */
    String saslBootstrap() {
        return "127.0.0.1:" + saslPort;
    }

    /** @return bootstrap.servers of the broker */
    String bootstrap() {
        return "127.0.0.1:" + port;
    }

    /**
     * Starts the broker and waits until it says it started (300 s: CI machines can be loaded).
     *
     * @throws Exception if it does not within 300 s
     */
    void start() throws Exception {
        File out = log.toFile();
        process = new ProcessBuilder(List.of(java, "-Xmx384m", "-cp", classpath, "kafka.Kafka", props.toString()))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(out)).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300);
        long from = Files.size(log);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("broker exited: " + tail());
            }
            String text = Files.readString(log);
            if (text.length() > from && text.substring((int) Math.min(from, text.length()))
                    .contains("Kafka Server started") && accepts()) {
                return;
            }
            Thread.sleep(200);
        }
        throw new IOException("broker not started within 300 s: " + tail());
    }

    private boolean accepts() {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Stops the broker (SIGTERM: a controlled shutdown) and waits for it.
     *
     * @throws Exception if interrupted
     */
    void stop() throws Exception {
        if (process == null) {
            return;
        }
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        process = null;
    }

    /** @return the last lines of the broker's log */
    String tail() {
        try {
            List<String> l = Files.readAllLines(log);
            return String.join("\n", l.subList(Math.max(0, l.size() - 20), l.size()));
        } catch (IOException e) {
            return e.toString();
        }
    }

    @Override
    public void close() throws Exception {
        stop();
    }
}
