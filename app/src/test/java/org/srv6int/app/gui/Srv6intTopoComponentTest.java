// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.gui;

import com.google.common.io.ByteStreams;
import org.junit.Test;
import org.onosproject.ui.UiExtension;
import org.onosproject.ui.UiExtensionServiceAdapter;
import org.onosproject.ui.UiMessageHandler;
import org.onosproject.ui.UiTopoOverlay;
import org.onosproject.ui.UiView;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

/**
 * The component registers one GUI extension (hidden view, overlay, message
 * handler) with ONOS's UiExtensionService and unregisters it on deactivation;
 * the resources ONOS's GUI loads for it are where the extension says.
 */
public class Srv6intTopoComponentTest {

    /** Records registrations like ONOS's UiExtensionManager keeps them. */
    private static final class RecordingUiExtensionService extends UiExtensionServiceAdapter {
        final List<UiExtension> registered = new ArrayList<>();

        @Override
        public void register(UiExtension extension) {
            if (!registered.contains(extension)) {
                registered.add(extension);
            }
        }

        @Override
        public void unregister(UiExtension extension) {
            registered.remove(extension);
        }

        @Override
        public List<UiExtension> getExtensions() {
            return registered;
        }
    }

    private static String read(InputStream in) throws Exception {
        assertNotNull(in);
        try (InputStream s = in) {
            return new String(ByteStreams.toByteArray(s), StandardCharsets.UTF_8);
        }
    }

    @Test
    public void registersOverlayHandlerAndResources() throws Exception {
        GuiTestbed tb = new GuiTestbed().before();
        RecordingUiExtensionService ui = new RecordingUiExtensionService();
        // telemetry and loop left unbound: optional references
        Srv6intTopoComponent c = new Srv6intTopoComponent(ui, tb.app.sfcService, tb.app.inventory,
                tb.app.pathService);

        c.activate();
        assertEquals(1, ui.getExtensions().size());
        UiExtension ext = ui.getExtensions().get(0);

        List<UiView> views = ext.views();
        assertEquals(1, views.size());
        assertEquals(Srv6intTopoComponent.VIEW_ID, views.get(0).id());
        assertEquals(UiView.Category.HIDDEN, views.get(0).category());

        List<UiTopoOverlay> overlays = new ArrayList<>(ext.topoOverlayFactory().newOverlays());
        assertEquals(1, overlays.size());
        assertEquals(Srv6intTopoOverlay.OVERLAY_ID, overlays.get(0).id());

        List<UiMessageHandler> handlers = new ArrayList<>(ext.messageHandlerFactory().newHandlers());
        assertEquals(1, handlers.size());
        handlers.get(0).init(new FakeUiConnection(), tb.directory());
        assertTrue(handlers.get(0).messageTypes().containsAll(List.of(Srv6intTopoMessageHandler.START,
                Srv6intTopoMessageHandler.STOP, Srv6intTopoMessageHandler.SELECT,
                Srv6intTopoMessageHandler.CYCLE, Srv6intTopoMessageHandler.HISTORY)));
        handlers.get(0).destroy();

        // what ONOS's index.html injects for this extension, and what that loads
        String js = read(ext.js());
        String css = read(ext.css());
        assertTrue(js, js.contains("app/view/srv6intTopo/srv6intTopo.js"));
        assertTrue(js, js.contains("app/view/srv6intTopo/srv6intTopoOverlay.js"));
        assertTrue(css, css.contains("app/view/srv6intTopo/srv6intTopo.css"));
        String overlayJs = read(ext.resource(Srv6intTopoComponent.VIEW_ID, "srv6intTopoOverlay.js"));
        assertTrue(overlayJs.contains("overlayId: '" + Srv6intTopoOverlay.OVERLAY_ID + "'"));
        String serviceJs = read(ext.resource(Srv6intTopoComponent.VIEW_ID, "srv6intTopo.js"));
        for (String ev : new String[]{Srv6intTopoMessageHandler.START, Srv6intTopoMessageHandler.STOP,
                Srv6intTopoMessageHandler.SELECT, Srv6intTopoMessageHandler.CYCLE,
                Srv6intTopoMessageHandler.HISTORY, Srv6intTopoMessageHandler.CHAIN_DATA,
                Srv6intTopoMessageHandler.HISTORY_DATA}) {
            assertTrue("client knows " + ev, serviceJs.contains("'" + ev + "'"));
        }

        c.deactivate();
        assertTrue(ui.getExtensions().isEmpty());
    }
}
