// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.Test;
import org.onlab.packet.IpAddress;
import org.onlab.packet.MacAddress;
import org.onosproject.net.config.InvalidFieldException;
import org.srv6int.app.testing.PaperTestbed;

import java.util.List;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * Netcfg validation names the bad field and says why; defaults apply.
 */
public class Srv6IntConfigTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static ObjectNode sw2() {
        return PaperTestbed.netcfg().get("devices").get("of:0000000000000002").get("srv6int").deepCopy();
    }

    private static void assertRejected(JsonNode json, String field, String reasonPart) {
        try {
            PaperTestbed.deviceConfig(PaperTestbed.SW2, json).isValid();
            fail("accepted " + json);
        } catch (InvalidFieldException e) {
            assertEquals(field, e.field());
            assertTrue(e.reason(), e.reason().contains(reasonPart));
        }
    }

    @Test
    public void fixtureIsValidAndReadsBack() {
        Srv6DeviceConfig c = PaperTestbed.deviceConfig(PaperTestbed.SW2, sw2());
        assertTrue(c.isValid());
        assertEquals(2, c.intDeviceId());
        assertEquals("fc00:0:2::d", c.dtSid().toString());
        assertEquals("worker1", c.servers().get(0).node());
        assertTrue(PaperTestbed.appConfig().isValid());
        assertEquals(32766, PaperTestbed.appConfig().collectorPort());
    }

    @Test
    public void badDeviceFieldsAreNamed() {
        assertRejected(sw2().put("mySid", "10.0.0.1"), "mySid", "INET6");
        assertRejected(sw2().put("mySid", "nope"), "mySid", "not an IP address");
        assertRejected(sw2().put("dtSid", "fc00:0:2::1"), "dtSid", "must differ");
        assertRejected(sw2().put("intDeviceId", 70000), "intDeviceId", "1..65535");
        assertRejected(sw2().put("myMac", "zz"), "myMac", "not a MAC");
        assertRejected(sw2().put("colour", "red"), "colour", "unknown field");
        ObjectNode noPrefix = sw2();
        noPrefix.remove("vnfSidPrefix");
        assertRejected(noPrefix, "vnfSidPrefix", "is required");
        ObjectNode badPort = sw2();
        ((ObjectNode) badPort.get("servers").get(0)).put("port", 0);
        assertRejected(badPort, "servers[0].port", "1..510");
        ObjectNode dup = sw2();
        dup.withArray("servers").add(dup.get("servers").get(0).deepCopy());
        assertRejected(dup, "servers[1].node", "duplicate");
        ObjectNode host = sw2();
        host.putArray("hosts").addObject().put("prefix", "10.0.0.0/40").put("port", 4).put("mac", "00:00:00:00:00:01");
        assertRejected(host, "hosts[0].prefix", "not an IP prefix");
    }

    @Test
    public void badAppFieldsAreNamedAndDefaultsApply() throws Exception {
        Srv6IntAppConfig empty = PaperTestbed.appConfig(MAPPER.readTree("{}"));
        assertTrue(empty.isValid());
        assertEquals(4000, empty.tHatMillis());
        assertFalse(empty.collectorAddress().isPresent());
        // Knobs the app never honoured are gone from the schema: an old config says which field.
        for (String[] gone : new String[][] {{"{\"loop\": {\"windowPackets\": 1500}}", "loop.windowPackets"},
                                             {"{\"resourceSteps\": {\"llcWays\": 1}}", "resourceSteps"}}) {
            try {
                PaperTestbed.appConfig(MAPPER.readTree(gone[0])).isValid();
                fail(gone[0]);
            } catch (InvalidFieldException e) {
                assertTrue(e.getMessage(), e.getMessage().contains(gone[1]));
            }
        }
        assertTrue(empty.demandFromHealthyTail());
        assertFalse(PaperTestbed.appConfig(MAPPER.readTree("{\"loop\": {\"demandLatency\": \"measured\"}}"))
                .demandFromHealthyTail());
        try {
            PaperTestbed.appConfig(MAPPER.readTree("{\"loop\": {\"demandLatency\": \"max\"}}")).isValid();
            fail();
        } catch (InvalidFieldException e) {
            assertEquals("loop.demandLatency", e.field());
        }
        try {
            PaperTestbed.appConfig(MAPPER.readTree("{\"loop\": {\"tHatMs\": 0}}")).isValid();
            fail();
        } catch (InvalidFieldException e) {
            assertEquals("loop.tHatMs", e.field());
        }
        try {
            PaperTestbed.appConfig(MAPPER.readTree("{\"collector\": {\"address\": \"10.0.0.1\"}}")).isValid();
            fail();
        } catch (InvalidFieldException e) {
            assertEquals("collector.mac", e.field());
        }
    }

    private static void assertAppRejected(String json, String field) throws Exception {
        try {
            PaperTestbed.appConfig(MAPPER.readTree(json)).isValid();
            fail("accepted " + json);
        } catch (InvalidFieldException e) {
            assertEquals(json, field, e.field());
        }
    }

    @Test
    public void failureKnobsHaveDefaultsAndBadValuesAreRefusedByPath() throws Exception {
        Srv6IntAppConfig d = PaperTestbed.appConfig(MAPPER.readTree("{}"));
        assertEquals(3000, d.silenceMillis());
        assertEquals(3000, d.replicaSilenceMillis());
        assertEquals(5000, d.returnHoldMillis());
        Srv6IntAppConfig c = PaperTestbed.appConfig(MAPPER.readTree(
                "{\"loop\": {\"evaluationPeriodMs\": 250, \"silenceMs\": 500, \"replicaSilenceMs\": 0,"
                        + " \"returnHoldMs\": 0}}"));
        assertTrue(c.isValid());
        assertEquals(500, c.silenceMillis());
        assertEquals(0, c.replicaSilenceMillis());
        assertEquals(0, c.returnHoldMillis());
        // replicaSilenceMs follows silenceMs unless set
        assertEquals(7000, PaperTestbed.appConfig(MAPPER.readTree("{\"loop\": {\"silenceMs\": 7000}}"))
                .replicaSilenceMillis());
        // shorter than two windows: a chain would be down between two reports
        assertAppRejected("{\"loop\": {\"silenceMs\": 999}}", "loop.silenceMs");
        assertAppRejected("{\"loop\": {\"evaluationPeriodMs\": 2000, \"silenceMs\": 3000}}", "loop.silenceMs");
        assertAppRejected("{\"loop\": {\"silenceMs\": \"3s\"}}", "loop.silenceMs");
        assertAppRejected("{\"loop\": {\"replicaSilenceMs\": 600}}", "loop.replicaSilenceMs");
        assertAppRejected("{\"loop\": {\"replicaSilenceMs\": -1}}", "loop.replicaSilenceMs");
        assertAppRejected("{\"loop\": {\"returnHoldMs\": -5}}", "loop.returnHoldMs");
        assertAppRejected("{\"loop\": {\"silence\": 3000}}", "loop.silence");
    }

    @Test
    public void drainKnobsHaveDefaultsAndBadValuesAreRefusedByPath() throws Exception {
        Srv6IntAppConfig d = PaperTestbed.appConfig(MAPPER.readTree("{}"));
        assertEquals(10_000, d.drainIdleMillis());
        assertEquals(60_000, d.drainDeadlineMillis());
        assertEquals(10_000, d.bucketHoldMillis());
        Srv6IntAppConfig c = PaperTestbed.appConfig(MAPPER.readTree(
                "{\"loop\": {\"drainIdleMs\": 2000, \"drainDeadlineMs\": 2000, \"bucketHoldMs\": 0}}"));
        assertTrue(c.isValid());
        assertEquals(2000, c.drainIdleMillis());
        assertEquals(2000, c.drainDeadlineMillis());
        assertEquals(0, c.bucketHoldMillis());
        assertAppRejected("{\"loop\": {\"drainIdleMs\": 0}}", "loop.drainIdleMs");
        assertAppRejected("{\"loop\": {\"drainIdleMs\": \"10s\"}}", "loop.drainIdleMs");
        assertAppRejected("{\"loop\": {\"drainDeadlineMs\": 3600001}}", "loop.drainDeadlineMs");
        assertAppRejected("{\"loop\": {\"bucketHoldMs\": -1}}", "loop.bucketHoldMs");
        // a deadline before the idle time would force every drain
        assertAppRejected("{\"loop\": {\"drainIdleMs\": 5000, \"drainDeadlineMs\": 4000}}", "loop.drainDeadlineMs");
        // idle above the default deadline without a deadline: the idle time is what is wrong
        assertAppRejected("{\"loop\": {\"drainIdleMs\": 70000}}", "loop.drainIdleMs");
    }

    @Test
    public void pushAsideIsOffByDefaultAndOnlyABooleanSwitchesIt() throws Exception {
        assertFalse(PaperTestbed.appConfig(MAPPER.readTree("{}")).pushAside());
        Srv6IntAppConfig on = PaperTestbed.appConfig(MAPPER.readTree("{\"loop\": {\"pushAside\": true}}"));
        assertTrue(on.isValid());
        assertTrue(on.pushAside());
        assertAppRejected("{\"loop\": {\"pushAside\": \"yes\"}}", "loop.pushAside");
        assertAppRejected("{\"loop\": {\"pushAside\": 1}}", "loop.pushAside");
        assertAppRejected("{\"loop\": {\"pushaside\": true}}", "loop.pushaside");
    }

    @Test
    public void cpuRequestOfAVnfTypeIsReadInMillicores() throws Exception {
        Srv6IntAppConfig c = PaperTestbed.appConfig(MAPPER.readTree(
                "{\"kubernetes\": {\"apiServer\": \"https://k8s:6443\", \"tokenFile\": \"/t\", \"vnfTypes\": {"
                        + " \"snort\": {\"image\": \"s:1\", \"requests\": {\"cpu\": \"1.5\"}},"
                        + " \"ndpi\": {\"image\": \"n:1\", \"requests\": {\"cpu\": \"500m\"}},"
                        + " \"ovs\": {\"image\": \"o:1\"}}}}"));
        assertTrue(c.isValid());
        assertEquals(1500, c.kubernetes().orElseThrow().cpuRequestMillis("snort"));
        assertEquals(500, c.kubernetes().orElseThrow().cpuRequestMillis("ndpi"));
        assertEquals(0, c.kubernetes().orElseThrow().cpuRequestMillis("ovs"));
        assertEquals(0, c.kubernetes().orElseThrow().cpuRequestMillis("nat"));
    }

    @Test
    public void aVnfTypesProfileGivesItsNeedAndBadProfilesAreRejected() throws Exception {
        String k = "{\"kubernetes\": {\"apiServer\": \"https://k8s:6443\", \"tokenFile\": \"/t\", \"vnfTypes\": {"
                + " \"snort\": {\"image\": \"s:1\", \"requests\": {\"cpu\": \"2.5\"}, \"profile\": %s}}}}";
        Srv6IntAppConfig c = PaperTestbed.appConfig(MAPPER.readTree(
                String.format(k, "{\"llcWays\": 3, \"memoryBandwidthPercent\": 25}")));
        assertTrue(c.isValid());
        org.srv6int.app.api.model.ResourceNeed n = c.kubernetes().orElseThrow().need("snort");
        assertEquals(2500, n.cpuMillis());
        assertEquals(3, n.llcWays());
        assertEquals(25, n.memoryBandwidthPercent());
        assertEquals(0, c.kubernetes().orElseThrow().need("ndpi").llcWays());
        assertAppRejected(String.format(k, "{\"llcWays\": -1}"), "kubernetes.vnfTypes.snort.profile.llcWays");
        assertAppRejected(String.format(k, "{\"memoryBandwidthPercent\": 101}"),
                          "kubernetes.vnfTypes.snort.profile.memoryBandwidthPercent");
        assertAppRejected(String.format(k, "{\"ways\": 3}"), "kubernetes.vnfTypes.snort.profile.ways");
    }

    @Test
    public void aVnfTypesCapabilitiesAreReadAndOthersRejected() throws Exception {
        String k = "{\"kubernetes\": {\"apiServer\": \"https://k8s:6443\", \"tokenFile\": \"/t\", \"vnfTypes\": {"
                + " \"snort\": {\"image\": \"s:1\", \"capabilities\": %s}, \"fwd\": {\"image\": \"f:1\"}}}}";
        Srv6IntAppConfig c = PaperTestbed.appConfig(MAPPER.readTree(String.format(k, "[\"NET_RAW\", \"NET_ADMIN\"]")));
        assertTrue(c.isValid());
        assertEquals(List.of("NET_RAW", "NET_ADMIN"),
                     c.kubernetes().orElseThrow().template("snort").orElseThrow().capabilities());
        assertTrue(c.kubernetes().orElseThrow().template("fwd").orElseThrow().capabilities().isEmpty());
        assertAppRejected(String.format(k, "[\"SYS_ADMIN\"]"), "kubernetes.vnfTypes.snort.capabilities");
        assertAppRejected(String.format(k, "\"NET_RAW\""), "kubernetes.vnfTypes.snort.capabilities");
    }

    @Test
    public void collectorPerClusterInstanceAndThreads() throws Exception {
        Srv6IntAppConfig c = PaperTestbed.appConfig(MAPPER.readTree(
                "{\"collector\": {\"mac\": \"00:00:00:00:00:fe\", \"port\": 32766, \"threads\": 3,"
                        + " \"instances\": {\"onos-1\": {\"address\": \"192.168.0.11\"},"
                        + " \"onos-2\": {\"address\": \"192.168.0.12\", \"mac\": \"00:00:00:00:00:f2\","
                        + " \"port\": 32767}}}}"));
        assertTrue(c.isValid());
        assertEquals(3, c.collectorThreads());
        assertEquals(new CollectorEndpoint(IpAddress.valueOf("192.168.0.11"), MacAddress.valueOf("00:00:00:00:00:fe"),
                                           32766), c.collectorOf("onos-1").orElseThrow());
        assertEquals(new CollectorEndpoint(IpAddress.valueOf("192.168.0.12"), MacAddress.valueOf("00:00:00:00:00:f2"),
                                           32767), c.collectorOf("onos-2").orElseThrow());
        // An instance without an entry and no top-level address has no collector: no reports to it.
        assertFalse(c.collectorOf("onos-3").isPresent());
        assertTrue(c.collectorPerInstance());
        assertEquals(Math.max(1, Runtime.getRuntime().availableProcessors() - 1),
                     PaperTestbed.appConfig().collectorThreads());

        assertAppRejected("{\"collector\": {\"threads\": 0}}", "collector.threads");
        assertAppRejected("{\"collector\": {\"mac\": \"00:00:00:00:00:fe\", \"instances\": {\"onos-1\": 5}}}",
                          "collector.instances.onos-1");
        assertAppRejected("{\"collector\": {\"mac\": \"00:00:00:00:00:fe\", \"instances\": {\"onos-1\":"
                                  + " {\"address\": \"192.168.0.11\", \"port\": 70000}}}}",
                          "collector.instances.onos-1.port");
        assertAppRejected("{\"collector\": {\"mac\": \"00:00:00:00:00:fe\", \"instances\": {\"onos-1\":"
                                  + " {\"port\": 32766}}}}", "collector.instances.onos-1.address");
        assertAppRejected("{\"collector\": {\"instances\": {\"onos-1\": {\"address\": \"192.168.0.11\"}}}}",
                          "collector.instances.onos-1.mac");
        assertAppRejected("{\"collector\": {\"mac\": \"00:00:00:00:00:fe\", \"instances\": {\"onos-1\":"
                                  + " {\"address\": \"192.168.0.11\", \"host\": \"x\"}}}}",
                          "collector.instances.onos-1.host");
    }

    @Test
    public void collectorLimitsHaveDefaultsAndBadValuesAreRefusedByPath() throws Exception {
        Srv6IntAppConfig d = PaperTestbed.appConfig(MAPPER.readTree("{}"));
        assertEquals(256, d.collectorMaxReporters());
        assertEquals(128, d.collectorMaxVnfs());
        assertEquals(1024, d.collectorMaxReplicas());
        assertEquals(128, d.collectorMaxChains());
        Srv6IntAppConfig c = PaperTestbed.appConfig(MAPPER.readTree(
                "{\"collector\": {\"maxReporters\": 300, \"maxVnfs\": 512, \"maxReplicas\": 65536,"
                        + " \"maxChains\": 65535}}"));
        assertTrue(c.isValid());
        assertEquals(300, c.collectorMaxReporters());
        assertEquals(512, c.collectorMaxVnfs());
        assertEquals(65536, c.collectorMaxReplicas());
        assertEquals(65535, c.collectorMaxChains());

        assertAppRejected("{\"collector\": {\"maxReporters\": 0}}", "collector.maxReporters");
        assertAppRejected("{\"collector\": {\"maxReporters\": 65537}}", "collector.maxReporters");
        assertAppRejected("{\"collector\": {\"maxVnfs\": -1}}", "collector.maxVnfs");
        assertAppRejected("{\"collector\": {\"maxVnfs\": 1000000}}", "collector.maxVnfs");
        assertAppRejected("{\"collector\": {\"maxVnfs\": \"512\"}}", "collector.maxVnfs");
        assertAppRejected("{\"collector\": {\"maxReplicas\": 0}}", "collector.maxReplicas");
        assertAppRejected("{\"collector\": {\"maxReplicas\": 65537}}", "collector.maxReplicas");
        assertAppRejected("{\"collector\": {\"maxChains\": 0}}", "collector.maxChains");
        // a chain is an SRH Tag, 1..65535
        assertAppRejected("{\"collector\": {\"maxChains\": 65536}}", "collector.maxChains");
        assertAppRejected("{\"collector\": {\"maxVnfs\": 2.5}}", "collector.maxVnfs");
    }

    @Test
    public void collectorOnTheWildcardAddressIsRefusedByPath() throws Exception {
        // issue 31: the collector binds the netcfg address only, never every interface
        assertAppRejected("{\"collector\": {\"address\": \"0.0.0.0\", \"mac\": \"00:00:00:00:00:fe\"}}",
                          "collector.address");
        assertAppRejected("{\"collector\": {\"mac\": \"00:00:00:00:00:fe\", \"instances\": {\"onos-1\":"
                                  + " {\"address\": \"0.0.0.0\"}}}}", "collector.instances.onos-1.address");
        assertTrue(PaperTestbed.appConfig(MAPPER.readTree("{\"collector\": {\"address\": \"192.168.0.10\","
                                                                  + " \"mac\": \"00:00:00:00:00:fe\"}}")).isValid());
    }
}
