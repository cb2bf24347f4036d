// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.bmv2;

import io.grpc.netty.shaded.io.netty.channel.epoll.Epoll;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.pcap4j.core.PcapHandle;
import org.pcap4j.core.PcapNativeException;
import org.pcap4j.core.PcapNetworkInterface;
import org.pcap4j.core.Pcaps;
import p4.config.v1.P4InfoOuterClass.P4Info;

/**
 * The processes and wires of a BMv2 fabric: one network namespace, one {@code simple_switch_grpc}
 * per switch in it, a veth pair per cable (both ends in the namespace) and a veth pair per edge
 * port whose host end stays in the JVM's namespace, opened with libpcap for injecting and capturing
 * frames. Interface names: {@code s<k>p<port>} in the namespace, {@code bm<tag>s<k>p<port>} on the
 * host. IPv6 is off on every interface so the kernels send nothing into the switches.
 */
final class Bmv2Fabric implements AutoCloseable {

    /** BMv2 CPU port (P4Runtime packet I/O), as the pipeconf and the data-plane tests use it. */
    static final int CPU_PORT = 255;

    private final Bmv2Topology topology;
    private final Path binary;
    private final String tag;
    private final String netns;
    private final Path dir;
    private final Map<DeviceId, Process> processes = new LinkedHashMap<>();
    private final Map<DeviceId, P4RuntimeClient> clients = new LinkedHashMap<>();
    private final Map<ConnectPoint, PcapHandle> edges = new LinkedHashMap<>();
    private boolean netnsCreated;

    private Bmv2Fabric(Bmv2Topology topology, Path binary) throws IOException {
        this.topology = topology;
        this.binary = binary;
        String t;
        do {
            t = Long.toString(ThreadLocalRandom.current().nextLong(36L * 36 * 36 * 36), 36);
        } while (Files.exists(Paths.get("/run/netns/srv6int-bmv2-" + t)));
        this.tag = t;
        this.netns = "srv6int-bmv2-" + t;
        this.dir = Files.createTempDirectory("srv6int-bmv2-" + t + "-");
    }

    /**
     * Starts the fabric: namespace, wires, switches, each primary-controlled with the pipeline loaded.
     *
     * @param topology switches and ports
     * @param binary   simple_switch_grpc
     * @param p4info   P4Info to push
     * @param bmv2Json BMv2 JSON to push
     * @return running fabric
     * @throws IllegalStateException if a step fails (everything started so far is torn down)
     */
    static Bmv2Fabric start(Bmv2Topology topology, Path binary, P4Info p4info, byte[] bmv2Json) {
        Bmv2Fabric f;
        try {
            f = new Bmv2Fabric(topology, binary);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            f.wire();
            f.launch();
            for (DeviceId d : topology.switches()) {
                P4RuntimeClient c = f.clients.get(d);
                c.becomePrimary(30_000);
                c.setPipeline(p4info, bmv2Json);
            }
            f.openEdges();
            return f;
        } catch (RuntimeException | IOException e) {
            String logs = f.logTails();
            f.close();
            throw new IllegalStateException("BMv2 fabric did not start: " + e.getMessage() + logs, e);
        }
    }

    /** @return the network namespace */
    String netns() {
        return netns;
    }

    /** @return the switch logs' directory */
    Path dir() {
        return dir;
    }

    /**
     * @param d switch
     * @return its P4Runtime client
     */
    P4RuntimeClient client(DeviceId d) {
        P4RuntimeClient c = clients.get(d);
        if (c == null) {
            throw new IllegalArgumentException("switch " + d + " is not in the BMv2 fabric");
        }
        return c;
    }

    /** @return pcap handles of the edge ports' host ends */
    Map<ConnectPoint, PcapHandle> edges() {
        return edges;
    }

    private String switchIf(ConnectPoint p) {
        return "s" + topology.number(p.deviceId()) + "p" + p.port().toLong();
    }

