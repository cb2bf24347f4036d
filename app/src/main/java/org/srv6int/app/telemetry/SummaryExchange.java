// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.telemetry;

import java.util.List;

/**
 * How a window reaches the rest of the cluster: each instance publishes a summary of its own
 * window (per vNF and chain: rate, latency histogram, sample counts, replica packets; per switch:
 * queue depth; the instance's report loss) and adds the other instances' latest summaries to
 * the window it hands to the loop. Summaries, not samples: the size is bounded by chains, vNFs
 * and switches, not by the report rate (docs/cluster.md).
 */
public interface SummaryExchange {

    /**
     * Returns this instance's ONOS node id.
     *
     * @return node id
     */
    String localNode();

    /**
     * Returns the wall clock an age is measured on.
     *
     * @return ms since the epoch
     */
    long nowMillis();

    /**
     * Returns the age past which a summary is stale (its instance stopped publishing) and left
     * out of the window.
     *
     * @return ms
     */
    long staleAfterMillis();

    /**
     * Publishes this instance's summary and returns the latest summary of every instance (its
     * own included or not).
     *
     * @param local this instance's summary
     * @return encoded summaries
     * @throws RuntimeException if the store cannot be reached (the window then holds this
     *                          instance's reports only, and says so)
     */
    List<byte[]> exchange(byte[] local);
}
