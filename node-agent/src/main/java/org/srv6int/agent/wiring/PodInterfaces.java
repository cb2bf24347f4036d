// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.wiring;

import org.srv6int.agent.actuate.HostFiles;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Finds the host side of a pod's network interface from what the kernel shows, whatever
 * CNI made it: a process of the pod's container (from its cgroup's {@code cgroup.procs})
 * sees, through {@code /proc/<pid>/root/sys/class/net/<pod interface>}, the sysfs the
 * runtime mounted in the pod's network namespace; the interface's {@code iflink} is the
 * ifindex of its veth peer in the host's namespace, and the host interface with that
 * {@code ifindex} whose own {@code iflink} points back at the pod's interface is the one.
 * Works for every CNI that gives the pod a veth with its peer on the host (bridge, ptp,
 * Calico, Cilium in veth mode, ovs-cni; a Multus secondary network by its pod-side name,
 * e.g. {@code net1}); not for interfaces moved into the pod (SR-IOV VFs, macvlan, ipvlan),
 * which have no host side to wire.
 *
 * <p>Needs the host's PIDs and /proc (the DaemonSet's {@code hostPID} and /proc mount)
 * and {@code CAP_SYS_PTRACE} (reading another process's root); reads only.
 */
public final class PodInterfaces {

    private static final Pattern PID = Pattern.compile("[0-9]{1,10}");
    private static final Pattern IFNAME = Pattern.compile("[A-Za-z0-9_.-]{1,15}");

    private final HostFiles host;
    private final String podInterface;

    /**
     * Creates a finder.
     *
     * @param host host files ({@code /proc} and {@code /sys/class/net} under its root)
     * @param podInterface the replica's interface name inside the pod ({@code eth0}, or a
     *     secondary network's name)
     */
    public PodInterfaces(HostFiles host, String podInterface) {
        if (podInterface == null || !IFNAME.matcher(podInterface).matches()) {
            throw new IllegalArgumentException("pod interface is not an interface name: " + podInterface);
        }
        this.host = host;
        this.podInterface = podInterface;
    }

    /**
     * The pod-side interface name looked for.
     *
     * @return name
     */
    public String podInterface() {
        return podInterface;
    }

    /**
     * The host-side interface of the pod whose container has this cgroup.
     *
     * @param cgroupDir the container's cgroup directory (under the host root)
     * @return host interface name
     * @throws IOException if the cgroup has no process yet, the pod has no such interface,
     *     it is not a veth, or its peer is not in the host's namespace (message says which)
     */
    public String hostSide(Path cgroupDir) throws IOException {
        List<String> pids = new ArrayList<>();
        for (String line : HostFiles.read(cgroupDir.resolve("cgroup.procs")).split("\\s+")) {
            if (PID.matcher(line).matches() && !"0".equals(line)) {
                pids.add(line);
            }
        }
        if (pids.isEmpty()) {
            throw new IOException(cgroupDir + "/cgroup.procs: no process (container not started yet, "
                    + "or PIDs of another PID namespace: the agent needs hostPID)");
        }
        IOException last = null;
        for (String pid : pids) { // the first one whose view can be read (a process may just have exited)
            Path net = host.path("/proc/" + pid + "/root/sys/class/net/" + podInterface);
            long ifindex;
            long peer;
            try {
                ifindex = HostFiles.readLong(net.resolve("ifindex"));
                peer = HostFiles.readLong(net.resolve("iflink"));
            } catch (IOException e) {
                last = new IOException("pod interface " + podInterface + " not readable through process " + pid
                        + " (" + e.getMessage() + ")", e);
                continue;
            }
            if (peer == ifindex) {
                throw new IOException("pod interface " + podInterface + " is not a veth (no peer on the host)");
            }
            return hostInterface(peer, ifindex);
        }
        throw last;
    }

    /** The host interface with this ifindex whose peer is the pod's interface. */
    private String hostInterface(long ifindex, long podIfindex) throws IOException {
        Path dir = host.path("/sys/class/net");
        try (DirectoryStream<Path> ls = Files.newDirectoryStream(dir)) {
            for (Path p : ls) {
                try {
                    if (HostFiles.readLong(p.resolve("ifindex")) == ifindex
                            && HostFiles.readLong(p.resolve("iflink")) == podIfindex) {
                        return p.getFileName().toString();
                    }
                } catch (IOException e) {
                    // an interface that went away while listing
                }
            }
        }
        throw new IOException("no interface with ifindex " + ifindex + " peered with the pod's " + podInterface
                + " in the host's network namespace (" + dir + "): its peer is not on the host");
    }
}
