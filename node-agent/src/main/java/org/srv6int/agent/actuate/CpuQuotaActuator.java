package org.srv6int.agent.actuate;

import org.srv6int.agent.loop.ResourceActuator;
import org.srv6int.agent.loop.ResourceType;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * CPU quota through cgroup v2 {@code cpu.max} ("$MAX $PERIOD", e.g.
 * {@code 150000 100000} for 1.5 CPUs, or {@code max 100000}) of each vNF's
 * container cgroup. Allocations are millicores. One write sets quota and
 * period together, so every state a crash can leave is a valid quota.
 */
public final class CpuQuotaActuator implements ResourceActuator {

    /** The kernel's default period, µs. */
    public static final long DEFAULT_PERIOD_US = 100_000;
    /** The kernel's smallest quota, µs. */
    public static final long MIN_QUOTA_US = 1_000;

    private final List<Path> cgroups;
    private final long periodUs;

    /**
     * Creates the actuator.
     *
     * @param cgroups container cgroup directory per vNF
     * @param periodUs period to write, µs
     */
    public CpuQuotaActuator(List<Path> cgroups, long periodUs) {
        this.cgroups = List.copyOf(cgroups);
        this.periodUs = periodUs;
    }

    @Override
    public ResourceType type() {
        return ResourceType.CPU_QUOTA;
    }

    /**
     * Reads cpu.max; "max" (no limit) is reported as {@link Long#MAX_VALUE}
     * so the pool clamps it to the vNF's ceiling.
     */
    @Override
    public long read(int vnf) throws IOException {
        Path f = cgroups.get(vnf).resolve("cpu.max");
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

    @Override
    public void write(int vnf, long millicores, long[] allocations) throws IOException {
        long quota = Math.max(MIN_QUOTA_US, millicores * periodUs / 1000);
        HostFiles.write(cgroups.get(vnf).resolve("cpu.max"), quota + " " + periodUs);
    }
}
