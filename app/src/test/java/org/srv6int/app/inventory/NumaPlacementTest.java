// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.inventory;

import java.io.IOException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.Test;
import org.onosproject.net.DeviceId;
import org.onosproject.net.config.InvalidFieldException;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.api.model.VnfReplicaId;
import org.srv6int.app.config.ServerNuma;
import org.srv6int.app.config.Srv6DeviceConfig;
import org.srv6int.app.config.Srv6Devices;
import org.srv6int.app.testing.AppHarness;
import org.srv6int.app.testing.PaperTestbed;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;
import static org.srv6int.app.testing.PaperTestbed.SFC1;
import static org.srv6int.app.testing.PaperTestbed.SFC2;

/**
 * The NUMA node of a new replica on its server: the chain's node, else the NIC's, else the
 * freest, with free CPU there; and the same choice made by the app's inventory when it reserves
 * a replica on a server whose NUMA layout netcfg states.
 */
public class NumaPlacementTest {

    private static final SfcId A = SfcId.of(1);
    private static final SfcId B = SfcId.of(2);
    /** Two NUMA nodes of 4 cores, NIC on node 0 (the paper's servers have two nodes). */
    private static final ServerNuma TWO = new ServerNuma(0, List.of(4000L, 4000L));

    private static NumaPlacement.Resident on(SfcId chain, int node, long cpu) {
        return new NumaPlacement.Resident(chain, node, cpu);
    }

    @Test
    public void theChainsNodeIsChosenOverTheNicsNode() {
        // Chain A runs on node 1 (e.g. moved there earlier); node 0 (the NIC's) is emptier.
        NumaPlacement.Choice c = NumaPlacement.choose("w1", TWO, List.of(on(A, 1, 1000), on(A, 1, 1000)), A, 1000);
        assertEquals(1, c.node());
        assertTrue(c.reason(), c.reason().contains("chain 1 has 2 replica(s) on NUMA node 1 of w1"));
        // Another chain with nothing here goes to the NIC's node.
        assertEquals(0, NumaPlacement.choose("w1", TWO, List.of(on(A, 1, 1000)), B, 1000).node());
    }

    @Test
    public void aFullChainNodeFallsBackToTheNicsNodeThenTheFreest() {
        NumaPlacement.Choice c = NumaPlacement.choose("w1", TWO, List.of(on(A, 1, 3500)), A, 1000);
        assertEquals(0, c.node());
        assertTrue(c.reason(), c.reason().startsWith("chain 1's NUMA node 1 of w1 has 500m free < 1000m;"));
        // NIC's node full, chain nowhere: the other node.
        ServerNuma three = new ServerNuma(1, List.of(2000L, 4000L, 3000L));
        NumaPlacement.Choice d = NumaPlacement.choose("w1", three, List.of(on(B, 1, 3500), on(B, 2, 500)), A, 1000);
        // Node 1 (the NIC's) has 500m free, node 0 2000m, node 2 2500m: the freest that fits.
        assertEquals(2, d.node());
        assertTrue(d.reason(), d.reason().contains("the NIC's NUMA node 1 has 500m free < 1000m; NUMA node 2"));
    }

    @Test
    public void nothingFitsGivesNoNodeAndTheAgentPlaces() {
        NumaPlacement.Choice c = NumaPlacement.choose("w1", TWO, List.of(on(A, 0, 4000), on(B, 1, 3600)), A, 1000);
        assertEquals(-1, c.node());
        assertTrue(c.reason(), c.reason().contains("no NUMA node of w1 has 1000m free (free [0, 400]m)"));
        // A resident without a NUMA node counts on none; an unknown request (0) fits anywhere.
        assertEquals(0, NumaPlacement.choose("w1", TWO, List.of(on(A, -1, 4000)), B, 4000).node());
        assertEquals(1, NumaPlacement.choose("w1", TWO, List.of(on(A, 1, 4000)), A, 0).node());
    }

    @Test
    public void tiesBetweenChainNodesGoToTheNicsNode() {
        ServerNuma nicOnOne = new ServerNuma(1, List.of(4000L, 4000L));
        assertEquals(1, NumaPlacement.choose("w1", nicOnOne, List.of(on(A, 0, 500), on(A, 1, 500)), A, 500).node());
    }