    private String hostIf(ConnectPoint p) {
        return "bm" + tag + "s" + topology.number(p.deviceId()) + "p" + p.port().toLong();
    }

    private void wire() throws IOException {
        run("ip", "netns", "add", netns);
        netnsCreated = true;
        // interfaces made in or moved into the namespace inherit "default": no IPv6 chatter into the switches
        run("ip", "netns", "exec", netns, "sysctl", "-q", "-w", "net.ipv6.conf.all.disable_ipv6=1",
            "net.ipv6.conf.default.disable_ipv6=1");
        run("ip", "-n", netns, "link", "set", "lo", "up");
        for (ConnectPoint[] l : topology.links()) {
            run("ip", "-n", netns, "link", "add", switchIf(l[0]), "type", "veth", "peer", "name", switchIf(l[1]));
            run("ip", "-n", netns, "link", "set", switchIf(l[0]), "up");
            run("ip", "-n", netns, "link", "set", switchIf(l[1]), "up");
        }
        for (ConnectPoint e : topology.edges()) {
            String host = hostIf(e);
            run("ip", "link", "add", host, "type", "veth", "peer", "name", switchIf(e), "netns", netns);
            // before the link goes up, so not even a router solicitation leaves the host end
            Files.writeString(Paths.get("/proc/sys/net/ipv6/conf", host, "disable_ipv6"), "1");
            run("ip", "link", "set", host, "up");
            run("ip", "-n", netns, "link", "set", switchIf(e), "up");
        }
    }

