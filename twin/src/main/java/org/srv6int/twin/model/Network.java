// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.model;

/**
 * Links and switch queues of the testbed: 40 Gbit/s between switches, 10 Gbit/s to servers,
 * each a FIFO whose wait is M/D/1 at its utilisation (docs/twin.md section 4).
 */
public final class Network {
    /** Inter-switch link rate. */
    public static final double CORE_BPS = 40e9;
    /** Switch-server link rate. */
    public static final double SERVER_BPS = 10e9;
    /** One pass through a switch pipeline, microseconds. */
    public static final double PIPELINE_US = 1.0;
    /** Propagation on a short cable, microseconds. */
    public static final double PROPAGATION_US = 0.5;

    private Network() {
    }

    /** Latency of one link traversal: propagation + serialisation + M/D/1 wait, microseconds. */
    public static double linkUs(int sizeBytes, double rateBps, double loadBps) {
        double ser = sizeBytes * 8.0 / rateBps * 1e6;
        double rho = Math.min(0.95, loadBps / rateBps);
        return PROPAGATION_US + ser + rho / (2 * (1 - rho)) * ser;
    }

    /** Mean queue depth of a link in packets (reported as INT Q_Length). */
    public static long queuePackets(double loadBps, double rateBps) {
        double rho = Math.min(0.95, loadBps / rateBps);
        return Math.round(rho * rho / (2 * (1 - rho)));
    }
}
