// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.gui;

import org.junit.Test;
import org.onosproject.ui.topo.PropertyPanel;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * The overlay's additions to the topology view's summary and device panels.
 */
public class Srv6intTopoOverlayTest {

    private static String value(PropertyPanel pp, String key) {
        return pp.properties().stream().filter(p -> p.key().equals(key)).findFirst()
                .map(PropertyPanel.Prop::value).orElse(null);
    }

    @Test
    public void summaryCountsChainsReplicasAndBoundsBeforeAndAfterReplica() {
        GuiTestbed tb = new GuiTestbed().before();
        Srv6intTopoOverlay ov = new Srv6intTopoOverlay(tb.app.chainViews());
        PropertyPanel pp = new PropertyPanel("ONOS Summary", "bird");
        ov.modifySummary(pp);
        assertEquals("2", value(pp, "srv6intChains"));
        assertEquals("3", value(pp, "srv6intReplicas"));
        assertEquals("1", value(pp, "srv6intOver"));
        assertEquals("1", value(pp, "srv6intNear"));

        tb.addSnortReplica();
        pp = new PropertyPanel("ONOS Summary", "bird");
        ov.modifySummary(pp);
        assertEquals("4", value(pp, "srv6intReplicas"));
        assertEquals("0", value(pp, "srv6intOver"));
    }

    @Test
    public void deviceDetailsNameTheWorstVnf() {
        GuiTestbed tb = new GuiTestbed().before();
        Srv6intTopoOverlay ov = new Srv6intTopoOverlay(tb.app.chainViews());
        PropertyPanel sw2 = new PropertyPanel("SW2", "switch");
        ov.modifyDeviceDetails(sw2, GuiTestbed.SW2);
        assertTrue(value(sw2, "srv6intWorst"), value(sw2, "srv6intWorst").startsWith("worst vNF 2/0 (Snort, SFC 2)"));
        PropertyPanel sw1 = new PropertyPanel("SW1", "switch");
        ov.modifyDeviceDetails(sw1, GuiTestbed.SW1);
        assertTrue(sw1.properties().isEmpty());
    }
}
