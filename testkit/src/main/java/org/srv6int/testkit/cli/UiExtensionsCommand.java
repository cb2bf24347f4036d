// SPDX-License-Identifier: Apache-2.0
package org.srv6int.testkit.cli;

import org.apache.karaf.shell.api.action.Action;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.lifecycle.Reference;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.onosproject.ui.UiExtension;
import org.onosproject.ui.UiExtensionService;
import org.onosproject.ui.UiView;
import org.srv6int.testkit.InMemoryUiExtensionService;

import java.util.Map;

/**
 * Lists the registered GUI extensions: views, whether they bring a topology overlay and a
 * message handler factory, and the resources their injections name with the size loaded
 * (-1: missing).
 */
@Service
@Command(scope = "testkit", name = "ui-extensions", description = "Lists registered GUI extensions")
public class UiExtensionsCommand implements Action {

    @Reference
    UiExtensionService ui;

    @Override
    public Object execute() {
        for (UiExtension e : ui.getExtensions()) {
            StringBuilder views = new StringBuilder();
            for (UiView v : e.views()) {
                views.append(views.length() == 0 ? "" : ",").append(v.id());
            }
            System.out.printf("extension views=%s topoOverlay=%s messageHandlers=%s%n", views,
                              e.topoOverlayFactory() != null, e.messageHandlerFactory() != null);
            if (ui instanceof InMemoryUiExtensionService) {
                for (Map.Entry<String, Integer> r
                        : ((InMemoryUiExtensionService) ui).loadedResources(e).entrySet()) {
                    System.out.printf("  resource %s %d%n", r.getKey(), r.getValue());
                }
            }
        }
        return null;
    }
}
