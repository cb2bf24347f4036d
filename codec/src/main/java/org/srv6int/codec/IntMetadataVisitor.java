// SPDX-License-Identifier: Apache-2.0
package org.srv6int.codec;

/**
 * Receives the INT metadata entries of a packet or report in hop order (hop 0
 * is the ingress), as primitives so that visiting allocates nothing. A field
 * whose MapInfo bit is clear is passed as read (0 by the spec) and must be
 * ignored by the visitor; the view's {@code mapInfo()} says which are valid.
 */
@FunctionalInterface
public interface IntMetadataVisitor {

    /**
     * Called once per INT metadata entry.
     *
     * @param hop         0 for the ingress, then one per endpoint in path order
     * @param deviceId    Device_ID
     * @param queueId     Q_ID
     * @param queueLength Q_Length, packets
     * @param inTime      In_Time, ns mod 2^32 (unsigned)
     * @param vnfLatency  vNF_Latency, ns (unsigned 32 bits)
     * @param portCounter Port_Counter
     */
    void onEntry(int hop, int deviceId, int queueId, int queueLength,
                 long inTime, long vnfLatency, int portCounter);
}
