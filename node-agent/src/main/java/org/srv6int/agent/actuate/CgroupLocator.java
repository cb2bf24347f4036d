// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.actuate;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Finds a container's cgroup from its pod UID and container id, on cgroup v2 (the
 * unified mount) or v1 (the same relative path under the cpu and the cpuset
 * controllers' mounts; {@link CgroupHierarchy}), for the kubelet's systemd cgroup driver
 * ({@code kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod<uid_>.slice/cri-containerd-<id>.scope})
 * and its cgroupfs driver ({@code kubepods/burstable/pod<uid>/<id>}), in
 * every QoS class (guaranteed pods sit directly under kubepods).
 */
public final class CgroupLocator {

    /** Where the cgroup mounts are on the host. */
    public static final String CGROUP_ROOT = CgroupHierarchy.CGROUP_ROOT;

    private static final String[] QOS = {"", "burstable", "besteffort"};
    private static final String[] RUNTIME_PREFIXES = {"cri-containerd-", "crio-", "docker-"};
    private static final String[] ID_SCHEMES = {"containerd://", "cri-o://", "docker://"};

    private final CgroupHierarchy hierarchy;

    /**
     * Creates a locator on the hierarchy the host mounts ({@link CgroupHierarchy#detect}).
     *
     * @param host host files
     */
    public CgroupLocator(HostFiles host) {
        this(CgroupHierarchy.detect(host, null));
    }

    /**
     * Creates a locator on a hierarchy chosen before.
     *
     * @param hierarchy the node's cgroup hierarchy
     */
    public CgroupLocator(CgroupHierarchy hierarchy) {
        this.hierarchy = hierarchy;
    }

    /**
     * The hierarchy it looks in.
     *
     * @return hierarchy
     */
    public CgroupHierarchy hierarchy() {
        return hierarchy;
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
     * Finds the container's cgroup: the first candidate whose directory exists (on v1,
     * under the cpu controller's mount; the cpuset controller's directory of the same path
     * is taken with it when it exists).
     *
     * @param podUid pod UID
     * @param containerId container id
     * @return the cgroup, directories under the host root
     * @throws IOException if no candidate exists
     */
    public ContainerCgroup locate(String podUid, String containerId) throws IOException {
        for (String c : candidates(podUid, containerId)) {
            ContainerCgroup cg = hierarchy.at(c);
            if (cg != null) {
                return cg;
            }
        }
        throw new IOException("no cgroup for pod " + podUid + " container " + bareId(containerId)
                + " under " + hierarchy.cpuRoot() + " (" + (hierarchy.version() == CgroupVersion.V1
                ? "cgroup v1 cpu controller; " : "") + "tried systemd and cgroupfs layouts)");
    }
}
