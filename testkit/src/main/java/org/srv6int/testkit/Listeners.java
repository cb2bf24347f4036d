// SPDX-License-Identifier: Apache-2.0
package org.srv6int.testkit;

import org.onosproject.event.Event;
import org.onosproject.event.EventListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Listeners of one service. Events are delivered synchronously, in the caller's thread, to
 * every listener whose {@code isRelevant} accepts them; a listener that throws is logged and
 * does not stop delivery to the others (as ONOS's ListenerRegistry does).
 *
 * @param <E> event type
 * @param <L> listener type
 */
public final class Listeners<E extends Event, L extends EventListener<E>> {

    private static final Logger LOG = LoggerFactory.getLogger(Listeners.class);

    private final List<L> listeners = new CopyOnWriteArrayList<>();

    /**
     * Adds a listener.
     *
     * @param listener the listener
     */
    public void add(L listener) {
        listeners.add(listener);
    }

    /**
     * Removes a listener.
     *
     * @param listener the listener
     */
    public void remove(L listener) {
        listeners.remove(listener);
    }

    /**
     * Returns how many listeners are registered.
     *
     * @return count
     */
    public int size() {
        return listeners.size();
    }

    /**
     * Delivers an event.
     *
     * @param event the event
     */
    public void post(E event) {
        for (L l : listeners) {
            try {
                if (l.isRelevant(event)) {
                    l.event(event);
                }
            } catch (RuntimeException e) {
                LOG.warn("Listener {} failed on {}", l.getClass().getName(), event, e);
            }
        }
    }
}
