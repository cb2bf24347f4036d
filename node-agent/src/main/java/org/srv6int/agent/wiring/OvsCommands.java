// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.wiring;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@code ovs-vsctl} and {@code ovs-ofctl} as child processes, each bounded
 * in time: OVS's own {@code --timeout} first, then the process is killed a
 * second later if it still runs. A missing program, a daemon that does not
 * answer and a refused command each give an {@link OvsException} whose message
 * names the command and carries OVS's stderr.
 */
public final class OvsCommands {

    private final String vsctl;
    private final String ofctl;
    private final Path runDir;
    private final Duration timeout;

    /**
     * Creates a runner.
     *
     * @param binDir directory of the OVS programs, or null to take them from PATH
     * @param runDir OVS run directory ({@code OVS_RUNDIR}: {@code db.sock} and
     *     {@code <bridge>.mgmt}), or null for OVS's default {@code /var/run/openvswitch}
     * @param timeout bound of one command (at least 1 s)
     */
    public OvsCommands(Path binDir, Path runDir, Duration timeout) {
        if (timeout.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException("OVS command timeout must be at least 1 s, got " + timeout);
        }
        this.vsctl = binDir == null ? "ovs-vsctl" : binDir.resolve("ovs-vsctl").toString();
        this.ofctl = binDir == null ? "ovs-ofctl" : binDir.resolve("ovs-ofctl").toString();
        this.runDir = runDir;
        this.timeout = timeout;
    }

    /**
     * Bound of one command.
     *
     * @return timeout
     */
    public Duration timeout() {
        return timeout;
    }

    /**
     * Runs {@code ovs-vsctl --timeout=T args...} (one OVSDB transaction; commands
     * separated by {@code --}).
     *
     * @param args arguments
     * @return stdout
     * @throws OvsException if it cannot run, times out or fails
     */
    public String vsctl(List<String> args) throws OvsException {
        List<String> cmd = new ArrayList<>();
        cmd.add(vsctl);
        cmd.add("--timeout=" + timeout.toSeconds());
        if (runDir != null) {
            cmd.add("--db=unix:" + runDir.resolve("db.sock"));
        }
        cmd.addAll(args);
        return run(cmd, null);
    }

    /**
     * Runs {@code ovs-ofctl --timeout=T args...}, optionally feeding stdin
     * (for {@code add-flows BRIDGE -}).
     *
     * @param args arguments
     * @param stdin text for standard input, or null
     * @return stdout
     * @throws OvsException if it cannot run, times out or fails
     */
    public String ofctl(List<String> args, String stdin) throws OvsException {
        List<String> cmd = new ArrayList<>();
        cmd.add(ofctl);
        cmd.add("--timeout=" + timeout.toSeconds());
        cmd.addAll(args);
        return run(cmd, stdin);
    }

    private String run(List<String> cmd, String stdin) throws OvsException {
        ProcessBuilder pb = new ProcessBuilder(cmd);
        if (runDir != null) {
            Map<String, String> env = pb.environment();
            env.put("OVS_RUNDIR", runDir.toString());
        }
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new OvsException("cannot run " + cmd.get(0) + " (is openvswitch-switch installed?): "
                    + e.getMessage(), e);
        }
        StreamReader out = new StreamReader(p.getInputStream());
        StreamReader err = new StreamReader(p.getErrorStream());
        out.start();
        err.start();
        try {
            try (OutputStream in = p.getOutputStream()) {
                if (stdin != null) {
                    in.write(stdin.getBytes(StandardCharsets.UTF_8));
                }
            } catch (IOException e) {
                // the process died before reading its input: its exit status and stderr say why
            }
            boolean done = p.waitFor(timeout.toMillis() + 1000, TimeUnit.MILLISECONDS);
            if (!done) {
                p.destroyForcibly();
                p.waitFor(1, TimeUnit.SECONDS);
                throw new OvsException(String.join(" ", cmd) + ": no answer within " + timeout.toSeconds()
                        + " s (is ovsdb-server/ovs-vswitchd running?)");
            }
            out.join(1000);
            err.join(1000);
            if (p.exitValue() != 0) {
                throw new OvsException(String.join(" ", cmd) + ": exit " + p.exitValue() + ": "
                        + err.text().strip());
            }
            return out.text();
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new OvsException(String.join(" ", cmd) + ": interrupted", e);
        }
    }

    /** Drains one output stream of the child so it never blocks on a full pipe. */
    private static final class StreamReader extends Thread {
        private final InputStream in;
        private final ByteArrayOutputStream buf = new ByteArrayOutputStream();

        StreamReader(InputStream in) {
            super("ovs-cmd-output");
            setDaemon(true);
            this.in = in;
        }

        @Override
        public void run() {
            byte[] b = new byte[8192];
            try {
                // CHECKSTYLE IGNORE InnerAssignment FOR NEXT 1 LINES
                for (int n; (n = in.read(b)) >= 0;) {
                    synchronized (buf) {
                        buf.write(b, 0, n);
                    }
                }
            } catch (IOException e) {
                // the child was killed; what was read is kept
            }
        }

        String text() {
            synchronized (buf) {
                return buf.toString(StandardCharsets.UTF_8);
            }
        }
    }
}
