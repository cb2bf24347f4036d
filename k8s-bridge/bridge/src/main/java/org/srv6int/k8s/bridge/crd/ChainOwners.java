// SPDX-License-Identifier: Apache-2.0
package org.srv6int.k8s.bridge.crd;

import io.fabric8.kubernetes.api.model.OwnerReference;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Where the replica manager learns, when it creates a replica's StatefulSet, which
 * ServiceFunctionChain owns the replica's chain: the {@link ChainController} running in this JVM
 * registers its namespace's lookup while it runs. The reference is set at creation, so the bridge
 * needs no right to change StatefulSets (its RBAC has create/delete only); a replica created while
 * no controller runs has no owner and goes with the bridge's own sweep after its chain's removal.
 * Only chains the app holds for an object are answered: a REST chain whose id an object also
 * names (refused by the controller) gets no owner, so deleting that object never collects it.
 */
public final class ChainOwners {

    private static final Map<String, Function<String, Optional<OwnerReference>>> BY_NAMESPACE =
            new ConcurrentHashMap<>();

    private ChainOwners() {
    }

    static void register(String namespace, Function<String, Optional<OwnerReference>> lookup) {
        BY_NAMESPACE.put(namespace, lookup);
    }

    static void unregister(String namespace, Function<String, Optional<OwnerReference>> lookup) {
        BY_NAMESPACE.remove(namespace, lookup);
    }

    /**
     * Returns the ownerReference a new replica StatefulSet of a chain gets.
     *
     * @param namespace the StatefulSet's namespace
     * @param chainId   the chain id (the SRH Tag, as in the chain label)
     * @return reference to the object that declares the chain, or empty (no controller runs here
     *         for that namespace, or no object declares the chain)
     */
    public static Optional<OwnerReference> lookup(String namespace, String chainId) {
        Function<String, Optional<OwnerReference>> f = BY_NAMESPACE.get(namespace);
        return f == null ? Optional.empty() : f.apply(chainId);
    }
}
