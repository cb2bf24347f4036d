// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api;

import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.model.SfcId;
import org.onosproject.event.ListenerService;

import java.util.Collection;
import java.util.Optional;

/**
 * Chains: create, read, update, delete. Changes are cluster-wide and raise
 * {@link SfcEvent}s on every instance; the flow programming reacts to them.
 */
public interface SfcService extends ListenerService<SfcEvent, SfcListener> {

    /**
     * Returns all chains.
     *
     * @return chains, in no particular order
     */
    Collection<Sfc> getSfcs();

    /**
     * Returns a chain.
     *
     * @param id chain id
     * @return the chain, or empty
     */
    Optional<Sfc> getSfc(SfcId id);

    /**
     * Adds a chain.
     *
     * @param sfc chain
     * @throws SfcException (CONFLICT) if a chain with that id exists
     * @throws IllegalArgumentException if the chain refers to an unknown
     *         device or a device without SRv6 config
     */
    void addSfc(Sfc sfc);

    /**
     * Replaces a chain with a new version of the same id.
     *
     * @param sfc chain
     * @throws SfcException (NOT_FOUND) if no chain has that id
     */
    void updateSfc(Sfc sfc);

    /**
     * Removes a chain; its replicas and every flow entry of it go too.
     *
     * @param id chain id
     * @return the removed chain
     * @throws SfcException (NOT_FOUND) if no chain has that id
     */
    Sfc removeSfc(SfcId id);
}
