// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.store;

import org.onosproject.store.Store;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.SfcEvent;
import org.srv6int.app.api.model.SfcId;

import java.util.Collection;
import java.util.Optional;

/**
 * Cluster-wide store of chains.
 */
public interface SfcStore extends Store<SfcEvent, SfcStoreDelegate> {

    /**
     * Returns all chains.
     *
     * @return chains
     */
    Collection<Sfc> getSfcs();

    /**
     * Returns a chain.
     *
     * @param id chain id
     * @return chain or empty
     */
    Optional<Sfc> getSfc(SfcId id);

    /**
     * Adds a chain unless its id is taken (atomic across the cluster).
     *
     * @param sfc chain
     * @return true if added
     */
    boolean createSfc(Sfc sfc);

    /**
     * Replaces an existing chain.
     *
     * @param sfc chain
     * @return true if a chain with that id existed and was replaced
     */
    boolean updateSfc(Sfc sfc);

    /**
     * Removes a chain.
     *
     * @param id chain id
     * @return the removed chain, or empty
     */
    Optional<Sfc> removeSfc(SfcId id);
}
