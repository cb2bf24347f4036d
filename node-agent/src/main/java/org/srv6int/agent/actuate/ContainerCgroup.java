// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.actuate;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A container's cgroup as the agent uses it, on either hierarchy: on v2 one directory
 * holds every controller's files; on v1 the cpu controller's directory (quota, and the
 * container's processes) and the cpuset controller's directory (pinning) are separate
 * trees with the same relative path. File names that differ between the two are mapped
 * here, so the actuators ask for a role, not a file name:
 *
 * <table>
 * <caption>files by hierarchy</caption>
 * <tr><th>role</th><th>v2</th><th>v1</th></tr>
 * <tr><td>CPU quota</td><td>{@code cpu.max}</td><td>{@code cpu.cfs_quota_us} + {@code cpu.cfs_period_us}</td></tr>
 * <tr><td>cpus, mems</td><td>{@code cpuset.cpus}, {@code cpuset.mems}</td><td>same names, cpuset mount</td></tr>
 * <tr><td>effective cpus</td><td>{@code cpuset.cpus.effective}</td><td>{@code cpuset.effective_cpus}</td></tr>
 * <tr><td>processes</td><td>{@code cgroup.procs}</td><td>{@code cgroup.procs} (cpu mount)</td></tr>
 * <tr><td>threads</td><td>{@code cgroup.threads}</td><td>{@code tasks} (cpu mount)</td></tr>
 * </table>
 */
public final class ContainerCgroup {

    private final CgroupVersion version;
    private final Path dir;
    private final Path cpuset;

    private ContainerCgroup(CgroupVersion version, Path dir, Path cpuset) {
        this.version = Objects.requireNonNull(version);
        this.dir = Objects.requireNonNull(dir);
        this.cpuset = cpuset;
    }

    /**
     * A cgroup v2 directory.
     *
     * @param dir the container's directory in the unified hierarchy
     * @return the cgroup
     */
    public static ContainerCgroup v2(Path dir) {
        return new ContainerCgroup(CgroupVersion.V2, dir, dir);
    }

    /**
     * A cgroup v1 container.
     *
     * @param cpuDir its directory under the cpu controller's mount
     * @param cpusetDir its directory under the cpuset controller's mount; null if that
     *                  controller is not mounted or has no such directory
     * @return the cgroup
     */
    public static ContainerCgroup v1(Path cpuDir, Path cpusetDir) {
        return new ContainerCgroup(CgroupVersion.V1, cpuDir, cpusetDir);
    }

    /**
     * The hierarchy.
     *
     * @return v1 or v2
     */
    public CgroupVersion version() {
        return version;
    }

    /**
     * The directory that stands for the container: the unified one (v2), the cpu
     * controller's (v1). It holds {@code cgroup.procs} on both.
     *
     * @return directory
     */
    public Path dir() {
        return dir;
    }

    /**
     * The cpuset controller's directory (the unified one on v2; its files exist there only
     * where the parent enables the controller).
     *
     * @return directory, null on v1 without a cpuset mount
     */
    public Path cpusetDir() {
        return cpuset;
    }

    /**
     * The file whose presence says the CPU quota can be set: {@code cpu.max} (v2),
     * {@code cpu.cfs_quota_us} (v1).
     *
     * @return file
     */
    public Path quotaFile() {
        return dir.resolve(version == CgroupVersion.V2 ? "cpu.max" : "cpu.cfs_quota_us");
    }

    /**
     * The CPU controller's statistics, the same name on both hierarchies ({@code nr_periods},
     * {@code nr_throttled} on both; {@code throttled_time} ns on v1, {@code throttled_usec} on v2).
     *
     * @return {@code cpu.stat}
     */
    public Path cpuStatFile() {
        return dir.resolve("cpu.stat");
    }

    /**
     * The v1 period file.
     *
     * @return {@code cpu.cfs_period_us}
     */
    public Path periodFile() {
        return dir.resolve("cpu.cfs_period_us");
    }

    /**
     * The processes of the container, one PID a line.
     *
     * @return {@code cgroup.procs}
     */
    public Path procsFile() {
        return dir.resolve("cgroup.procs");
    }

    /**
     * The threads of the container, one TID a line.
     *
     * @return {@code cgroup.threads} (v2), {@code tasks} (v1)
     */
    public Path threadsFile() {
        return dir.resolve(version == CgroupVersion.V2 ? "cgroup.threads" : "tasks");
    }

    /**
     * A cpuset file by its v2 name without the prefix: {@code cpus}, {@code mems},
     * {@code cpus.effective}, {@code mems.effective}; v1 names the effective ones
     * {@code cpuset.effective_cpus} and {@code cpuset.effective_mems}.
     *
     * @param name v2 name without "cpuset."
     * @return the file
     * @throws IOException if there is no cpuset controller for this container (v1 without a cpuset mount)
     */
    public Path cpusetFile(String name) throws IOException {
        if (cpuset == null) {
            throw new IOException(dir + ": no cpuset controller (cgroup v1 cpuset not mounted, or no directory "
                    + "for the container under it)");
        }
        String file = name;
        if (version == CgroupVersion.V1 && name.endsWith(".effective")) {
            file = "effective_" + name.substring(0, name.length() - ".effective".length());
        }
        return cpuset.resolve("cpuset." + file);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof ContainerCgroup)) {
            return false;
        }
        ContainerCgroup c = (ContainerCgroup) o;
        return version == c.version && dir.equals(c.dir) && Objects.equals(cpuset, c.cpuset);
    }

    @Override
    public int hashCode() {
        return Objects.hash(version, dir, cpuset);
    }

    @Override
    public String toString() {
        return version == CgroupVersion.V2 || cpuset == null ? dir.toString() : dir + " (cpuset " + cpuset + ")";
    }
}
