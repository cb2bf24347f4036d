// SPDX-License-Identifier: Apache-2.0
package org.srv6int.testkit;

import org.onosproject.event.DefaultEventSinkRegistry;
import org.onosproject.event.Event;
import org.onosproject.event.EventDeliveryService;
import org.onosproject.event.EventSink;
import org.osgi.service.component.annotations.Component;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Event delivery: ONOS's sink registry, with events handed to the sink of their class in the
 * posting thread (ONOS uses one dispatch thread; order per poster is the same). An event with
 * no sink is dropped with a warning, as ONOS's CoreEventDispatcher does.
 */
@Component(immediate = true, service = EventDeliveryService.class)
public class InMemoryEventDeliveryService extends DefaultEventSinkRegistry implements EventDeliveryService {

    private static final Logger LOG = LoggerFactory.getLogger(InMemoryEventDeliveryService.class);

    private volatile long dispatchTimeLimit = 2000;

    @Override
    @SuppressWarnings("unchecked")
    public void post(Event event) {
        EventSink<Event> sink = getSink((Class<Event>) event.getClass());
        if (sink == null) {
            LOG.warn("No sink for event {}", event);
            return;
        }
        sink.process(event);
    }

    @Override
    public void setDispatchTimeLimit(long millis) {
        dispatchTimeLimit = millis;
    }

    @Override
    public long getDispatchTimeLimit() {
        return dispatchTimeLimit;
    }
}
