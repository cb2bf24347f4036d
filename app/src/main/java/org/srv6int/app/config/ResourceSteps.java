package org.srv6int.app.config;

import com.google.common.base.MoreObjects;

import java.util.Objects;

/**
 * Step sizes in which the local loop (Algorithms 1-3) moves each resource
 * type between co-located vNFs.
 */
public final class ResourceSteps {

    /** Default steps: 10 % CPU quota, 1 LLC way, 10 % memory bandwidth, 100 MHz. */
    public static final ResourceSteps DEFAULT = new ResourceSteps(10, 1, 10, 100);

    private final int cpuQuotaPercent;
    private final int llcWays;
    private final int memBandwidthPercent;
    private final int cpuFreqMhz;

    /**
     * Creates resource steps.
     *
     * @param cpuQuotaPercent     CPU quota step, percent of one core
     * @param llcWays             LLC step, cache ways
     * @param memBandwidthPercent memory bandwidth step, percent (MBA)
     * @param cpuFreqMhz          CPU frequency step, MHz
     */
    public ResourceSteps(int cpuQuotaPercent, int llcWays, int memBandwidthPercent, int cpuFreqMhz) {
        this.cpuQuotaPercent = cpuQuotaPercent;
        this.llcWays = llcWays;
        this.memBandwidthPercent = memBandwidthPercent;
        this.cpuFreqMhz = cpuFreqMhz;
    }

    /**
     * Returns the CPU quota step.
     *
     * @return percent of one core
     */
    public int cpuQuotaPercent() {
        return cpuQuotaPercent;
    }

    /**
     * Returns the LLC step.
     *
     * @return ways
     */
    public int llcWays() {
        return llcWays;
    }

    /**
     * Returns the memory bandwidth step.
     *
     * @return percent
     */
    public int memBandwidthPercent() {
        return memBandwidthPercent;
    }

    /**
     * Returns the CPU frequency step.
     *
     * @return MHz
     */
    public int cpuFreqMhz() {
        return cpuFreqMhz;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof ResourceSteps)) {
            return false;
        }
        ResourceSteps that = (ResourceSteps) o;
        return cpuQuotaPercent == that.cpuQuotaPercent && llcWays == that.llcWays
                && memBandwidthPercent == that.memBandwidthPercent && cpuFreqMhz == that.cpuFreqMhz;
    }

    @Override
    public int hashCode() {
        return Objects.hash(cpuQuotaPercent, llcWays, memBandwidthPercent, cpuFreqMhz);
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper(this).add("cpuQuotaPercent", cpuQuotaPercent).add("llcWays", llcWays)
                .add("memBandwidthPercent", memBandwidthPercent).add("cpuFreqMhz", cpuFreqMhz).toString();
    }
}
