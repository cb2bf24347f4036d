package org.srv6int.app.testing;

import org.onosproject.event.Event;
import org.onosproject.event.EventDeliveryServiceAdapter;
import org.onosproject.event.EventSink;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Event delivery that hands each event to its sink at once, on the caller's
 * thread (ONOS's dispatcher does the same on its own thread).
 */
public class SyncEventDispatcher extends EventDeliveryServiceAdapter {

    private final Map<Class<?>, EventSink<?>> sinks = new HashMap<>();

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public void post(Event event) {
        for (Map.Entry<Class<?>, EventSink<?>> e : sinks.entrySet()) {
            if (e.getKey().isInstance(event)) {
                ((EventSink) e.getValue()).process(event);
            }
        }
    }

    @Override
    public <E extends Event> void addSink(Class<E> eventClass, EventSink<E> sink) {
        sinks.put(eventClass, sink);
    }

    @Override
    public <E extends Event> void removeSink(Class<E> eventClass) {
        sinks.remove(eventClass);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <E extends Event> EventSink<E> getSink(Class<E> eventClass) {
        return (EventSink<E>) sinks.get(eventClass);
    }

    @Override
    public Set<Class<? extends Event>> getSinks() {
        return Set.of();
    }
}
