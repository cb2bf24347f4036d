// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.gui;

import org.onosproject.net.DeviceId;
import org.onosproject.ui.UiTopoOverlay;
import org.onosproject.ui.topo.PropertyPanel;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The overlay as the topology view's server side knows it: adds the SFC
 * summary to the summary panel and each switch's worst vNF slack to its
 * details panel. Its id must match {@code overlayId} in srv6intTopoOverlay.js.
 */
public class Srv6intTopoOverlay extends UiTopoOverlay {
    /** Overlay id shared with the client. */
    public static final String OVERLAY_ID = "srv6int-overlay";

    private final Supplier<List<ChainView>> chains;

    /**
     * Creates the overlay.
     *
     * @param chains current chains
     */
    public Srv6intTopoOverlay(Supplier<List<ChainView>> chains) {
        super(OVERLAY_ID);
        this.chains = Objects.requireNonNull(chains, "chains");
    }

    @Override
    public void modifySummary(PropertyPanel pp) {
        List<ChainView> all = chains.get();
        int over = 0;
        int near = 0;
        int replicas = 0;
        for (ChainView c : all) {
            replicas += c.replicaCount();
            for (VnfView v : c.vnfs()) {
                SlackLevel l = v.level();
                over += l == SlackLevel.RED ? 1 : 0;
                near += l == SlackLevel.AMBER ? 1 : 0;
            }
        }
        pp.addSeparator()
                .addProp("srv6intChains", "SFC chains", all.size())
                .addProp("srv6intReplicas", "vNF replicas", replicas)
                .addProp("srv6intOver", "vNFs over Lmax", over)
                .addProp("srv6intNear", "vNFs near Lmax", near);
    }

    @Override
    public void modifyDeviceDetails(PropertyPanel pp, DeviceId deviceId) {
        Map<DeviceId, ChainHighlighter.Worst> worst = ChainHighlighter.worstPerDevice(chains.get());
        if (!worst.containsKey(deviceId)) {
            return;
        }
        ChainHighlighter.Worst w = worst.get(deviceId);
        pp.addSeparator().addProp("srv6intWorst", "Worst vNF",
                w == null ? "no latency window yet" : w.tooltip());
    }
}
