// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cluster.member;

import org.onosproject.store.service.AsyncConsistentMap;
import org.onosproject.store.service.ConsistentMap;
import org.onosproject.store.service.ConsistentMapBuilder;
import org.onosproject.store.service.StorageService;
import org.srv6int.testkit.InMemoryStorageService;

import java.io.IOException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A test-only fault point of the member, in the manner of etcd's failpoints: configured once at
 * start by the environment variable {@value #ENV} ({@code halt-after-sid-claim:<arm file>}), it
 * halts the JVM ({@link Runtime#halt}, no shutdown hooks: as {@code kill -9}) right after this
 * member claimed a replica's SID (a successful {@code putIfAbsent} on the SID claims map,
 * {@value #SIDS_MAP}) and before the replica's record is stored. It fires once, on the member that
 * deletes the arm file first (the test creates it when the fault is wanted; a member started
 * again, or the next leader's claim for the same replica, finds no arm file and goes on).
 * Unset (production), the storage is handed through untouched.
 */
final class FaultPoint {

    /** The variable that configures the fault point. */
    static final String ENV = "SRV6INT_FAULTPOINT";
    /** The only point offered: after a SID claim, before the replica's store. */
    static final String HALT_AFTER_SID_CLAIM = "halt-after-sid-claim";
    /** The exit status of a halt here (tells a fired fault point from a crash). */
    static final int HALT_STATUS = 86;
    // DistributedVnfReplicaStore's SID claims (the app's name for them)
    static final String SIDS_MAP = "srv6int-replica-sids";

    private FaultPoint() {
    }

    /**
     * The storage the app gets: the given one, or, with the fault point configured, one whose SID
     * claims map halts after a claim while the arm file exists.
     *
     * @param storage the member's storage
     * @return storage for the app
     */
    static StorageService apply(StorageService storage) {
        String spec = System.getenv(ENV);
        if (spec == null || spec.isBlank()) {
            return storage;
        }
        if (!spec.startsWith(HALT_AFTER_SID_CLAIM + ":") || spec.length() == HALT_AFTER_SID_CLAIM.length() + 1) {
            throw new IllegalArgumentException(ENV + ": expected " + HALT_AFTER_SID_CLAIM + ":<arm file>, got "
                                                       + spec);
        }
        Path arm = Path.of(spec.substring(HALT_AFTER_SID_CLAIM.length() + 1));
        System.err.println("FAULTPOINT configured: " + HALT_AFTER_SID_CLAIM + " while " + arm + " exists");
        return new InMemoryStorageService() {
            @Override
            public <K, V> ConsistentMapBuilder<K, V> consistentMapBuilder() {
                return new ConsistentMapBuilder<>() {
                    @Override
                    public ConsistentMap<K, V> build() {
                        ConsistentMapBuilder<K, V> b = storage.<K, V>consistentMapBuilder().withName(name());
                        if (serializer() != null) {
                            b.withSerializer(serializer());
                        }
                        ConsistentMap<K, V> map = b.build();
                        return SIDS_MAP.equals(name()) ? haltingAfterClaim(map, arm) : map;
                    }

                    @Override
                    public AsyncConsistentMap<K, V> buildAsyncMap() {
                        return storage.<K, V>consistentMapBuilder().withName(name()).buildAsyncMap();
                    }
                };
            }
        };
    }

    @SuppressWarnings("unchecked")
    private static <K, V> ConsistentMap<K, V> haltingAfterClaim(ConsistentMap<K, V> map, Path arm) {
        InvocationHandler h = (proxy, method, args) -> {
            Object out;
            try {
                out = method.invoke(map, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
            // putIfAbsent answers null when this call claimed the key
            if (method.getName().equals("putIfAbsent") && out == null && disarm(arm)) {
                System.err.println("FAULTPOINT " + HALT_AFTER_SID_CLAIM + ": claimed " + args[0] + " for " + args[1]
                                           + "; halting before the replica's store");
                System.err.flush();
                Runtime.getRuntime().halt(HALT_STATUS);
            }
            return out;
        };
        return (ConsistentMap<K, V>) Proxy.newProxyInstance(FaultPoint.class.getClassLoader(),
                                                            new Class<?>[] {ConsistentMap.class}, h);
    }

    // Only one member deletes the file: the fault fires once.
    private static boolean disarm(Path arm) {
        try {
            return Files.deleteIfExists(arm);
        } catch (IOException e) {
            return false;
        }
    }
}
