// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.gui;

import org.onosproject.net.Device;
import org.onosproject.net.DeviceId;
import org.onosproject.net.device.DeviceService;
import org.onosproject.ui.topo.PropertyPanel;

import java.util.List;
import java.util.StringJoiner;

/**
 * Builds the details-panel contents for a chain: live telemetry (throughput,
 * end-to-end p95, each vNF's p95 against Lmax, replicas) and the last global-loop
 * decision; and the chain's decision history.
 */
public final class ChainPanel {
    /** Glyph of the chain panel (a core ONOS glyph). */
    static final String GLYPH = "chain";
    /** Most decisions the history panel lists (newest first). */
    public static final int HISTORY_ROWS = 10;

    private final DeviceService deviceService;

    /**
     * Creates a panel builder.
     *
     * @param deviceService for switch names (may be null: device ids are shown)
     */
    public ChainPanel(DeviceService deviceService) {
        this.deviceService = deviceService;
    }

    /**
     * Telemetry panel of a chain.
     *
     * @param chain the chain
     * @param index position of the chain in the cycle order (0-based)
     * @param count number of chains
     * @return the panel
     */
    public PropertyPanel telemetry(ChainView chain, int index, int count) {
        PropertyPanel pp = new PropertyPanel(chain.name(), GLYPH).id(chain.id());
        pp.addProp("chain", "Chain", (index + 1) + " of " + count + " (id " + chain.id() + ")");
        pp.addProp("path", "Path", path(chain.paths().isEmpty() ? List.of() : chain.paths().get(0)));
        pp.addProp("segLists", "Segment lists", chain.paths().size());
        pp.addProp("throughput", "Throughput", Format.packetRate(chain.throughputPps()));
        pp.addProp("e2eP95", "E2E p95", Format.latency(chain.e2eP95Ns()));
        pp.addProp("replicas", "Replicas", chain.replicaCount());
        pp.addProp("state", "State", chain.state().map(Format::liveness)
                .orElse("n/a (the failure detection runs on the loop leader)"));
        pp.addSeparator();
        for (VnfView v : chain.vnfs()) {
            SlackLevel level = v.level();
            pp.addProp("vnf:" + v.id(), v.id() + " (" + v.type() + ")",
                    "p95 " + Format.latency(v.p95Ns()) + " / Lmax " + Format.latency(v.lmaxNs())
                            + " [" + level.word() + "]");
            StringJoiner reps = new StringJoiner(", ");
            for (ReplicaView r : v.replicas()) {
                reps.add(r.name() + "@" + r.worker() + " " + r.state() + " w" + r.weight()
                        + (r.dead() ? " " + Format.DEAD_TAG : ""));
            }
            pp.addProp("rep:" + v.id(), "  replicas", v.replicas().size() + ": " + reps);
        }
        pp.addSeparator();
        pp.addProp("lastDecision", "Last decision",
                chain.lastDecision().map(ChainPanel::decision).orElse("none yet"));
        return pp;
    }

    /**
     * Decision-history panel of a chain (newest first, at most {@link #HISTORY_ROWS}).
     *
     * @param chain the chain
     * @return the panel
     */
    public PropertyPanel history(ChainView chain) {
        PropertyPanel pp = new PropertyPanel(chain.name() + " loop decisions", GLYPH).id(chain.id());
        List<LoopDecisionView> h = chain.history();
        if (h.isEmpty()) {
            pp.addProp("none", "Decisions", "none yet");
        }
        int shown = 0;
        for (int i = h.size() - 1; i >= 0 && shown < HISTORY_ROWS; i--, shown++) {
            LoopDecisionView d = h.get(i);
            pp.addProp("d" + shown, Format.time(d.timeMillis()),
                    d.action() + " " + d.vnfId() + (d.detail().isEmpty() ? "" : ": " + d.detail()));
        }
        if (h.size() > HISTORY_ROWS) {
            pp.addProp("more", "Older", (h.size() - HISTORY_ROWS) + " more");
        }
        return pp;
    }

    /** One-line decision text: time, action, vNF, reason. */
    static String decision(LoopDecisionView d) {
        return Format.time(d.timeMillis()) + " " + d.action() + " " + d.vnfId()
                + (d.detail().isEmpty() ? "" : ": " + d.detail());
    }

    String path(List<DeviceId> devices) {
        StringJoiner j = new StringJoiner(" → ");
        for (DeviceId d : devices) {
            j.add(name(d));
        }
        return j.length() == 0 ? "n/a" : j.toString();
    }

    /** Switch name from its "name" annotation, else its id. */
    String name(DeviceId id) {
        Device d = deviceService == null ? null : deviceService.getDevice(id);
        String n = d == null ? null : d.annotations().value("name");
        return n == null ? id.toString() : n;
    }
}
