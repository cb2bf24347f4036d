// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.gui;

import java.util.Collections;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.onosproject.ui.JsonUtils;
import org.onosproject.ui.UiConnection;
import org.onosproject.ui.model.topo.UiTopoLayout;

import java.util.ArrayList;
import java.util.List;

/**
 * Stands in for ONOS's web-socket connection: records every message the handler
 * sends, wrapped in ONOS's {event, payload} envelope (JsonUtils.envelope).
 */
final class FakeUiConnection implements UiConnection {
    final List<ObjectNode> sent = Collections.synchronizedList(new ArrayList<>());

    @Override
    public String userName() {
        return "onos";
    }

    @Override
    public UiTopoLayout currentLayout() {
        return null;
    }

    @Override
    public void setCurrentLayout(UiTopoLayout topoLayout) {
    }

    @Override
    public String currentView() {
        return "topo";
    }

    @Override
    public void setCurrentView(String viewId) {
    }

    @Override
    public void sendMessage(ObjectNode message) {
        sent.add(message.deepCopy());
    }

    @Override
    public void sendMessage(String type, ObjectNode payload) {
        sent.add(JsonUtils.envelope(type, payload.deepCopy()));
    }

    /** @return messages sent since the last call, then forgets them */
    List<ObjectNode> drain() {
        synchronized (sent) {
            List<ObjectNode> out = new ArrayList<>(sent);
            sent.clear();
            return out;
        }
    }
}
