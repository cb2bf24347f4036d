// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.k8s;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The control plane of tools/k8s-testenv, run by its scripts (start, stop) with the twin's
 * own run directory and ports, so it never meets the one the bridge's CI step starts; or one
 * that is already running, attached to by its admin kubeconfig and left running.
 */
final class ControlPlane implements AutoCloseable {

    private static final String[] BINARIES = {"kube-apiserver", "kube-controller-manager", "kube-scheduler", "kwok"};
    private static final long START_TIMEOUT_S = 300;

    private final Path testenv;
    private final Map<String, String> env;
    private final Path adminKubeconfig;
    private final Path bridgeKubeconfig;
    private final boolean started;
    private boolean closed;

    private ControlPlane(Path testenv, Map<String, String> env, Path admin, Path bridge, boolean started) {
        this.testenv = testenv;
        this.env = env;
        this.adminKubeconfig = admin;
        this.bridgeKubeconfig = bridge;
        this.started = started;
    }

    /**
     * Attaches to a running control plane.
     *
     * @param adminKubeconfig a kubeconfig with cluster-admin rights (the testenv's admin.kubeconfig);
     *                        the bridge uses bridge.kubeconfig next to it when there is one, else this one
     */
    static ControlPlane attach(Path adminKubeconfig) throws RealKubernetes.StartException {
        if (!Files.isReadable(adminKubeconfig)) {
            throw new RealKubernetes.StartException("cannot read kubeconfig " + adminKubeconfig);
        }
        Path bridge = adminKubeconfig.toAbsolutePath().resolveSibling("bridge.kubeconfig");
        return new ControlPlane(null, Map.of(), adminKubeconfig, Files.isReadable(bridge) ? bridge : adminKubeconfig,
                                false);
    }

    /**
     * Starts tools/k8s-testenv with kwok's stages on the API server (SRV6INT_K8S_KWOK_STAGES=crd).
     *
     * @param repoRoot repository root
     * @param s        ports
     */
    static ControlPlane start(Path repoRoot, RealKubernetes.Settings s) throws RealKubernetes.StartException {
        Path testenv = repoRoot.resolve("tools/k8s-testenv");
        if (!Files.isExecutable(testenv.resolve("start"))) {
            throw new RealKubernetes.StartException("no tools/k8s-testenv/start under " + repoRoot);
        }
        // env.sh decides where the binaries and run directories live; ask it rather than repeat it.
        List<String> where = lines(run(testenv, Map.of(), 30, "bash", "-c",
                ". ./env.sh; echo \"$K8S_BIN\"; echo \"$K8S_CACHE\"; command -v etcd || echo"));
        Path bin = Path.of(where.get(0));
        List<String> missing = new ArrayList<>();
        for (String b : BINARIES) {
            if (!Files.isExecutable(bin.resolve(b))) {
                missing.add(b);
            }
        }
        if (!missing.isEmpty()) {
            throw new RealKubernetes.StartException("control plane binaries missing in " + bin + ": "
                    + String.join(", ", missing) + "; build them once with tools/k8s-testenv/build "
                    + "(about 10 minutes, needs Go >= 1.26 and the Go module proxy)");
        }
        if (where.size() < 3 || where.get(2).isBlank()) {
            throw new RealKubernetes.StartException("etcd not found on PATH (apt-get install etcd-server)");
        }
        Path run = Path.of(where.get(1)).resolve("twin-run");
        int api = s.apiServerPort();
        // The API server, controller-manager, scheduler and kwok use api .. api+3 (see start).
        int[] ports = {api, api + 1, api + 2, api + 3, s.etcdPort(), s.etcdPeerPort()};
        for (int p : ports) {
            if (busy(p)) {
                throw new RealKubernetes.StartException("port " + p + " on 127.0.0.1 is busy (another control "
                        + "plane?); attach to a running one with " + RealKubernetes.KUBECONFIG_ENV
                        + "=<its admin.kubeconfig>, or stop a twin's leftover with SRV6INT_K8S_RUN=" + run
                        + " tools/k8s-testenv/stop");
            }
        }
        Map<String, String> env = Map.of("SRV6INT_K8S_RUN", run.toString(),
                "SRV6INT_K8S_APISERVER_PORT", Integer.toString(api),
                "SRV6INT_K8S_ETCD_PORT", Integer.toString(s.etcdPort()),
                "SRV6INT_K8S_ETCD_PEER_PORT", Integer.toString(s.etcdPeerPort()),
                "SRV6INT_K8S_KWOK_STAGES", "crd");
        ControlPlane cp = new ControlPlane(testenv, env, run.resolve("admin.kubeconfig"),
                                           run.resolve("bridge.kubeconfig"), true);
        try {
            run(testenv, env, START_TIMEOUT_S, "./start");
        } catch (RealKubernetes.StartException e) {
            cp.close(); // whatever came up before the failure
            throw new RealKubernetes.StartException(e.getMessage() + " (logs in " + run.resolve("log") + ")");
        }
        return cp;
    }

    private static boolean busy(int port) {
        try (ServerSocket ss = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    private static List<String> lines(String s) {
        return List.of(s.split("\n", -1));
    }

    /** Runs a script in the testenv directory; returns its output, or throws with its tail. */
    private static String run(Path dir, Map<String, String> env, long timeoutS, String... cmd)
            throws RealKubernetes.StartException {
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().putAll(env);
        try {
            Process p = pb.start();
            p.getOutputStream().close();
            byte[] out;
            try (InputStream in = p.getInputStream()) {
                out = in.readAllBytes(); // the scripts' daemons do not keep the pipe (setsid, own log files)
            }
            if (!p.waitFor(timeoutS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new RealKubernetes.StartException(String.join(" ", cmd) + " did not finish in " + timeoutS
                        + " s");
            }
            String text = new String(out, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                String t = text.strip();
                throw new RealKubernetes.StartException(String.join(" ", cmd) + " failed (exit " + p.exitValue() + "): "
                        + t.substring(Math.max(0, t.length() - 600)));
            }
            return text;
        } catch (IOException e) {
            throw new RealKubernetes.StartException("cannot run " + String.join(" ", cmd) + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RealKubernetes.StartException("interrupted while running " + String.join(" ", cmd));
        }
    }

    /** The admin kubeconfig (set-up: RBAC, kwok Stage, clean-up). */
    Path adminKubeconfig() {
        return adminKubeconfig;
    }

    /** The kubeconfig the bridge runs with (its ServiceAccount's rights on the testenv). */
    Path bridgeKubeconfig() {
        return bridgeKubeconfig;
    }

    /** Whether this twin started the control plane (and so stops it on close). */
    boolean started() {
        return started;
    }

    /** Stops the control plane if this twin started it; an attached one is left running. */
    @Override
    public void close() {
        if (closed || !started) {
            return;
        }
        closed = true;
        try {
            run(testenv, env, 60, "./stop");
        } catch (RealKubernetes.StartException e) {
            System.err.println("twin: stopping the control plane: " + e.getMessage());
        }
    }
}