    /**
     * The app's inventory on the paper testbed, worker1 with two NUMA nodes of 4 cores and its NIC
     * on node 0: a reserved replica gets the chain's node, which its pod then asks for.
     */
    @Test
    public void theInventoryPlacesANewReplicaOnItsChainsNumaNode() throws Exception {
        AppHarness app = new AppHarness();
        app.deployFig5();
        app.config.devices = withNuma("worker1", "{\"nicNode\": 0, \"cpuMillis\": [4000, 4000]}");
        ObjectNode appJson = (ObjectNode) PaperTestbed.netcfg().get("apps").get("org.srv6int.app").get("srv6int");
        appJson.set("kubernetes", new ObjectMapper().readTree(
                "{\"kubeconfig\": \"/k\", \"vnfTypes\": {"
                        + "\"snort\": {\"image\": \"s:1\", \"requests\": {\"cpu\": \"2\"}},"
                        + "\"fwd\": {\"image\": \"f:1\", \"requests\": {\"cpu\": \"1\"}},"
                        + "\"ndpi\": {\"image\": \"n:1\", \"requests\": {\"cpu\": \"1\"}}}}"));
        app.config.app = PaperTestbed.appConfig(appJson);
        VnfKey snort = VnfKey.of(SFC2, 0);
        VnfKey fwd = VnfKey.of(SFC1, 0);
        VnfKey ndpi = VnfKey.of(SFC1, 1);
        // The Fig. 5 replicas were registered before the layout: on no NUMA node, counted on none.
        assertEquals(VnfReplica.NO_NUMA_NODE,
                     app.inventory.getReplica(VnfReplicaId.of(snort, "r0")).orElseThrow().numaNode());
        // Two Snort replicas (2 cores each): the NIC's node, then the chain's, which fills it.
        assertEquals(0, app.inventory.reserveReplica(snort, "worker1", "sfc-2-vnf0-r1").numaNode());
        assertEquals(0, app.inventory.reserveReplica(snort, "worker1", "sfc-2-vnf0-r2").numaNode());
        // SFC 1's Fwd: the NIC's node is full, so node 1; its nDPI then joins it there.
        assertEquals(1, app.inventory.reserveReplica(fwd, "worker1", "sfc-1-vnf0-r1").numaNode());
        assertEquals(1, app.inventory.reserveReplica(ndpi, "worker1", "sfc-1-vnf1-r1").numaNode());
        // With node 0 free again, SFC 1 still gets its chain's node 1, not the NIC's emptier one.
        app.inventory.removeReplica(VnfReplicaId.of(snort, "sfc-2-vnf0-r1"));
        app.inventory.removeReplica(VnfReplicaId.of(snort, "sfc-2-vnf0-r2"));
        VnfReplica again = app.inventory.reserveReplica(fwd, "worker1", "sfc-1-vnf0-r2");
        assertEquals(1, again.numaNode());
        // A repeated reservation (a new leader) keeps the identity, NUMA node included.
        assertEquals(again, app.inventory.reserveReplica(fwd, "worker1", "sfc-1-vnf0-r2"));
        // worker2 states no layout: no NUMA node (its node agent places the pod).
        assertEquals(VnfReplica.NO_NUMA_NODE,
                     app.inventory.reserveReplica(snort, "worker2", "sfc-2-vnf0-r3").numaNode());
    }

    @Test
    public void badLayoutsAreRejectedNamingTheField() {
        rejects("{\"nicNode\": 0, \"cpuMillis\": [4000]}", "servers[0].numa.cpuMillis");
        rejects("{\"nicNode\": 2, \"cpuMillis\": [4000, 4000]}", "servers[0].numa.nicNode");
        rejects("{\"nicNode\": 0, \"cpuMillis\": [4000, -1]}", "servers[0].numa.cpuMillis[1]");
        rejects("{\"nicNode\": 0, \"cpuMillis\": [4000, 4000], \"cores\": 8}", "servers[0].numa.cores");
        rejects("{\"cpuMillis\": [4000, 4000]}", "servers[0].numa.nicNode");
    }

    private static void rejects(String numa, String field) {
        try {
            withNuma("worker1", numa).get(PaperTestbed.SW2).orElseThrow().validate();
            fail("accepted " + numa);
        } catch (InvalidFieldException e) {
            assertTrue(e.getMessage(), e.getMessage().contains(field));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** The fixture's device configs with a NUMA layout on one server. */
    private static Srv6Devices withNuma(String node, String numa) throws IOException {
        Map<DeviceId, Srv6DeviceConfig> map = new HashMap<>();
        JsonNode devices = PaperTestbed.netcfg().get("devices");
        JsonNode layout = new ObjectMapper().readTree(numa);
        devices.fieldNames().forEachRemaining(n -> {
            JsonNode cfg = devices.get(n).get("srv6int");
            for (JsonNode s : cfg.path("servers")) {
                if (s.path("node").asText().equals(node)) {
                    ((ObjectNode) s).set("numa", layout);
                }
            }
            map.put(DeviceId.deviceId(n), PaperTestbed.deviceConfig(DeviceId.deviceId(n), cfg));
        });
        return new Srv6Devices(map);
    }
}
