// SPDX-License-Identifier: Apache-2.0
package org.srv6int.k8s.bridge.crd;

import java.util.Collection;

/**
 * What the {@link ChainController} drives: the app's chains. Called from the controller's workers,
 * one call per object at a time; every method is level-triggered (it looks at the object and the
 * app as they are now, not at what changed).
 */
public interface ChainSink {

    /**
     * Brings the app's chain in line with the object's spec (creates, updates, pauses, or refuses it
     * when the app cannot take it, e.g. its id belongs to another chain) and reports the chain as
     * the app sees it now.
     *
     * @param chain the object (not being deleted)
     * @return the status to show and the events to record
     * @throws RuntimeException on a transient failure: the object is retried with back-off
     */
    ChainReport sync(ChainObject chain);

    /**
     * Removes the app's chain declared by the object (the finalizer): its segment lists and flow
     * entries. Returns true once no switch holds an entry of it any more, false while they are
     * still being removed (the controller asks again).
     *
     * @param chain the object being deleted
     * @return true when the chain is gone from the app and the switches
     */
    boolean release(ChainObject chain);

    /**
     * Returns the keys ({@code namespace/name}) of the objects whose chains the app holds, so a
     * full resync can release chains whose object went without the finalizer (it was removed by
     * hand).
     *
     * @return keys
     */
    Collection<String> ownedKeys();

    /**
     * Releases the chain of an object that no longer exists (see {@link #ownedKeys}).
     *
     * @param key {@code namespace/name}
     * @return true when the chain is gone from the app and the switches (false: asked again)
     */
    boolean orphaned(String key);
}