    private void launch() throws IOException {
        for (DeviceId d : topology.switches()) {
            int k = topology.number(d);
            List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", netns, binary.toString(),
                                                       "--device-id", Integer.toString(k)));
            for (PortNumber p : topology.ports(d)) {
                cmd.add("-i");
                cmd.add(p.toLong() + "@" + switchIf(new ConnectPoint(d, p)));
            }
            cmd.addAll(List.of("--no-p4", "--", "--grpc-server-addr=unix:" + socket(k),
                               "--cpu-port=" + CPU_PORT));
            File log = dir.resolve("sw" + k + ".log").toFile();
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log)).start();
            processes.put(d, p);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        for (DeviceId d : topology.switches()) {
            int k = topology.number(d);
            // the socket appears once the P4Runtime server listens; connect then, not on gRPC's back-off
            while (!Files.exists(socket(k))) {
                if (!processes.get(d).isAlive()) {
                    throw new IllegalStateException("simple_switch_grpc for " + d + " exited with "
                            + processes.get(d).exitValue());
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("simple_switch_grpc for " + d + " did not open " + socket(k)
                            + " within 30 s");
                }
                sleepMs(20);
            }
            clients.put(d, new P4RuntimeClient(d + " (BMv2 device " + k + ")", socket(k), k));
        }
    }

    private Path socket(int k) {
        return dir.resolve("sw" + k + ".grpc");
    }

    private void openEdges() {
        for (ConnectPoint e : topology.edges()) {
            try {
                PcapHandle h = new PcapHandle.Builder(hostIf(e)).snaplen(65536)
                        .promiscuousMode(PcapNetworkInterface.PromiscuousMode.PROMISCUOUS)
                        .timeoutMillis(1).immediateMode(true).direction(PcapHandle.PcapDirection.IN).build();
                h.setBlockingMode(PcapHandle.BlockingMode.NONBLOCKING);
                edges.put(e, h);
            } catch (PcapNativeException | org.pcap4j.core.NotOpenException x) {
                throw new IllegalStateException("cannot open " + hostIf(e) + " with libpcap: " + x.getMessage(), x);
            }
        }
    }

    /** The last lines of every switch log, for a start-up failure message. */
    private String logTails() {
        StringBuilder sb = new StringBuilder();
        for (DeviceId d : topology.switches()) {
            Path log = dir.resolve("sw" + topology.number(d) + ".log");
            try {
                if (Files.exists(log)) {
                    List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
                    List<String> tail = lines.subList(Math.max(0, lines.size() - 5), lines.size());
                    if (!tail.isEmpty()) {
                        sb.append("\n  ").append(d).append(" log: ").append(String.join(" | ", tail));
                    }
                }
            } catch (IOException e) {
                sb.append("\n  ").append(d).append(" log unreadable: ").append(e.getMessage());
            }
        }
        return sb.toString();
    }

    /** Stops the switches, deletes the namespace (and with it every veth) and the temporary directory. */
    @Override
    public synchronized void close() {
        edges.values().forEach(PcapHandle::close);
        edges.clear();
        clients.values().forEach(P4RuntimeClient::close);
        clients.clear();
        for (Process p : processes.values()) {
            p.destroy();
        }
        for (Process p : processes.values()) {
            try {
                if (!p.waitFor(5, TimeUnit.SECONDS)) {
                    p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
        processes.clear();
        if (netnsCreated) {
            try {
                run("ip", "netns", "del", netns);
            } catch (IOException | RuntimeException e) {
                System.err.println("bmv2: could not delete network namespace " + netns + ": " + e.getMessage());
            }
            netnsCreated = false;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a leftover log directory under the temp dir is harmless
        }
    }

    /**
     * Why a BMv2 fabric cannot run here, or null if it can.
     *
     * @param binary simple_switch_grpc found, or null
     * @return reason or null
     */
    static String unavailableReason(Path binary) {
        if (binary == null) {
            return "simple_switch_grpc not found (set SRV6INT_BMV2 to it or its directory, or put it on PATH; "
                    + "BMv2 is in no package registry: build it from source, docs/architecture.md, section P4 "
                            + "program and pipeconf)";
        }
        if (!isRoot()) {
            return "creating a network namespace and veth pairs needs root";
        }
        if (findOnPath("ip") == null) {
            return "iproute2 (ip) is not installed";
        }
        if (!Epoll.isAvailable()) {
            return "gRPC over a Unix socket needs netty's epoll transport: " + Epoll.unavailabilityCause();
        }
        try {
            Pcaps.libVersion();
        } catch (Throwable t) {
            return "libpcap is not usable: " + t;
        }
        return null;
    }

    /**
     * Finds simple_switch_grpc: $SRV6INT_BMV2 (the binary or its directory), then PATH, then /opt/p4/bin.
     *
     * @return path or null
     */
    static Path findBinary() {
        String env = System.getenv("SRV6INT_BMV2");
        if (env != null && !env.isBlank()) {
            Path p = Paths.get(env);
            if (Files.isDirectory(p)) {
                p = p.resolve("simple_switch_grpc");
            }
            return Files.isExecutable(p) ? p : null;
        }
        Path p = findOnPath("simple_switch_grpc");
        if (p != null) {
            return p;
        }
        Path opt = Paths.get("/opt/p4/bin/simple_switch_grpc");
        return Files.isExecutable(opt) ? opt : null;
    }

    private static Path findOnPath(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return null;
        }
        for (String d : path.split(File.pathSeparator)) {
            Path p = Paths.get(d.isEmpty() ? "." : d, name);
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }

    private static boolean isRoot() {
        try {
            for (String l : Files.readAllLines(Paths.get("/proc/self/status"))) {
                if (l.startsWith("Uid:")) {
                    return "0".equals(l.split("\\s+")[2]); // real, effective, saved, fs: the effective one
                }
            }
        } catch (IOException e) {
            return false;
        }
        return false;
    }

    private static void run(String... cmd) throws IOException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        try {
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(String.join(" ", cmd) + ": no answer within 30 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(String.join(" ", cmd) + ": interrupted", e);
        }
        if (p.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", cmd) + " failed (" + p.exitValue() + "): " + out);
        }
    }

    private static void sleepMs(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "BMv2 fabric %s (%d switches, logs in %s)", netns,
                             topology.switches().size(), dir);
    }
}
