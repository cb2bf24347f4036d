// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.actuate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;

/**
 * NUMA pinning of a container: {@code cpuset.cpus} and {@code cpuset.mems}, in the unified
 * directory on cgroup v2 (present only where the parent enables the cpuset controller) or
 * under the cpuset controller's mount on v1.
 *
 * <p>v2 moves a cgroup's pages when its mems change; v1 does so only with
 * {@code cpuset.memory_migrate} set, so on v1 it is set to 1 before mems is written (the
 * same behaviour on both). v1 also refuses cpus or mems outside the parent's (EINVAL):
 * that, like a vanished cgroup, is an {@link IOException} for the caller to count.
 */
public final class CpusetActuator {

    private CpusetActuator() {
    }

    /**
     * Pins a container to cpus and memory nodes: cpus first, then mems.
     *
     * @param cg the container
     * @param cpus cpu list, not empty
     * @param mems memory node list, not empty
     * @throws IOException if there is no cpuset controller for it, or a write was refused
     */
    public static void pin(ContainerCgroup cg, String cpus, String mems) throws IOException {
        writeCpus(cg, cpus);
        writeMems(cg, mems);
    }

    /**
     * Writes {@code cpuset.cpus}.
     *
     * @param cg the container
     * @param cpus cpu list
     * @throws IOException if missing or refused
     */
    public static void writeCpus(ContainerCgroup cg, String cpus) throws IOException {
        HostFiles.write(present(cg, "cpus"), cpus);
    }

    /**
     * Writes {@code cpuset.mems}, after {@code cpuset.memory_migrate} on v1.
     *
     * @param cg the container
     * @param mems memory node list
     * @throws IOException if missing or refused
     */
    public static void writeMems(ContainerCgroup cg, String mems) throws IOException {
        Path f = present(cg, "mems");
        if (cg.version() == CgroupVersion.V1) {
            Path migrate = cg.cpusetDir().resolve("cpuset.memory_migrate");
            if (Files.exists(migrate) && !"1".equals(HostFiles.read(migrate))) {
                HostFiles.write(migrate, "1");
            }
        }
        HostFiles.write(f, mems);
    }

    /**
     * The cpus the container may run on now ({@code cpuset.cpus.effective} /
     * {@code cpuset.effective_cpus}).
     *
     * @param cg the container
     * @return cpu set
     * @throws IOException if unreadable or malformed
     */
    public static BitSet effectiveCpus(ContainerCgroup cg) throws IOException {
        return parse(present(cg, "cpus.effective"));
    }

    /**
     * The memory nodes configured ({@code cpuset.mems}; empty on v2 when never set).
     *
     * @param cg the container
     * @return node set
     * @throws IOException if unreadable or malformed
     */
    public static BitSet mems(ContainerCgroup cg) throws IOException {
        return parse(present(cg, "mems"));
    }

    private static BitSet parse(Path f) throws IOException {
        try {
            return CpuList.parse(HostFiles.read(f));
        } catch (IllegalArgumentException e) {
            throw new IOException(f + ": " + e.getMessage(), e);
        }
    }

    private static Path present(ContainerCgroup cg, String name) throws IOException {
        Path f = cg.cpusetFile(name);
        if (!Files.exists(f)) {
            throw new IOException(f + ": missing (" + (cg.version() == CgroupVersion.V2
                    ? "cpuset controller not enabled in the parent's cgroup.subtree_control"
                    : "no such cgroup under the cpuset mount") + ")");
        }
        return f;
    }
}
