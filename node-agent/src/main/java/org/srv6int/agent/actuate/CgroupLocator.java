package org.srv6int.agent.actuate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Finds a container's cgroup v2 directory from its pod UID and container id,
 * for the kubelet's systemd cgroup driver
 * ({@code kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod<uid_>.slice/cri-containerd-<id>.scope})
 * and its cgroupfs driver ({@code kubepods/burstable/pod<uid>/<id>}), in
 * every QoS class (guaranteed pods sit directly under kubepods).
 */
public final class CgroupLocator {

    /** Where cgroup v2 is mounted on the host. */
    public static final String CGROUP_ROOT = "/sys/fs/cgroup";

    private static final String[] QOS = {"", "burstable", "besteffort"};
    private static final String[] RUNTIME_PREFIXES = {"cri-containerd-", "crio-", "docker-"};
    private static final String[] ID_SCHEMES = {"containerd://", "cri-o://", "docker://"};

    private final HostFiles host;

    /**
     * Creates a locator.
     *
     * @param host host files
     */
    public CgroupLocator(HostFiles host) {
        this.host = host;
    }

    /**
     * Strips a runtime scheme ("containerd://") from a container id as the
     * Kubernetes API reports it.
     *
     * @param containerId id, with or without scheme
     * @return the bare id
     */
    public static String bareId(String containerId) {
        for (String s : ID_SCHEMES) {
            if (containerId.startsWith(s)) {
                return containerId.substring(s.length());
            }
        }
        return containerId;
    }

    /**
     * Candidate paths, relative to the cgroup root, in the order tried.
     *
     * @param podUid pod UID with dashes
     * @param containerId container id, with or without scheme
     * @return candidates
     */
    public static List<String> candidates(String podUid, String containerId) {
        String uid = podUid.toLowerCase(Locale.ROOT);
        String uidUnderscore = uid.replace('-', '_');
        String id = bareId(containerId);
        List<String> out = new ArrayList<>();
        for (String qos : QOS) {
            String slice = qos.isEmpty() ? "kubepods.slice/kubepods-pod" + uidUnderscore + ".slice"
                    : "kubepods.slice/kubepods-" + qos + ".slice/kubepods-" + qos + "-pod" + uidUnderscore
                    + ".slice";
            for (String prefix : RUNTIME_PREFIXES) {
                out.add(slice + "/" + prefix + id + ".scope");
            }
        }
        for (String qos : QOS) {
            out.add("kubepods/" + (qos.isEmpty() ? "" : qos + "/") + "pod" + uid + "/" + id);
        }
        return out;
    }

    /**
     * Finds the container's cgroup directory.
     *
     * @param podUid pod UID
     * @param containerId container id
     * @return the directory under the host root
     * @throws IOException if no candidate exists
     */
    public Path locate(String podUid, String containerId) throws IOException {
        Path base = host.path(CGROUP_ROOT);
        for (String c : candidates(podUid, containerId)) {
            Path p = base.resolve(c);
            if (Files.isDirectory(p)) {
                return p;
            }
        }
        throw new IOException("no cgroup for pod " + podUid + " container " + bareId(containerId)
                + " under " + base + " (tried systemd and cgroupfs layouts)");
    }
}
