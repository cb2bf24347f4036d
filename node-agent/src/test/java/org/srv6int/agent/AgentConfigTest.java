// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent;

import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.srv6int.agent.loop.ResourceType;
import org.srv6int.agent.loop.SlackPolicy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

public class AgentConfigTest {

    @Rule
    public TemporaryFolder tmp = new TemporaryFolder();

    private static final String VNF = "{\"name\":\"fwd\",\"sid\":\"fc00:2::10\",\"chainId\":1,\"vnfIndex\":0,"
            + "\"lmaxNs\":1000000,\"podUid\":\"u\",\"containerId\":\"c\"";

    private Path write(String json) throws IOException {
        Path p = tmp.newFile().toPath();
        Files.write(p, json.getBytes(StandardCharsets.UTF_8));
        return p;
    }

    private String error(String json) {
        try {
            AgentConfig.load(write(json));
            fail("accepted " + json);
            return null;
        } catch (IOException e) {
            return e.getMessage();
        }
    }

    @Test
    public void loadsAMinimalConfigWithDefaults() throws IOException {
        AgentConfig c = AgentConfig.load(write("{\"node\":\"w1\",\"vnfs\":[" + VNF + ","
                + "\"initial\":{\"LLC\":4}}],\"resources\":{\"CPU_QUOTA\":{\"step\":50}}}"));
        assertEquals(1500, c.windowSize);
        assertEquals(ResourceType.CPU_QUOTA, c.initialResource);
        assertEquals("127.0.0.1:9464", c.metricsAddress);
        assertEquals(Long.valueOf(50), c.settings(ResourceType.CPU_QUOTA).step);
        assertEquals(Long.valueOf(4), c.vnfs.get(0).initial.get(ResourceType.LLC));
        assertTrue(c.settings(ResourceType.LLC).enabled);
        assertEquals(0.5, c.slackPolicy().freeFraction(), 0);
        assertEquals(0.5, c.slackPolicy().takeFraction(), 0);
        assertEquals(1000, c.slackPolicy().cooldownWindows());
        // the revert horizon and the growing cool-down are on by default (docs/node-agent.md section 2)
        assertEquals(SlackPolicy.DEFAULT.toString(), c.slackPolicy().toString());
        assertEquals(4, c.slackPolicy().revertHorizonWindows());
        assertEquals(1, c.slackPolicy().freeSlackWindows());
        assertEquals(8000, c.slackPolicy().maxCooldownWindows());
        assertEquals(16_000, c.slackPolicy().cooldownResetWindows());
        assertEquals(c.slackPolicy().toString(), c.withVnfs(c.vnfs).slackPolicy().toString());
        assertEquals(1000, c.escalationHoldMs);
        assertEquals(1000, c.withVnfs(c.vnfs).escalationHoldMs);
    }

    @Test
    public void badConfigsGetClearErrors() {
        assertTrue(error("{\"vnfs\":[" + VNF + ",\"lmaxNS\":5}]}").contains("lmaxNS"));
        assertTrue(error("{\"vnfs\":[]}").contains("no vnfs"));
        assertTrue(error("{\"vnfs\":[" + VNF.replace("fc00:2::10", "10.0.0.1") + "}]}").contains("not an IPv6"));
        assertTrue(error("{\"vnfs\":[" + VNF + "}," + VNF + "}]}").contains("duplicate name"));
        assertTrue(error("{\"vnfs\":[" + VNF + ",\"cpus\":\"3-x\"}]}").contains("cpus"));
        assertTrue(error("{\"windowSize\":5,\"vnfs\":[" + VNF + "}]}").contains("windowSize"));
        assertTrue(error("{\"vnfs\":[" + VNF.replace("1000000", "0") + "}]}").contains("lmaxNs"));
        assertTrue(error("{\"initialResource\":\"GPU\",\"vnfs\":[" + VNF + "}]}").contains("GPU"));
        assertTrue(error("{\"vnfs\":[" + VNF + "}").length() > 0);
        assertTrue(error("{\"freeSlackFraction\":1.0,\"vnfs\":[" + VNF + "}]}").contains("free slack fraction"));
        assertTrue(error("{\"takeSlackFraction\":-0.1,\"vnfs\":[" + VNF + "}]}").contains("take slack fraction"));
        assertTrue(error("{\"donorCooldownWindows\":-1,\"vnfs\":[" + VNF + "}]}").contains("cool-down"));
        assertTrue(error("{\"revertHorizonWindows\":-1,\"vnfs\":[" + VNF + "}]}").contains("revert horizon"));
        assertTrue(error("{\"freeSlackWindows\":0,\"vnfs\":[" + VNF + "}]}").contains("free slack windows"));
        assertTrue(error("{\"donorCooldownWindows\":100,\"maxDonorCooldownWindows\":50,\"vnfs\":[" + VNF
                + "}]}").contains("maximum donor cool-down (50 windows) must be >= the donor cool-down (100)"));
        assertTrue(error("{\"cooldownResetWindows\":-3,\"vnfs\":[" + VNF + "}]}").contains("cool-down reset"));
        assertTrue(error("{\"numa\":{\"intervalMs\":5},\"vnfs\":[" + VNF + "}]}").contains("numa.intervalMs"));
        assertTrue(error("{\"numa\":{\"maxViolation\":3},\"vnfs\":[" + VNF + "}]}").contains("maxViolation"));
        assertTrue(error("{\"numa\":{\"maxViolations\":-1},\"vnfs\":[" + VNF + "}]}").contains("maxViolations"));
        assertTrue(error("{\"escalationHoldMs\":-1,\"vnfs\":[" + VNF
                + "}]}").contains("escalationHoldMs must be >= 0"));
        assertTrue(error("{\"escalationIntervalMs\":-5,\"vnfs\":[" + VNF + "}]}").contains("escalationIntervalMs"));
        assertTrue(error("{\"trialTimeoutMs\":0,\"vnfs\":[" + VNF + "}]}").contains("trialTimeoutMs must be positive"));
        assertTrue(error("{\"numa\":null,\"vnfs\":[" + VNF + "}]}").contains("numa"));
        // refused when loaded, not by the HTTP client on the loop's thread when it first sends
        assertTrue(error("{\"escalationUrl\":\"ftp://onos/escalations\",\"vnfs\":[" + VNF + "}]}")
                .contains("escalationUrl must be an http"));
        assertTrue(error("{\"escalationUrl\":\"onos:8181/escalations\",\"vnfs\":[" + VNF + "}]}")
                .contains("escalationUrl"));
        assertTrue(error("{\"escalationUrl\":\"http://on os/x\",\"vnfs\":[" + VNF + "}]}")
                .contains("escalationUrl is not a URL"));
    }

    @Test
    public void numaIsOffByDefaultAndTakesItsKnobs() throws IOException {
        assertTrue(!AgentConfig.load(write("{\"vnfs\":[" + VNF + "}]}")).numa.enabled);
        AgentConfig c = AgentConfig.load(write("{\"numa\":{\"enabled\":true,\"maxViolations\":5},\"vnfs\":["
                + VNF + ",\"type\":\"router\"}]}"));
        assertTrue(c.numa.enabled);
        assertEquals(5, c.numa.settings().maxViolations);
        assertEquals("router", c.vnfs.get(0).type);
        assertTrue(c.withVnfs(c.vnfs).numa.enabled);
    }
}
