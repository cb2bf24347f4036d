// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * {@code ClusterMember} JVMs, each with its own data directory, started, killed ({@code kill -9}:
 * {@link Process#destroyForcibly}) and restarted by a test, and talked to over their HTTP control
 * interfaces: on loopback ports ({@link #MemberProcesses(Path, int, String)}), or each in its own
 * network namespace at its own address ({@link #inNamespaces}).
 */
final class MemberProcesses implements AutoCloseable {

    /** The Atomix port of a member in a namespace of its own. */
    static final int RAFT_PORT = 5679;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> OPENS = List.of(
            "--add-opens", "java.base/java.lang=ALL-UNNAMED", "--add-opens", "java.base/java.util=ALL-UNNAMED",
            "--add-opens", "java.base/java.nio=ALL-UNNAMED", "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens", "java.base/java.lang.invoke=ALL-UNNAMED", "--add-opens", "java.base/java.net=ALL-UNNAMED",
            "--add-opens", "java.base/java.util.concurrent=ALL-UNNAMED",
            "--add-opens", "java.base/java.util.concurrent.atomic=ALL-UNNAMED",
            "--add-opens", "java.base/java.time=ALL-UNNAMED");

    private final Path dir;
    private final List<String> ids = new ArrayList<>();
    private final Map<String, Integer> raftPorts = new LinkedHashMap<>();
    private final Map<String, Integer> httpPorts = new LinkedHashMap<>();
    private final Map<String, String> hosts = new LinkedHashMap<>();
    private final Map<String, String> namespaces = new LinkedHashMap<>();
    private final Map<String, Process> running = new LinkedHashMap<>();
    private final String devices;
    // further command-line options per member (LoopFaultsTest: --netcfg, --int-port, --links)
    private final Map<String, List<String>> extraArgs = new LinkedHashMap<>();
    private final Map<String, String> env = new LinkedHashMap<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

    MemberProcesses(Path dir, int members, String devices) throws IOException {
        this.dir = dir;
        this.devices = devices;
        for (int i = 1; i <= members; i++) {
            String id = "m" + i;
            ids.add(id);
            hosts.put(id, "127.0.0.1");
            raftPorts.put(id, freePort());
            httpPorts.put(id, freePort());
        }
    }

    /**
     * Members each in a network namespace of its own (made by the caller), at the namespace's
     * address, started with {@code ip netns exec}.
     */
    static MemberProcesses inNamespaces(Path dir, List<String> netns, List<String> addresses, String devices)
            throws IOException {
        MemberProcesses p = new MemberProcesses(dir, netns.size(), devices);
        for (int i = 0; i < netns.size(); i++) {
            String id = p.ids.get(i);
            p.hosts.put(id, addresses.get(i));
            p.namespaces.put(id, netns.get(i));
            p.raftPorts.put(id, RAFT_PORT);
            p.httpPorts.put(id, 8181);
        }
        return p;
    }

    String host(String id) {
        return hosts.get(id);
    }

    String namespace(String id) {
        return namespaces.get(id);
    }

    /**
     * Loopback members' ports are picked from here, below the kernel's ephemeral range
     * ({@code net.ipv4.ip_local_port_range}, 32768-60999 by default) and clear of the control
     * planes' fixed ports (tools/k8s-testenv: 12379, 12380, 16443; helpers' blocks from 22379):
     * a port found free by binding 0 is an ephemeral one, which any outgoing connection of this
     * busy machine (the Kubernetes clients', the members' own) could take before the member bound
     * it, or while a killed member was down (session 16: a member failed with {@code BindException}).
     */
    static final int PORTS_FROM = 17_000;
    static final int PORTS_TO = 22_000;
    private static final Random PICK = new Random();

    private final Set<Integer> picked = new HashSet<>();
    // once a member has been started, every member's ports are in some member's --members: fixed
    private boolean launched;

    /** A port free for TCP and UDP on loopback, from {@link #PORTS_FROM} up, none picked twice. */
    int freePort() throws IOException {
        int to = Math.min(PORTS_TO, ephemeralLow());
        for (int attempt = 0; attempt < 200; attempt++) {
            int port = PORTS_FROM + PICK.nextInt(Math.max(1, to - PORTS_FROM));
            if (!picked.contains(port) && free(port)) {
                picked.add(port);
                return port;
            }
        }
        throw new IOException("no free port in " + PORTS_FROM + "-" + to + " after 200 picks");
    }

    private static int ephemeralLow() {
        try {
            // read by lines: Files.readString gave "3" of this procfs file (size 0) on JDK 17
            return Integer.parseInt(Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).get(0)
                                            .trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return 32_768; // the kernel's default
        }
    }

    /** Whether nothing holds the port on loopback, TCP (Atomix, HTTP) nor UDP (an INT collector). */
    static boolean free(int port) {
        try (ServerSocket t = new ServerSocket(port, 1, InetAddress.getLoopbackAddress());
             DatagramSocket u = new DatagramSocket(port, InetAddress.getLoopbackAddress())) {
            return t.getLocalPort() == port && u.getLocalPort() == port;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Before the first member starts: any loopback port picked at construction and taken since is
     * picked anew (the narrow window left is a JVM's start, and only to a process binding that very
     * port); called by {@link #start} and, for its test, directly.
     *
     * @return the ports picked anew
     */
    List<Integer> repickTakenPorts() throws IOException {
        List<Integer> taken = new ArrayList<>();
        if (launched || !namespaces.isEmpty()) {
            return taken;
        }
        for (Map<String, Integer> ports : List.of(raftPorts, httpPorts)) {
            for (Map.Entry<String, Integer> e : ports.entrySet()) {
                if (!free(e.getValue())) {
                    taken.add(e.getValue());
                    e.setValue(freePort());
                }
            }
        }
        return taken;
    }

    /** A member's Atomix port. */
    int raftPort(String id) {
        return raftPorts.get(id);
    }

    /** A member's HTTP control port. */
    int httpPort(String id) {
        return httpPorts.get(id);
    }

    List<String> ids() {
        return ids;
    }

    /** Further command-line options a member is started with from now on. */
    void args(String id, List<String> args) {
        extraArgs.put(id, List.copyOf(args));
    }

    /** An environment variable every member is started with from now on. */
    void env(String key, String value) {
        env.put(key, value);
    }

    /** A member's exit status once it has exited by itself; null while it runs or if never started. */
    Integer exitStatus(String id) {
        Process p = running.get(id);
        return p == null || p.isAlive() ? null : p.exitValue();
    }

    /** Starts a member (its data directory kept unless wiped first). */
    void start(String id) throws IOException {
        repickTakenPorts();
        launched = true;
        String members = ids.stream().map(m -> m + "@" + hosts.get(m) + ":" + raftPorts.get(m))
                .collect(Collectors.joining(","));
        List<String> cmd = new ArrayList<>();
        if (namespaces.containsKey(id)) {
            cmd.addAll(List.of("ip", "netns", "exec", namespaces.get(id)));
        }
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(OPENS);
        cmd.addAll(List.of("-Xmx192m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                           "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                           // each leader change a view learns, with its source (docs/cluster.md, c2)
                           "-Dorg.slf4j.simpleLogger.log.org.srv6int.cluster.atomix.ElectorView=info",
                           // when a map's session is suspended and how many reads its local copy served
                           "-Dorg.slf4j.simpleLogger.log.org.srv6int.cluster.atomix.AtomixConsistentMap=info",
                           // the loop's leadership changes and decisions (what a new leader resumed)
                           "-Dorg.slf4j.simpleLogger.log.org.srv6int.app.loop=info",
                           // each Raft session a member's replica expires, with its primitive (c2)
                           "-Dorg.slf4j.simpleLogger.log.io.atomix.protocols.raft.service.RaftServiceContext=debug",
                           "-Dorg.slf4j.simpleLogger.showDateTime=true",
                           "-cp", System.getProperty("java.class.path"),
                           "org.srv6int.cluster.member.ClusterMember", "--id", id, "--members", members,
                           "--data", dir.resolve(id).toString(), "--http", hosts.get(id) + ":" + httpPorts.get(id),
                           "--devices", devices));
        cmd.addAll(extraArgs.getOrDefault(id, List.of()));
        // a shorter session makes c2's expiries (LeaderHeartbeat) frequent enough to compare runs
        String sessionMs = System.getenv("SRV6INT_SESSION_TIMEOUT_MS");
        if (sessionMs != null) {
            cmd.addAll(List.of("--session-timeout-ms", sessionMs));
        }
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().putAll(env);
        Process p = pb
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve(id + ".out").toFile()))
                .redirectError(ProcessBuilder.Redirect.appendTo(dir.resolve(id + ".err").toFile()))
                .start();
        running.put(id, p);
    }

    /**
     * The member's threads ({@code jcmd <pid> Thread.print}): where a member that does not answer
     * is stuck (its HTTP control starts only once Atomix has joined).
     */
    String threadDump(String id) {
        Process p = running.get(id);
        if (p == null || !p.isAlive()) {
            return "(not running)";
        }
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        try {
            Process j = new ProcessBuilder(jcmd.toString(), String.valueOf(p.pid()), "Thread.print")
                    .redirectErrorStream(true).start();
            String out = new String(j.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            j.waitFor(30, TimeUnit.SECONDS);
            return out;
        } catch (IOException e) {
            return "(jcmd failed: " + e + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "(interrupted)";
        }
    }

    /** kill -9. */
    void kill(String id) throws InterruptedException {
        Process p = running.remove(id);
        if (p != null) {
            p.destroyForcibly();
            p.waitFor();
        }
    }

    /** Deletes a (stopped) member's data directory. */
    void wipe(String id) throws IOException {
        Path d = dir.resolve(id);
        if (Files.exists(d)) {
            try (Stream<Path> all = Files.walk(d)) {
                all.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
            }
        }
    }

    boolean alive(String id) {
        Process p = running.get(id);
        return p != null && p.isAlive();
    }

    /** GET or POST on a member; null if it does not answer (refused, timed out, not 200). */
    JsonNode call(String id, String method, String pathAndQuery) {
        return call(id, method, pathAndQuery, null);
    }

    /** As {@link #call(String, String, String)}, with a JSON body (null for none). */
    JsonNode call(String id, String method, String pathAndQuery, String body) {
        URI uri = URI.create("http://" + hosts.get(id) + ":" + httpPorts.get(id) + pathAndQuery);
        HttpRequest req = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(6))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body)).build();
        try {
            HttpResponse<String> r = http.send(req, HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? JSON.readTree(r.body()) : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    JsonNode status(String id) {
        return call(id, "GET", "/status");
    }

    /** Polls until the condition holds on the member's status; returns the status or null at timeout. */
    JsonNode awaitStatus(String id, Predicate<JsonNode> condition, Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end) {
            JsonNode s = status(id);
            if (s != null && condition.test(s)) {
                return s;
            }
            Thread.sleep(50);
        }
        return null;
    }

    String log(String id) {
        try {
            Path err = dir.resolve(id + ".err");
            return Files.exists(err) ? Files.readString(err) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The end of a member's log, at most {@code chars} characters (what a failure prints of it). */
    String logTail(String id, int chars) {
        String log = log(id);
        return log.substring(Math.max(0, log.length() - chars));
    }

    /**
     * Kills every member and deletes the directory the members kept their data and logs in (set
     * {@code SRV6INT_KEEP_MEMBER_DIRS} to keep it for a look after a failed run).
     */
    @Override
    public void close() throws InterruptedException {
        for (String id : new ArrayList<>(running.keySet())) {
            kill(id);
        }
        if (System.getenv("SRV6INT_KEEP_MEMBER_DIRS") == null && Files.exists(dir)) {
            try (Stream<Path> all = Files.walk(dir)) {
                all.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
