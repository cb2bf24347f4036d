// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.gui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import org.junit.Before;
import org.junit.Test;
import org.onosproject.ui.JsonUtils;

import java.util.ArrayList;
import java.util.List;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * The overlay's server side on the paper's testbed, driven through ONOS's
 * message dispatch (UiMessageHandler.process) exactly as the web socket does.
 */
public class Srv6intTopoMessageHandlerTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final GuiTestbed tb = new GuiTestbed();
    private final FakeUiConnection conn = new FakeUiConnection();
    private Srv6intTopoMessageHandler handler;

    @Before
    public void setUp() {
        handler = new Srv6intTopoMessageHandler(tb.app.chainViews(), 0);
        handler.init(conn, tb.directory());
    }

    private List<ObjectNode> send(String type, String payloadJson) throws Exception {
        handler.process(JsonUtils.envelope(type, (ObjectNode) MAPPER.readTree(payloadJson)));
        return conn.drain();
    }

    private static JsonNode device(JsonNode hl, String id) {
        for (JsonNode d : hl.path("devices")) {
            if (d.path("id").asText().equals(id)) {
                return d;
            }
        }
        return null;
    }

    private static JsonNode host(JsonNode hl, String mac) {
        for (JsonNode d : hl.path("hosts")) {
            if (d.path("id").asText().startsWith(mac)) {
                return d;
            }
        }
        return null;
    }

    private static List<String> linkIds(JsonNode hl, String css) {
        List<String> ids = new ArrayList<>();
        for (JsonNode l : hl.path("links")) {
            if (l.path("css").asText().equals(css)) {
                ids.add(l.path("id").asText());
            }
        }
        return ids;
    }

    private static String prop(JsonNode panel, String key) {
        return panel.path("propValues").path(key).asText();
    }

    @Test
    public void startBeforeReplicaShowsSfc1PathBadgesAndTelemetry() throws Exception {
        tb.before();
        List<ObjectNode> out = send(Srv6intTopoMessageHandler.START, "{}");
        assertEquals(2, out.size());
        assertEquals("showHighlights", out.get(0).path("event").asText());
        JsonNode hl = out.get(0).path("payload");
        assertEquals("min", hl.path("subdue").asText());
        // the whole row SW1–SW4 is SFC 1's path: bright, no device subdued
        for (String sw : new String[]{"device:sw1", "device:sw2", "device:sw3", "device:sw4"}) {
            assertFalse(sw, device(hl, sw).has("subdue"));
        }
        assertFalse("SW1 hosts no vNF: no badge", device(hl, "device:sw1").has("badge"));
        // SW2: worst is Snort (SFC 2) at 7.2 ms against 1 ms → red
        JsonNode b2 = device(hl, "device:sw2").path("badge");
        assertEquals("e", b2.path("status").asText());
        assertEquals("720%", b2.path("txt").asText());
        assertTrue(b2.path("msg").asText(),
                b2.path("msg").asText().contains("worst vNF 2/0 (Snort, SFC 2): p95 7.20 ms / Lmax 1.00 ms"));
        // SW3: nDPI at 880 µs, 12 % slack → amber
        JsonNode b3 = device(hl, "device:sw3").path("badge");
        assertEquals("w", b3.path("status").asText());
        assertEquals("88%", b3.path("txt").asText());
        assertEquals(ImmutableSet.of("device:sw1/2-device:sw2/1", "device:sw2/2-device:sw3/1",
                "device:sw3/2-device:sw4/1"), ImmutableSet.copyOf(linkIds(hl, "primary animated")));
        assertEquals("122.1 kpps", hl.path("links").get(0).path("label").asText());
        // each worker runs one SFC 1 replica
        assertEquals("1", host(hl, "00:00:00:00:02:01").path("badge").path("txt").asText());
        assertEquals("1", host(hl, "00:00:00:00:03:01").path("badge").path("txt").asText());
        assertEquals(2, linkIds(hl, "secondary").size());

        assertEquals(Srv6intTopoMessageHandler.CHAIN_DATA, out.get(1).path("event").asText());
        JsonNode data = out.get(1).path("payload");
        assertEquals("1", data.path("chainId").asText());
        assertEquals(2, data.path("count").asInt());
        JsonNode panel = data.path("panel");
        assertEquals("SFC 1", panel.path("title").asText());
        assertEquals("SW1 → SW2 → SW3 → SW4", prop(panel, "path"));
        assertEquals("122.1 kpps", prop(panel, "throughput"));
        assertEquals("1.45 ms", prop(panel, "e2eP95"));
        assertEquals("2", prop(panel, "replicas"));
        assertEquals("p95 420 µs / Lmax 1.00 ms [ok]", prop(panel, "vnf:1/0"));
        assertEquals("p95 880 µs / Lmax 1.00 ms [near bound]", prop(panel, "vnf:1/1"));
        assertEquals("10:00:02 HOLD 1/1: succeeded; L_i below Lmax_i", prop(panel, "lastDecision"));
    }

    @Test
    public void cycleThenReplicaAddedTurnsSw2GreenAndShowsScaleOut() throws Exception {
        tb.before();
        send(Srv6intTopoMessageHandler.START, "{}");
        List<ObjectNode> out = send(Srv6intTopoMessageHandler.CYCLE, "{\"step\":1}");
        JsonNode panel = out.get(1).path("payload").path("panel");
        assertEquals("SFC 2", panel.path("title").asText());
        assertEquals("1", prop(panel, "replicas"));
        assertEquals("p95 7.20 ms / Lmax 1.00 ms [over bound]", prop(panel, "vnf:2/0"));
        JsonNode hl = out.get(0).path("payload");
        assertEquals("1", host(hl, "00:00:00:00:02:01").path("badge").path("txt").asText());
        assertEquals(null, host(hl, "00:00:00:00:03:01"));

        tb.addSnortReplica();
        handler.refresh();
        out = conn.drain();
        hl = out.get(0).path("payload");
        JsonNode b2 = device(hl, "device:sw2").path("badge");
        assertEquals("i", b2.path("status").asText());
        assertEquals("61%", b2.path("txt").asText());
        JsonNode b3 = device(hl, "device:sw3").path("badge");
        assertEquals("w", b3.path("status").asText());  // nDPI still the worst on SW3
        assertEquals("1", host(hl, "00:00:00:00:03:01").path("badge").path("txt").asText());
        assertTrue(host(hl, "00:00:00:00:03:01").path("badge").path("msg").asText().contains("snort-1"));
        panel = out.get(1).path("payload").path("panel");
        assertEquals("SFC 2", panel.path("title").asText());
        assertEquals("2", prop(panel, "replicas"));
        assertEquals("2", prop(panel, "segLists"));
        assertEquals("1.10 ms", prop(panel, "e2eP95"));
        assertEquals("2: snort-0@worker-1 ACTIVE w1, snort-1@worker-2 ACTIVE w1", prop(panel, "rep:2/0"));
        assertEquals("10:00:29 SCALE_OUT 2/0: 1 → 2 replicas, succeeded; n = ceil(C_i / C*_i) = 2, "
                + "new replica on worker-2", prop(panel, "lastDecision"));
    }

    @Test
    public void aDownChainGetsADownBadgeOnItsIngressAndADeadReplicaIsMarked() throws Exception {
        tb.before();
        tb.addSnortReplica();
        List<ObjectNode> out = send(Srv6intTopoMessageHandler.START, "{}");
        assertFalse("no failure yet: no badge on SW1", device(out.get(0).path("payload"), "device:sw1").has("badge"));
        assertEquals("n/a (the failure detection runs on the loop leader)",
                prop(out.get(1).path("payload").path("panel"), "state"));

        tb.failures();
        handler.refresh();
        out = conn.drain();
        JsonNode hl = out.get(0).path("payload");
        JsonNode b1 = device(hl, "device:sw1").path("badge");
        assertEquals("e", b1.path("status").asText());
        assertEquals(ChainHighlighter.DOWN_BADGE, b1.path("txt").asText());
        assertEquals("SFC 1 DOWN since 10:00:43 [down]: ingress classified traffic but no INT report arrived for "
                + "3000 ms; last hop seen: vNF 0 (fwd-0 at device:sw2/3)", b1.path("msg").asText());
        // the latency badges stay where no chain is down
        assertEquals("88%", device(hl, "device:sw3").path("badge").path("txt").asText());
        JsonNode panel = out.get(1).path("payload").path("panel");
        assertEquals("SFC 1", panel.path("title").asText());
        assertEquals("DOWN since 10:00:43 [down]: ingress classified traffic but no INT report arrived for 3000 ms; "
                + "last hop seen: vNF 0 (fwd-0 at device:sw2/3)", prop(panel, "state"));
        assertTrue(prop(panel, "lastDecision"), prop(panel,
                "lastDecision").startsWith("10:00:43 CHAIN_DOWN 1/1: failed"));

        out = send(Srv6intTopoMessageHandler.CYCLE, "{\"step\":1}");
        panel = out.get(1).path("payload").path("panel");
        assertEquals("SFC 2", panel.path("title").asText());
        assertEquals("UP since 10:00:02", prop(panel, "state"));
        assertEquals("2: snort-0@worker-1 DEAD w0 [dead], snort-1@worker-2 ACTIVE w1", prop(panel, "rep:2/0"));
        hl = out.get(0).path("payload");
        JsonNode w1 = host(hl, "00:00:00:00:02:01").path("badge");
        assertEquals("e", w1.path("status").asText());
        assertEquals("SFC 2 replicas on worker-1: snort-0 [dead]", w1.path("msg").asText());
        assertEquals("i", host(hl, "00:00:00:00:03:01").path("badge").path("status").asText());
        // SFC 1 is still down while SFC 2 is selected: its badge is on every view
        assertEquals(ChainHighlighter.DOWN_BADGE, device(hl, "device:sw1").path("badge").path("txt").asText());
    }

    @Test
    public void historyListsDecisionsNewestFirst() throws Exception {
        tb.before().addSnortReplica();
        send(Srv6intTopoMessageHandler.START, "{\"chainId\":\"2\"}");
        List<ObjectNode> out = send(Srv6intTopoMessageHandler.HISTORY, "{}");
        assertEquals(Srv6intTopoMessageHandler.HISTORY_DATA, out.get(1).path("event").asText());
        JsonNode panel = out.get(1).path("payload").path("panel");
        assertEquals("SFC 2 loop decisions", panel.path("title").asText());
        assertEquals(ImmutableList.of("d0", "d1", "d2"),
                ImmutableList.copyOf(MAPPER.convertValue(panel.path("propOrder"), String[].class)));
        assertEquals("10:00:29", panel.path("propLabels").path("d0").asText());
        assertEquals("SCALE_OUT 2/0: 1 → 2 replicas, succeeded; n = ceil(C_i / C*_i) = 2, new replica on worker-2",
                prop(panel, "d0"));
        assertEquals("HOLD 2/0: succeeded; over Lmax_i for 0.0 s < t̂ 4 s", prop(panel, "d2"));
        // the live refresh keeps showing the history until the operator selects again
        handler.refresh();
        assertEquals(Srv6intTopoMessageHandler.HISTORY_DATA, conn.drain().get(1).path("event").asText());
        out = send(Srv6intTopoMessageHandler.SELECT, "{\"chainId\":\"1\"}");
        assertEquals(Srv6intTopoMessageHandler.CHAIN_DATA, out.get(1).path("event").asText());
    }

    @Test
    public void cycleWrapsBothWaysAndUnknownChainFallsBackToFirst() throws Exception {
        tb.before();
        send(Srv6intTopoMessageHandler.START, "{}");
        List<ObjectNode> out = send(Srv6intTopoMessageHandler.CYCLE, "{\"step\":-1}");
        assertEquals("2", out.get(1).path("payload").path("chainId").asText());
        out = send(Srv6intTopoMessageHandler.CYCLE, "{\"step\":1}");
        assertEquals("1", out.get(1).path("payload").path("chainId").asText());
        out = send(Srv6intTopoMessageHandler.SELECT, "{\"chainId\":\"no-such-chain\"}");
        assertEquals("1", out.get(1).path("payload").path("chainId").asText());
    }

    @Test
    public void stopClearsHighlightsAndSilencesRefresh() throws Exception {
        tb.before();
        send(Srv6intTopoMessageHandler.START, "{}");
        List<ObjectNode> out = send(Srv6intTopoMessageHandler.STOP, "{}");
        assertEquals(1, out.size());
        JsonNode hl = out.get(0).path("payload");
        assertEquals(0, hl.path("devices").size());
        assertEquals(0, hl.path("links").size());
        assertFalse(hl.has("subdue"));
        handler.refresh();
        assertTrue(conn.drain().isEmpty());
    }

    @Test
    public void noChainsSendsEmptyListAndNoPanel() throws Exception {
        List<ObjectNode> out = send(Srv6intTopoMessageHandler.START, "{}");
        assertEquals(0, out.get(0).path("payload").path("devices").size());
        JsonNode data = out.get(1).path("payload");
        assertEquals(0, data.path("count").asInt());
        assertEquals("", data.path("chainId").asText());
        assertFalse(data.has("panel"));
    }

    @Test
    public void liveRefreshRunsWhileOnAndStopsWithTheOverlay() throws Exception {
        tb.before();
        Srv6intTopoMessageHandler live = new Srv6intTopoMessageHandler(tb.app.chainViews(), 20);
        FakeUiConnection c = new FakeUiConnection();
        live.init(c, tb.directory());
        live.process(JsonUtils.envelope(Srv6intTopoMessageHandler.START, MAPPER.createObjectNode()));
        tb.addSnortReplica();  // the app changes while the overlay is on
        long deadline = System.currentTimeMillis() + 10_000;
        boolean sawReplica = false;
        while (!sawReplica && System.currentTimeMillis() < deadline) {
            for (ObjectNode m : c.drain()) {
                // SW2's badge turns green once the refresh reads the replica's effect
                JsonNode sw2 = m.path("event").asText().equals("showHighlights")
                        ? device(m.path("payload"), "device:sw2") : null;
                sawReplica |= sw2 != null && "61%".equals(sw2.path("badge").path("txt").asText());
            }
            Thread.sleep(10);
        }
        assertTrue("a periodic refresh was sent", sawReplica);
        live.process(JsonUtils.envelope(Srv6intTopoMessageHandler.STOP, MAPPER.createObjectNode()));
        c.drain();
        Thread.sleep(100);
        assertTrue("no refresh after stop", c.drain().isEmpty());
        live.destroy();
    }
}
