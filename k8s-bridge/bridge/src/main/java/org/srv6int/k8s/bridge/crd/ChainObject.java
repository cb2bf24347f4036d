// SPDX-License-Identifier: Apache-2.0
package org.srv6int.k8s.bridge.crd;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;

/**
 * A ServiceFunctionChain object as the controller hands it to its {@link ChainSink}: its identity,
 * generation, spec as JSON text (the body {@code POST /onos/srv6int/sfcs} takes, plus
 * {@code paused}) and its current status, with no Kubernetes client types (the sink is the app,
 * which keeps ONOS's own Jackson).
 */
public final class ChainObject {

    private final String namespace;
    private final String name;
    private final String uid;
    private final long generation;
    private final String specJson;
    private final Map<String, Object> status;
    private final boolean deleting;

    /**
     * Creates the view.
     *
     * @param namespace  namespace
     * @param name       name
     * @param uid        uid
     * @param generation metadata.generation
     * @param specJson   spec as JSON text
     * @param status     status as stored (maps, lists, numbers, strings); empty if none
     * @param deleting   whether metadata.deletionTimestamp is set
     */
    public ChainObject(String namespace, String name, String uid, long generation, String specJson,
                       Map<String, Object> status, boolean deleting) {
        this.namespace = Objects.requireNonNull(namespace);
        this.name = Objects.requireNonNull(name);
        this.uid = uid;
        this.generation = generation;
        this.specJson = Objects.requireNonNull(specJson);
        this.status = status == null ? Map.of() : Collections.unmodifiableMap(status);
        this.deleting = deleting;
    }

    /**
     * Returns the namespace.
     *
     * @return namespace
     */
    public String namespace() {
        return namespace;
    }

    /**
     * Returns the name.
     *
     * @return name
     */
    public String name() {
        return name;
    }

    /**
     * Returns the object's key, {@code namespace/name}, as the informer's store and the queue use it
     * and as a REST 409 names the declaring object.
     *
     * @return key
     */
    public String key() {
        return namespace + "/" + name;
    }

    /**
     * Returns the uid.
     *
     * @return uid
     */
    public String uid() {
        return uid;
    }

    /**
     * Returns metadata.generation (the spec's version).
     *
     * @return generation
     */
    public long generation() {
        return generation;
    }

    /**
     * Returns the spec as JSON text.
     *
     * @return JSON object
     */
    public String specJson() {
        return specJson;
    }

    /**
     * Returns the stored status.
     *
     * @return status, empty map if none
     */
    public Map<String, Object> status() {
        return status;
    }

    /**
     * Returns whether the object is being deleted (its finalizer runs).
     *
     * @return true once metadata.deletionTimestamp is set
     */
    public boolean deleting() {
        return deleting;
    }

    @Override
    public String toString() {
        return "ServiceFunctionChain " + key() + " (generation " + generation + ")";
    }
}
