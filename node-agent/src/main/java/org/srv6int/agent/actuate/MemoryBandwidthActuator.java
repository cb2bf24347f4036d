// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.actuate;

import org.srv6int.agent.loop.ResourceActuator;
import org.srv6int.agent.loop.ResourceType;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Memory bandwidth through the resctrl {@code MB} line of each vNF's group
 * ({@code MB:<d>=<percent>} for every memory domain, Intel MBA semantics:
 * percent of the domain's bandwidth, a multiple of {@code info/MB/bandwidth_gran},
 * at least {@code info/MB/min_bandwidth}, at most 100). One line per write,
 * so a crash leaves every group with a valid throttle.
 */
public final class MemoryBandwidthActuator implements ResourceActuator {

    /** Largest MB value with Intel MBA semantics. */
    public static final long MAX_PERCENT = 100;

    private final List<Path> groups;
    private final long granularity;
    private final long minBandwidth;

    /**
     * Creates the actuator; reads info/MB.
     *
     * @param resctrl the resctrl mount
     * @param groups group directory per vNF
     * @throws IOException if info/MB is unreadable
     */
    public MemoryBandwidthActuator(Resctrl resctrl, List<Path> groups) throws IOException {
        this.groups = List.copyOf(groups);
        this.granularity = Math.max(1, HostFiles.readLong(resctrl.info("MB/bandwidth_gran")));
        this.minBandwidth = HostFiles.readLong(resctrl.info("MB/min_bandwidth"));
    }

    /**
     * bandwidth_gran.
     *
     * @return percent step the hardware offers
     */
    public long granularity() {
        return granularity;
    }

    /**
     * min_bandwidth.
     *
     * @return least percent
     */
    public long minBandwidth() {
        return minBandwidth;
    }

    @Override
    public ResourceType type() {
        return ResourceType.MEMORY_BANDWIDTH;
    }

    @Override
    public long read(int vnf) throws IOException {
        Path f = groups.get(vnf).resolve("schemata");
        Map<Integer, String> line = Resctrl.readLine(f, "MB");
        try {
            return Long.parseLong(line.values().iterator().next());
        } catch (NumberFormatException e) {
            throw new IOException(f + ": bad MB value", e);
        }
    }

    @Override
    public void write(int vnf, long percent, long[] allocations) throws IOException {
        Path f = groups.get(vnf).resolve("schemata");
        Resctrl.writeLine(f, "MB", Long.toString(percent));
    }
}
