// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api;

import org.srv6int.app.api.model.SfcId;

import java.util.Optional;

/**
 * Which chains are declared by a Kubernetes ServiceFunctionChain object (docs/crd.md). Such a
 * chain is changed only through its object: REST and CLI edits of it are refused with 409 naming
 * the object; chains made through REST or the CLI have no owner and the controller never touches
 * them. Implemented by org.srv6int.app.crd.
 */
public interface ChainOwnershipService {

    /**
     * Returns the object that declares a chain.
     *
     * @param id chain id
     * @return {@code namespace/name} of its ServiceFunctionChain, or empty for a REST/CLI chain
     */
    Optional<String> owner(SfcId id);

    /**
     * Refuses a REST/CLI change of a chain declared by an object.
     *
     * @param id chain id
     * @throws SfcException CONFLICT naming the object if the chain has one
     */
    default void checkChangeable(SfcId id) {
        Optional<String> o = owner(id);
        if (o.isPresent()) {
            String[] nsName = o.get().split("/", 2);
            throw new SfcException(SfcException.Reason.CONFLICT, "chain " + id + " is declared by ServiceFunctionChain "
                    + o.get() + ": change it through that object (kubectl edit sfc -n " + nsName[0] + " "
                    + nsName[nsName.length - 1] + ") or delete the object");
        }
    }
}
