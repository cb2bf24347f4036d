// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.wiring;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A private Open vSwitch in a directory of its own: {@code ovsdb-server} and
 * {@code ovs-vswitchd --disable-system} (userspace datapath, no kernel module)
 * with their database, sockets, pid and log files there, so a system OVS is
 * never touched. The userspace datapath makes a tap device {@code ovs-netdev}
 * and one per bridge, so two such switches cannot share a network namespace:
 * {@code ovs-vswitchd} runs in a namespace of its own (made here, or the
 * caller's when it already is one). Needs root (namespaces, taps, AF_PACKET).
 */
public final class OvsSandbox implements AutoCloseable {

    private static final String SCHEMA = "/usr/share/openvswitch/vswitch.ovsschema";

    private final Path dir;
    private final String netns;

    private OvsSandbox(Path dir, String netns) {
        this.dir = dir;
        this.netns = netns;
    }

    /**
     * Why a sandbox cannot run here, or null if it can.
     *
     * @return reason or null
     */
    public static String unavailable() {
        if (!"root".equals(System.getProperty("user.name"))) {
            return "not root (OVS needs tap devices and AF_PACKET)";
        }
        for (String p : List.of("/usr/sbin/ovsdb-server", "/usr/sbin/ovs-vswitchd", "/usr/bin/ovs-vsctl",
                "/usr/bin/ovs-ofctl", "/usr/bin/ovsdb-tool", SCHEMA)) {
            if (!Files.exists(Path.of(p))) {
                return p + " missing (apt-get install openvswitch-switch)";
            }
        }
        return null;
    }

    /**
     * Creates the database and starts both daemons.
     *
     * @param dir empty directory for the database, sockets and logs (short path: unix sockets)
     * @param netns network namespace to create for {@code ovs-vswitchd}, or null
     *     to run it in the caller's (which must then be a namespace of its own)
     * @return the running sandbox
     * @throws IOException if a daemon does not start
     */
    public static OvsSandbox start(Path dir, String netns) throws IOException {
        OvsSandbox s = new OvsSandbox(dir, netns);
        if (netns != null) {
            run(dir, "ip", "netns", "add", netns);
            run(dir, "ip", "-n", netns, "link", "set", "lo", "up");
        }
        run(dir, "ovsdb-tool", "create", dir.resolve("conf.db").toString(), SCHEMA);
        run(dir, "ovsdb-server", dir.resolve("conf.db").toString(),
                "--remote=punix:" + dir.resolve("db.sock"), "--pidfile=" + dir.resolve("ovsdb-server.pid"),
                "--unixctl=" + dir.resolve("ovsdb-server.ctl"), "--log-file=" + dir.resolve("ovsdb-server.log"),
                "--detach");
        run(dir, "ovs-vsctl", "--db=unix:" + dir.resolve("db.sock"), "--no-wait", "init");
        s.startSwitch();
        return s;
    }

    private void startSwitch() throws IOException {
        List<String> c = new ArrayList<>();
        if (netns != null) {
            c.addAll(List.of("ip", "netns", "exec", netns));
        }
        c.addAll(List.of("ovs-vswitchd", "unix:" + dir.resolve("db.sock"), "--disable-system",
                "--pidfile=" + dir.resolve("ovs-vswitchd.pid"), "--unixctl=" + dir.resolve("ovs-vswitchd.ctl"),
                "--log-file=" + dir.resolve("ovs-vswitchd.log"), "--detach"));
        run(dir, c.toArray(new String[0]));
    }

    /**
     * Runs {@code ip} in the switch's namespace ({@code ip -n NS ...}).
     *
     * @param args arguments of ip
     * @throws IOException if it fails
     */
    public void ip(String... args) throws IOException {
        List<String> c = new ArrayList<>(List.of("ip"));
        if (netns != null) {
            c.addAll(List.of("-n", netns));
        }
        c.addAll(List.of(args));
        run(dir, c.toArray(new String[0]));
    }

    /**
     * Stops {@code ovs-vswitchd} (its OpenFlow rules are lost, the database
     * stays) and starts it again, as a node's OVS restart does.
     *
     * @throws IOException if it does not come back
     */
    public void restartSwitch() throws IOException {
        stop("ovs-vswitchd");
        startSwitch();
    }

    /**
     * Waits until the datapath's cached flows follow the OpenFlow table
     * ({@code ovs-appctl revalidator/wait}): a rule change reaches packets
     * only after the revalidators ran, milliseconds later.
     *
     * @throws IOException if it fails
     */
    public void settle() throws IOException {
        run(dir, "ovs-appctl", "-t", dir.resolve("ovs-vswitchd.ctl").toString(), "revalidator/wait");
    }

    /**
     * Command runner bound to this sandbox.
     *
     * @return runner
     */
    public OvsCommands commands() {
        return new OvsCommands(null, dir, Duration.ofSeconds(5));
    }

    /**
     * The directory.
     *
     * @return dir
     */
    public Path dir() {
        return dir;
    }

    @Override
    public void close() {
        stop("ovs-vswitchd");
        stop("ovsdb-server");
        if (netns != null) {
            try {
                run(dir, "ip", "netns", "del", netns); // takes the taps and veths with it
            } catch (IOException e) {
                // reported in commands.log
            }
        }
    }

    /** Asks the daemon to exit, then kills it by its pid file if it is still there. */
    private void stop(String daemon) {
        Path pidFile = dir.resolve(daemon + ".pid");
        long pid;
        try {
            pid = Long.parseLong(Files.readString(pidFile, StandardCharsets.US_ASCII).strip());
        } catch (IOException | NumberFormatException e) {
            return;
        }
        try {
            run(dir, "ovs-appctl", "-t", dir.resolve(daemon + ".ctl").toString(), "exit");
        } catch (IOException e) {
            // killed below
        }
        ProcessHandle.of(pid).ifPresent(p -> {
            try {
                p.onExit().get(3, TimeUnit.SECONDS);
            } catch (Exception e) {
                p.destroyForcibly();
            }
        });
    }

    private static void run(Path dir, String... cmd) throws IOException {
        List<String> c = new ArrayList<>(List.of(cmd));
        ProcessBuilder pb = new ProcessBuilder(c).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("commands.log").toFile()));
        pb.environment().put("OVS_RUNDIR", dir.toString());
        pb.environment().put("OVS_LOGDIR", dir.toString());
        pb.environment().put("OVS_DBDIR", dir.toString());
        Process p = pb.start();
        try {
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", c) + ": no exit within 20 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        if (p.exitValue() != 0) {
            throw new IOException(String.join(" ", c) + ": exit " + p.exitValue() + " (see "
                    + dir.resolve("commands.log") + ")");
        }
    }
}
