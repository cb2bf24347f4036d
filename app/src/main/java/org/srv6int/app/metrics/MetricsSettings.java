// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.metrics;

import java.util.List;
import java.util.Objects;

/**
 * The exporter's settings (netcfg {@code apps/org.srv6int.app/metrics}): caps on series per level
 * and the optional plain port.
 */
public final class MetricsSettings {

    /** Default cap on chains with series of their own. */
    public static final int DEFAULT_MAX_CHAINS = 256;
    /** Default cap on vNFs (chain, position) with series of their own. */
    public static final int DEFAULT_MAX_VNFS = 1024;
    /** Default cap on replicas with series of their own. */
    public static final int DEFAULT_MAX_REPLICAS = 4096;
    /** Parts of the app's state a scrape reads (labels of the read-error counter). */
    static final List<String> PARTS = List.of("chains", "inventory", "telemetry", "loop", "export");

    /** Defaults: default caps, no plain port. */
    public static final MetricsSettings DEFAULT =
            new MetricsSettings(DEFAULT_MAX_CHAINS, DEFAULT_MAX_VNFS, DEFAULT_MAX_REPLICAS, null, 0);

    private final int maxChainSeries;
    private final int maxVnfSeries;
    private final int maxReplicaSeries;
    private final String address;
    private final int port;

    /**
     * Creates settings.
     *
     * @param maxChainSeries   cap on chains
     * @param maxVnfSeries     cap on vNFs
     * @param maxReplicaSeries cap on replicas
     * @param address          address of the plain port, null for none
     * @param port             plain port (0 with address: any free port)
     */
    public MetricsSettings(int maxChainSeries, int maxVnfSeries, int maxReplicaSeries, String address, int port) {
        this.maxChainSeries = maxChainSeries;
        this.maxVnfSeries = maxVnfSeries;
        this.maxReplicaSeries = maxReplicaSeries;
        this.address = address;
        this.port = port;
    }

    /** @return cap on chains */
    public int maxChainSeries() {
        return maxChainSeries;
    }

    /** @return cap on vNFs */
    public int maxVnfSeries() {
        return maxVnfSeries;
    }

    /** @return cap on replicas */
    public int maxReplicaSeries() {
        return maxReplicaSeries;
    }

    /** @return address of the plain port, null if none */
    public String address() {
        return address;
    }

    /** @return plain port */
    public int port() {
        return port;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof MetricsSettings)) {
            return false;
        }
        MetricsSettings s = (MetricsSettings) o;
        return maxChainSeries == s.maxChainSeries && maxVnfSeries == s.maxVnfSeries
                && maxReplicaSeries == s.maxReplicaSeries && Objects.equals(address, s.address) && port == s.port;
    }

    @Override
    public int hashCode() {
        return Objects.hash(maxChainSeries, maxVnfSeries, maxReplicaSeries, address, port);
    }

    @Override
    public String toString() {
        return "maxChainSeries=" + maxChainSeries + " maxVnfSeries=" + maxVnfSeries + " maxReplicaSeries="
                + maxReplicaSeries + " plain=" + (address == null ? "off" : address + ":" + port);
    }
}
