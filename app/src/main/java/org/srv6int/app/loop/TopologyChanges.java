// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import org.onosproject.net.Link;
import org.onosproject.net.Port;
import org.onosproject.net.device.DeviceEvent;
import org.onosproject.net.link.LinkEvent;

/**
 * Which ONOS device and link events the loop's failure detection runs on at once
 * ({@link LoopCore#topologyChanged}), each named as the decision log shows it.
 */
final class TopologyChanges {

    private TopologyChanges() {
    }

    /**
     * A port's change.
     *
     * @param e device event
     * @return "port D/P up|down", null for an event the detection does not care about
     */
    static String of(DeviceEvent e) {
        if (e.type() != DeviceEvent.Type.PORT_UPDATED && e.type() != DeviceEvent.Type.PORT_REMOVED) {
            return null;
        }
        Port p = e.port();
        boolean up = p.isEnabled() && e.type() == DeviceEvent.Type.PORT_UPDATED;
        return "port " + e.subject().id() + "/" + p.number() + (up ? " up" : " down");
    }

    /**
     * A link's change.
     *
     * @param e link event
     * @return "link S->D up|down", null for an event the detection does not care about
     */
    static String of(LinkEvent e) {
        if (e.type() != LinkEvent.Type.LINK_REMOVED && e.type() != LinkEvent.Type.LINK_UPDATED
                && e.type() != LinkEvent.Type.LINK_ADDED) {
            return null;
        }
        boolean up = e.type() != LinkEvent.Type.LINK_REMOVED && e.subject().state() == Link.State.ACTIVE;
        return "link " + e.subject().src() + "->" + e.subject().dst() + (up ? " up" : " down");
    }
}
