// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.store;

import java.util.Map;

/**
 * The cluster's latest telemetry summary of each ONOS instance (encoded by the collector; the
 * store only keeps bytes). Each instance writes only its own entry.
 */
public interface TelemetrySummaryStore {

    /**
     * Replaces an instance's summary.
     *
     * @param node    ONOS node id
     * @param summary encoded summary
     * @throws org.onosproject.store.service.StorageException if the write fails or times out
     */
    void publish(String node, byte[] summary);

    /**
     * Returns every instance's latest summary.
     *
     * @return summaries by node id
     * @throws org.onosproject.store.service.StorageException if the read fails or times out
     */
    Map<String, byte[]> summaries();

    /**
     * Removes an instance's summary (it stops collecting).
     *
     * @param node ONOS node id
     */
    void withdraw(String node);
}
