// SPDX-License-Identifier: Apache-2.0
package org.srv6int.testkit;

import org.onosproject.store.service.ConsistentMap;
import org.onosproject.store.service.Versioned;

import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * A {@link ConsistentMap} whose {@code compute}, {@code computeIfAbsent} and {@code computeIfPresent}
 * are its {@code computeIf}, as ONOS's own maps define them: one place for both of our maps (the
 * in-memory one and the one over Atomix).
 *
 * @param <K> key type
 * @param <V> value type
 */
public abstract class ComputeIfConsistentMap<K, V> implements ConsistentMap<K, V> {

    @Override
    public final Versioned<V> computeIfAbsent(K key, Function<? super K, ? extends V> mappingFunction) {
        return computeIf(key, Objects::isNull, (k, v) -> mappingFunction.apply(k));
    }

    @Override
    public final Versioned<V> computeIfPresent(K key,
                                               BiFunction<? super K, ? super V, ? extends V> remappingFunction) {
        return computeIf(key, Objects::nonNull, remappingFunction);
    }

    @Override
    public final Versioned<V> compute(K key, BiFunction<? super K, ? super V, ? extends V> remappingFunction) {
        return computeIf(key, v -> true, remappingFunction);
    }
}
