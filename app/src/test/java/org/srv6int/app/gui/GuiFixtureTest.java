// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.gui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.Test;
import org.onosproject.net.DefaultEdgeLink;
import org.onosproject.net.Device;
import org.onosproject.net.Host;
import org.onosproject.net.Link;
import org.onosproject.ui.JsonUtils;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.onosproject.ui.topo.TopoUtils.compactLinkString;

/**
 * Records the messages the overlay's server side really sends for the paper's
 * testbed (before and after the Snort replica is added) into
 * tests/gui/fixtures/testbed-messages.json, which the headless-Chromium test of
 * the overlay's JavaScript replays. Fails when the committed fixture is out of
 * date; regenerate with {@code -Dsrv6int.gui.updateFixture=true}.
 */
public class GuiFixtureTest {
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    static final String FIXTURE = "tests/gui/fixtures/testbed-messages.json";

    /** Runs the scripted session and returns the fixture document. */
    static ObjectNode record() throws Exception {
        GuiTestbed tb = new GuiTestbed().before();
        FakeUiConnection conn = new FakeUiConnection();
        Srv6intTopoMessageHandler h = new Srv6intTopoMessageHandler(tb.app.chainViews(), 0);
        h.init(conn, tb.directory());

        ObjectNode doc = MAPPER.createObjectNode();
        doc.put("generatedBy", GuiFixtureTest.class.getName());
        doc.put("overlayId", Srv6intTopoOverlay.OVERLAY_ID);
        doc.set("topology", topology(tb));
        ArrayNode steps = doc.putArray("steps");
        step(steps, h, conn, "start, before replica", Srv6intTopoMessageHandler.START, "{}");
        step(steps, h, conn, "next chain, before replica", Srv6intTopoMessageHandler.CYCLE, "{\"step\":1}");
        tb.addSnortReplica();
        step(steps, h, conn, "live refresh, after replica", null, null);
        step(steps, h, conn, "decision history, after replica", Srv6intTopoMessageHandler.HISTORY,
                "{\"chainId\":\"2\"}");
        step(steps, h, conn, "back to telemetry, after replica", Srv6intTopoMessageHandler.SELECT,
                "{\"chainId\":\"2\"}");
        step(steps, h, conn, "previous chain, after replica", Srv6intTopoMessageHandler.CYCLE, "{\"step\":-1}");
        tb.failures();
        step(steps, h, conn, "live refresh, after failures", null, null);
        step(steps, h, conn, "next chain, after failures", Srv6intTopoMessageHandler.CYCLE, "{\"step\":1}");
        step(steps, h, conn, "stop", Srv6intTopoMessageHandler.STOP, "{}");
        return doc;
    }

    private static void step(ArrayNode steps, Srv6intTopoMessageHandler h, FakeUiConnection conn,
                             String name, String event, String payload) throws Exception {
        ObjectNode s = steps.addObject().put("name", name);
        if (event == null) {
            s.putNull("request");
            h.refresh();  // what the live-refresh timer does
        } else {
            ObjectNode req = JsonUtils.envelope(event, (ObjectNode) MAPPER.readTree(payload));
            s.set("request", req.deepCopy());
            h.process(req);
        }
        ArrayNode msgs = s.putArray("messages");
        conn.drain().forEach(msgs::add);
    }

    /** The topology as the topology view knows it: ids exactly as ONOS's topo view names elements. */
    private static ObjectNode topology(GuiTestbed tb) {
        ObjectNode t = MAPPER.createObjectNode();
        ArrayNode devs = t.putArray("devices");
        for (Device d : tb.devices.values()) {
            devs.addObject().put("id", d.id().toString()).put("name", d.annotations().value("name"));
        }
        ArrayNode hosts = t.putArray("hosts");
        ArrayNode links = t.putArray("links");
        for (Link l : tb.links) {
            // one entry per bi-link, in the canonical direction the highlighter names it
            if (l.src().deviceId().toString().compareTo(l.dst().deviceId().toString()) < 0) {
                links.addObject().put("id", compactLinkString(l))
                        .put("src", l.src().deviceId().toString()).put("dst", l.dst().deviceId().toString());
            }
        }
        for (Host host : tb.hosts) {
            hosts.addObject().put("id", host.id().toString()).put("name", host.annotations().value("name"))
                    .put("device", host.location().deviceId().toString());
            links.addObject().put("id", compactLinkString(DefaultEdgeLink.createEdgeLink(host, true)))
                    .put("src", host.id().toString()).put("dst", host.location().deviceId().toString());
        }
        return t;
    }

    @Test
    public void committedFixtureMatchesWhatTheHandlerSends() throws Exception {
        ObjectNode now = record();
        String text = MAPPER.writeValueAsString(now) + "\n";
        Path base = Paths.get(System.getProperty("basedir", ".")).toAbsolutePath();
        Path target = base.resolve("target/gui/testbed-messages.json");
        Files.createDirectories(target.getParent());
        Files.write(target, text.getBytes(StandardCharsets.UTF_8));

        Path committed = base.resolve("..").resolve(FIXTURE).normalize();
        if (Boolean.getBoolean("srv6int.gui.updateFixture")) {
            Files.createDirectories(committed.getParent());
            Files.write(committed, text.getBytes(StandardCharsets.UTF_8));
        }
        assertTrue("missing " + committed + ": run mvn -pl app test -Dtest=GuiFixtureTest "
                + "-Dsrv6int.gui.updateFixture=true", Files.exists(committed));
        JsonNode old = MAPPER.readTree(committed.toFile());
        assertEquals(FIXTURE + " is out of date with the overlay's server side: regenerate with "
                + "mvn -pl app test -Dtest=GuiFixtureTest -Dsrv6int.gui.updateFixture=true", now, old);
    }
}
