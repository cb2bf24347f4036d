// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.actuate;

import org.srv6int.agent.loop.ResourceActuator;
import org.srv6int.agent.loop.ResourceType;

import java.io.IOException;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;

/**
 * CPU frequency through {@code /sys/devices/system/cpu/cpu<N>/cpufreq/scaling_max_freq}
 * (kHz) of each of the vNF's cores. One write per core: a crash between two
 * leaves some cores one step apart, each within cpuinfo_min_freq and
 * cpuinfo_max_freq; the allocation read back is the highest of them and the
 * start-up re-applies it to every core.
 */
public final class CpuFrequencyActuator implements ResourceActuator {

    /** Where per-cpu directories live on the host. */
    public static final String CPU_ROOT = "/sys/devices/system/cpu";

    private final HostFiles host;
    private final List<BitSet> cpus;

    /**
     * Creates the actuator.
     *
     * @param host host files
     * @param cpus cores of each vNF
     */
    public CpuFrequencyActuator(HostFiles host, List<BitSet> cpus) {
        this.host = host;
        this.cpus = List.copyOf(cpus);
    }

    /**
     * A cpufreq file of a core.
     *
     * @param host host files
     * @param cpu core number
     * @param name file name, e.g. scaling_max_freq
     * @return the path
     */
    public static Path file(HostFiles host, int cpu, String name) {
        return host.path(CPU_ROOT + "/cpu" + cpu + "/cpufreq/" + name);
    }

    /**
     * Highest cpuinfo_min_freq/scaling_min_freq over a vNF's cores: its floor.
     *
     * @param vnf index
     * @return kHz
     * @throws IOException if unreadable
     */
    public long hardwareFloor(int vnf) throws IOException {
        long floor = 0;
        BitSet set = cpus.get(vnf);
        for (int c = set.nextSetBit(0); c >= 0; c = set.nextSetBit(c + 1)) {
            floor = Math.max(floor, HostFiles.readLong(file(host, c, "cpuinfo_min_freq")));
            floor = Math.max(floor, HostFiles.readLong(file(host, c, "scaling_min_freq")));
        }
        return floor;
    }

    /**
     * Lowest cpuinfo_max_freq over a vNF's cores: its ceiling.
     *
     * @param vnf index
     * @return kHz
     * @throws IOException if unreadable
     */
    public long hardwareCeiling(int vnf) throws IOException {
        long ceiling = Long.MAX_VALUE;
        BitSet set = cpus.get(vnf);
        for (int c = set.nextSetBit(0); c >= 0; c = set.nextSetBit(c + 1)) {
            ceiling = Math.min(ceiling, HostFiles.readLong(file(host, c, "cpuinfo_max_freq")));
        }
        return ceiling;
    }

    @Override
    public ResourceType type() {
        return ResourceType.CPU_FREQUENCY;
    }

    @Override
    public long read(int vnf) throws IOException {
        long max = 0;
        BitSet set = cpus.get(vnf);
        for (int c = set.nextSetBit(0); c >= 0; c = set.nextSetBit(c + 1)) {
            max = Math.max(max, HostFiles.readLong(file(host, c, "scaling_max_freq")));
        }
        return max;
    }

    @Override
    public void write(int vnf, long khz, long[] allocations) throws IOException {
        BitSet set = cpus.get(vnf);
        for (int c = set.nextSetBit(0); c >= 0; c = set.nextSetBit(c + 1)) {
            HostFiles.write(file(host, c, "scaling_max_freq"), Long.toString(khz));
        }
    }
}
