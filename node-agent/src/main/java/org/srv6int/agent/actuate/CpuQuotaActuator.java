// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.actuate;

import org.srv6int.agent.loop.ResourceActuator;
import org.srv6int.agent.loop.ResourceType;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

/**
 * CPU quota of each vNF's container cgroup; allocations are millicores.
 *
 * <ul>
 * <li>cgroup v2: {@code cpu.max} ("$MAX $PERIOD", e.g. {@code 150000 100000} for 1.5
 *     CPUs, or {@code max 100000}). One write sets quota and period together, so every
 *     state a crash can leave is a valid quota.</li>
 * <li>cgroup v1: {@code cpu.cfs_quota_us} ({@code -1}: no limit) and
 *     {@code cpu.cfs_period_us}. The period is written only when it differs from the
 *     configured one (the kubelet's is the same 100 ms), so a change is one write of the
 *     quota; when both must change, the write that leaves the smaller quota/period ratio
 *     in between goes first (v1 refuses a child's ratio above its parent's, EINVAL, and
 *     the state between the two writes is then never more than either end).</li>
 * </ul>
 *
 * <p>Errors (a vanished cgroup, a refused value) are {@link IOException}s the loop counts.
 */
public final class CpuQuotaActuator implements ResourceActuator {

    /** The kernel's default period, µs. */
    public static final long DEFAULT_PERIOD_US = 100_000;
    /** The kernel's smallest quota, µs. */
    public static final long MIN_QUOTA_US = 1_000;

    private final List<ContainerCgroup> cgroups;
    private final long periodUs;

    /**
     * Creates the actuator.
     *
     * @param cgroups container cgroup per vNF
     * @param periodUs period to write, µs
     */
    public CpuQuotaActuator(List<ContainerCgroup> cgroups, long periodUs) {
        this.cgroups = List.copyOf(cgroups);
        this.periodUs = periodUs;
    }

    @Override
    public ResourceType type() {
        return ResourceType.CPU_QUOTA;
    }

    /**
     * Reads the quota; "max" (v2) or -1 (v1), no limit, is reported as
     * {@link Long#MAX_VALUE} so the pool clamps it to the vNF's ceiling.
     */
    @Override
    public long read(int vnf) throws IOException {
        ContainerCgroup cg = cgroups.get(vnf);
        return cg.version() == CgroupVersion.V2 ? readV2(cg.quotaFile()) : readV1(cg);
    }

    private static long readV2(Path f) throws IOException {
        String[] parts = HostFiles.read(f).split("\\s+");
        if (parts.length != 2) {
            throw new IOException(f + ": expected '$MAX $PERIOD'");
        }
        try {
            long period = Long.parseLong(parts[1]);
            if (period <= 0) {
                throw new IOException(f + ": bad period " + period);
            }
            if ("max".equals(parts[0])) {
                return Long.MAX_VALUE;
            }
            return Long.parseLong(parts[0]) * 1000 / period;
        } catch (NumberFormatException e) {
            throw new IOException(f + ": malformed cpu.max", e);
        }
    }

    private static long readV1(ContainerCgroup cg) throws IOException {
        long quota = readLong(cg.quotaFile());
        long period = readLong(cg.periodFile());
        if (period <= 0) {
            throw new IOException(cg.periodFile() + ": bad period " + period);
        }
        if (quota < 0) {
            return Long.MAX_VALUE;
        }
        return quota * 1000 / period;
    }

    @Override
    public void write(int vnf, long millicores, long[] allocations) throws IOException {
        long quota = Math.max(MIN_QUOTA_US, millicores * periodUs / 1000);
        ContainerCgroup cg = cgroups.get(vnf);
        if (cg.version() == CgroupVersion.V2) {
            HostFiles.write(cg.quotaFile(), quota + " " + periodUs);
            return;
        }
        long oldPeriod = readLong(cg.periodFile());
        if (oldPeriod == periodUs) {
            write(cg.quotaFile(), quota);
            return;
        }
        long oldQuota = readLong(cg.quotaFile());
        // between the two writes: (new quota, old period) or (old quota, new period); the smaller first
        boolean quotaFirst = oldQuota < 0 || (double) quota / oldPeriod <= (double) oldQuota / periodUs;
        if (quotaFirst) {
            write(cg.quotaFile(), quota);
            write(cg.periodFile(), periodUs);
        } else {
            write(cg.periodFile(), periodUs);
            write(cg.quotaFile(), quota);
        }
    }

    /**
     * {@code nr_periods} and {@code nr_throttled} of the vNF's {@code cpu.stat} (the same keys on v1 and v2).
     */
    @Override
    public long[] throttling(int vnf) throws IOException {
        Path f = cgroups.get(vnf).cpuStatFile();
        long periods = -1;
        long throttled = -1;
        for (String line : HostFiles.read(f).split("\n")) {
            String[] kv = line.trim().split("\\s+");
            if (kv.length != 2) {
                continue;
            }
            try {
                if ("nr_periods".equals(kv[0])) {
                    periods = Long.parseLong(kv[1]);
                } else if ("nr_throttled".equals(kv[0])) {
                    throttled = Long.parseLong(kv[1]);
                }
            } catch (NumberFormatException e) {
                throw new IOException(f + ": malformed " + kv[0], e);
            }
        }
        if (periods < 0 || throttled < 0) {
            throw new IOException(f + ": no nr_periods/nr_throttled");
        }
        return new long[] {periods, throttled};
    }

    /** A v1 number; a vanished cgroup says so as a failed write does. */
    private static long readLong(Path file) throws IOException {
        try {
            return HostFiles.readLong(file);
        } catch (NoSuchFileException e) {
            throw new IOException(file + ": no such kernel file", e);
        }
    }

    private static void write(Path file, long value) throws IOException {
        try {
            HostFiles.write(file, Long.toString(value));
        } catch (IOException e) {
            if (String.valueOf(e.getMessage()).contains("Invalid argument")) {
                throw new IOException(file + ": " + value + " refused (cgroup v1 refuses a quota/period above the "
                        + "parent's, e.g. the pod's CPU limit): " + e.getMessage(), e);
            }
            throw e;
        }
    }
}
