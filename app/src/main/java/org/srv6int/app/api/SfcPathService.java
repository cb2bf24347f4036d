// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api;

import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.SfcPaths;
import java.util.Map;
import java.util.Optional;

/**
 * The segment lists computed for each chain from its replicas and the
 * topology (what the flow programming installs).
 */
public interface SfcPathService {

    /**
     * Returns the current paths of a chain.
     *
     * @param sfcId chain id
     * @return paths, or empty if the chain is unknown or not yet computed
     */
    Optional<SfcPaths> getPaths(SfcId sfcId);

    /**
     * Returns the current paths of every chain.
     *
     * @return paths by chain id
     */
    Map<SfcId, SfcPaths> getAllPaths();
}
