// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.gui;

import org.junit.Test;
import org.srv6int.app.api.model.SfcId;

import java.util.List;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * Reading the app's services into chain views: replicas, segment lists,
 * telemetry and per-chain decisions, and what is shown while a service or a
 * measurement is missing.
 */
public class ChainViewsTest {

    @Test
    public void readsTheTestbedBeforeAndAfterTheReplica() {
        GuiTestbed tb = new GuiTestbed().before();
        List<ChainView> before = tb.app.chainViews().get();
        assertEquals(2, before.size());
        ChainView sfc2 = before.get(1);
        assertEquals("2", sfc2.id());
        assertEquals(1, sfc2.paths().size());
        assertEquals(GuiTestbed.SWITCHES, sfc2.paths().get(0));
        assertEquals(7_200_000, sfc2.vnfs().get(0).p95Ns());
        assertEquals(1, sfc2.replicaCount());
        assertEquals(2, sfc2.history().size());  // only SFC 2's decisions
        assertEquals("HOLD", sfc2.lastDecision().get().action());

        tb.addSnortReplica();
        sfc2 = tb.app.chainViews().get().get(1);
        assertEquals(2, sfc2.paths().size());
        assertEquals(2, sfc2.replicaCount());
        assertEquals("snort-1", sfc2.vnfs().get(0).replicas().get(1).name());
        assertEquals(GuiTestbed.SW3, sfc2.vnfs().get(0).replicas().get(1).attachment());
        assertEquals("SCALE_OUT", sfc2.lastDecision().get().action());
        assertEquals("1 → 2 replicas, succeeded; n = ceil(C_i / C*_i) = 2, new replica on worker-2",
                sfc2.lastDecision().get().detail());
        // history is oldest first
        assertTrue(sfc2.history().get(0).timeMillis() < sfc2.history().get(2).timeMillis());
    }

    @Test
    public void missingTelemetryAndLoopLeaveChainsDrawable() {
        GuiTestbed tb = new GuiTestbed().before();
        tb.app.vnfTelemetry.clear();
        tb.app.sfcTelemetry.remove(SfcId.of(1));
        ChainViews noCollector = new ChainViews(() -> tb.app.sfcService, () -> tb.app.inventory,
                () -> tb.app.pathService, () -> null, () -> null);
        ChainView sfc1 = noCollector.get().get(0);
        assertEquals(VnfView.UNKNOWN, sfc1.vnfs().get(0).p95Ns());
        assertEquals(ChainView.UNKNOWN, sfc1.e2eP95Ns());
        assertTrue(sfc1.throughputPps() < 0);
        assertTrue(sfc1.history().isEmpty());
        assertEquals(SlackLevel.UNKNOWN, sfc1.vnfs().get(0).level());
        // no measured vNF: switches get no badge, but the chain still highlights
        ChainHighlighter h = new ChainHighlighter(tb.linkService(), tb.hostService());
        assertTrue(ChainHighlighter.worstPerDevice(noCollector.get()).values().stream().allMatch(w -> w == null));
        assertEquals(3, h.highlights(noCollector.get(), sfc1).links().stream()
                .filter(l -> l.cssClasses().contains("primary")).count());
        ChainPanel p = new ChainPanel(tb.deviceService());
        assertEquals("n/a", p.telemetry(sfc1, 0, 2).properties().stream()
                .filter(x -> x.key().equals("throughput")).findFirst().get().value());
    }

    @Test
    public void noChainServiceMeansNoChains() {
        assertTrue(new ChainViews(() -> null, () -> null, () -> null, () -> null, () -> null).get().isEmpty());
    }

    @Test
    public void chainWithoutPathsHasNoLinksButKeepsBadges() {
        GuiTestbed tb = new GuiTestbed().before();
        tb.app.paths.clear();
        List<ChainView> chains = tb.app.chainViews().get();
        ChainHighlighter h = new ChainHighlighter(tb.linkService(), tb.hostService());
        assertEquals(0, h.highlights(chains, chains.get(0)).links().stream()
                .filter(l -> l.cssClasses().contains("primary")).count());
        assertEquals("720%", h.highlights(chains, chains.get(0)).getDevice("device:sw2").badge().text());
    }
}
