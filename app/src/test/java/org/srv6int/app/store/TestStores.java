// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.store;

import org.onosproject.store.service.StorageService;

/**
 * The app's distributed stores over a test storage service, wired and activated as OSGi would,
 * for tests of other packages.
 */
public final class TestStores {

    private TestStores() {
    }

    /**
     * Returns an active telemetry summary store.
     *
     * @param storage storage service (shared by name for a cluster)
     * @return store
     */
    public static DistributedTelemetrySummaryStore summaries(StorageService storage) {
        DistributedTelemetrySummaryStore s = new DistributedTelemetrySummaryStore(storage);
        s.activate();
        return s;
    }

    /**
     * Returns an active loop state store.
     *
     * @param storage storage service (shared by name for a cluster)
     * @return store
     */
    public static DistributedLoopStateStore loopState(StorageService storage) {
        DistributedLoopStateStore s = new DistributedLoopStateStore(storage);
        s.activate();
        return s;
    }
}
