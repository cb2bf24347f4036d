// SPDX-License-Identifier: Apache-2.0
package org.srv6int.pipeconf;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.math.BigInteger;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.BeforeClass;
import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip6Address;
import org.onlab.packet.MacAddress;
import org.onosproject.net.PortNumber;
import org.onosproject.net.pi.model.PiActionId;
import org.onosproject.net.pi.model.PiActionParamId;
import org.onosproject.net.pi.model.PiActionProfileId;
import org.onosproject.net.pi.model.PiCounterId;
import org.onosproject.net.pi.model.PiMatchFieldId;
import org.onosproject.net.pi.model.PiPacketMetadataId;
import org.onosproject.net.pi.model.PiRegisterId;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiActionParam;
import p4.config.v1.P4InfoOuterClass.Action;
import p4.config.v1.P4InfoOuterClass.ControllerPacketMetadata;
import p4.config.v1.P4InfoOuterClass.MatchField;
import p4.config.v1.P4InfoOuterClass.P4Info;
import p4.config.v1.P4InfoOuterClass.Register;
import p4.config.v1.P4InfoOuterClass.Table;

/**
 * Checks every name and width the Java code uses against the committed p4info
 * (and the clone sessions against the BMv2 JSON), so a change of the P4
 * program that the pipeconf or app do not follow fails here, not on a switch.
 */
public class P4InfoContractTest {

    private static P4Info p4info;
    private static Map<String, Table> tables;
    private static Map<String, Action> actions;

    @BeforeClass
    public static void load() throws Exception {
        p4info = Artefacts.p4info();
        tables = p4info.getTablesList().stream()
                .collect(Collectors.toMap(t -> t.getPreamble().getName(), t -> t));
        actions = p4info.getActionsList().stream()
                .collect(Collectors.toMap(a -> a.getPreamble().getName(), a -> a));
    }

    /** Every constant of the generated class names something of the p4info, with its width. */
    @Test
    public void everyGeneratedConstantExistsWithItsWidth() throws Exception {
        Map<String, Integer> widths = new HashMap<>();
        for (Field f : Srv6IntConstants.class.getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == int.class) {
                widths.put(f.getName(), f.getInt(null));
            }
        }
        int checked = 0;
        for (Field f : Srv6IntConstants.class.getDeclaredFields()) {
            if (!Modifier.isStatic(f.getModifiers()) || f.getType() == int.class) {
                continue;
            }
            Object v = f.get(null);
            Integer width = widths.get(f.getName() + "_BITWIDTH");
            if (v instanceof PiTableId) {
                assertTrue(f.getName(), tables.containsKey(((PiTableId) v).id()));
            } else if (v instanceof PiActionId) {
                assertTrue(f.getName(), actions.containsKey(((PiActionId) v).id()));
            } else if (v instanceof PiMatchFieldId) {
                assertEquals(f.getName(), Set.of(width), matchFieldWidths(((PiMatchFieldId) v).id()));
            } else if (v instanceof PiActionParamId) {
                assertEquals(f.getName(), Set.of(width), paramWidths(((PiActionParamId) v).id()));
            } else if (v instanceof PiCounterId) {
                String id = ((PiCounterId) v).id();
                assertTrue(f.getName(), p4info.getCountersList().stream()
                        .anyMatch(c -> c.getPreamble().getName().equals(id))
                        || p4info.getDirectCountersList().stream()
                        .anyMatch(c -> c.getPreamble().getName().equals(id)));
            } else if (v instanceof PiRegisterId) {
                assertEquals(f.getName(), (int) width,
                        register(((PiRegisterId) v).id()).getTypeSpec().getBitstring().getBit().getBitwidth());
            } else if (v instanceof PiActionProfileId) {
                String id = ((PiActionProfileId) v).id();
                assertTrue(f.getName(), p4info.getActionProfilesList().stream()
                        .anyMatch(a -> a.getPreamble().getName().equals(id)));
            } else if (v instanceof PiPacketMetadataId) {
                assertEquals(f.getName(), Set.of(width), packetMetadataWidths(((PiPacketMetadataId) v).id()));
            } else {
                throw new AssertionError("unexpected constant type " + f);
            }
            checked++;
        }
        assertTrue("too few constants checked: " + checked, checked > 60);
    }

    /** Each action Srv6IntActions builds has exactly the p4info's parameters, each value fitting. */
    @Test
    public void actionBuildersMatchTheirP4Actions() {
        MacAddress mac = MacAddress.valueOf("02:00:00:00:00:01");
        Ip6Address sid = Ip6Address.valueOf("fc00:0:1::1");
        List<PiAction> built = List.of(
                Srv6IntActions.setSwitchInfo(65535, sid, mac),
                Srv6IntActions.setChain(65535, true, 0x1F, 65535),
                Srv6IntActions.hEncapsInt(List.of(sid, sid, sid, sid, sid, sid, sid)),
                Srv6IntActions.endTInt(),
                Srv6IntActions.endTIntSfc(Srv6IntPipelineConstants.MAX_VNFS - 1, PortNumber.portNumber(511), mac),
                Srv6IntActions.endDtInt(),
                Srv6IntActions.setNextHop(PortNumber.portNumber(511), mac),
                Srv6IntActions.routingDrop(),
                Srv6IntActions.ndpNsToNa(mac),
                Srv6IntActions.puntToCpu(),
                Srv6IntActions.cloneToCpu(),
                Srv6IntActions.aclDrop(),
                Srv6IntActions.setReportConfig(mac, mac, Ip4Address.valueOf("10.0.100.4"),
                        Ip4Address.valueOf("10.0.100.1"), 65535, 32766, 65535));
        assertEquals(Srv6IntActions.actionIds(),
                built.stream().map(PiAction::id).collect(Collectors.toList()));
        for (PiAction a : built) {
            Action p4 = actions.get(a.id().id());
            assertNotNull(a.id().id(), p4);
            Map<String, Integer> expected = p4.getParamsList().stream()
                    .collect(Collectors.toMap(Action.Param::getName, Action.Param::getBitwidth));
            Set<String> got = new TreeSet<>();
            for (PiActionParam p : a.parameters()) {
                got.add(p.id().id());
                Integer w = expected.get(p.id().id());
                assertNotNull(a.id() + " has no parameter " + p.id(), w);
                assertTrue(p.id() + " does not fit " + w + " bits",
                        new BigInteger(1, p.value().asArray()).bitLength() <= w);
            }
            assertEquals(a.id().id(), new TreeSet<>(expected.keySet()), got);
        }
    }

    /** Tables the Java code writes offer the actions it writes into them. */
    @Test
    public void tablesOfferTheActionsTheJavaCodeWrites() {
        assertTableActions(Srv6IntConstants.SRV6_INT_INGRESS_SWITCH_INFO,
                Srv6IntConstants.SRV6_INT_INGRESS_SET_SWITCH_INFO);
        assertTableActions(Srv6IntConstants.SRV6_INT_INGRESS_ACL_ACL,
                Srv6IntConstants.SRV6_INT_INGRESS_ACL_PUNT_TO_CPU,
                Srv6IntConstants.SRV6_INT_INGRESS_ACL_CLONE_TO_CPU,
                Srv6IntConstants.SRV6_INT_INGRESS_ACL_DROP);
        assertTableActions(Srv6IntConstants.SRV6_INT_INGRESS_NDP_NDP_REPLY,
                Srv6IntConstants.SRV6_INT_INGRESS_NDP_NDP_NS_TO_NA);
        assertTableActions(Srv6IntConstants.SRV6_INT_INGRESS_CLASSIFIER_SFC_CLASSIFIER,
                Srv6IntConstants.SRV6_INT_INGRESS_CLASSIFIER_SET_CHAIN);
        assertTableActions(Srv6IntConstants.SRV6_INT_INGRESS_ENCAP_SRV6_ENCAP,
                Srv6IntConstants.SRV6_INT_INGRESS_ENCAP_H_ENCAPS_INT);
        assertTableActions(Srv6IntConstants.SRV6_INT_INGRESS_ENDPOINT_MY_SID,
                Srv6IntConstants.SRV6_INT_INGRESS_ENDPOINT_END_T_INT,
                Srv6IntConstants.SRV6_INT_INGRESS_ENDPOINT_END_T_INT_SFC,
                Srv6IntConstants.SRV6_INT_INGRESS_ENDPOINT_END_DT_INT);
        for (PiTableId routing : List.of(Srv6IntConstants.SRV6_INT_INGRESS_ROUTING_IPV6_ROUTING,
                Srv6IntConstants.SRV6_INT_INGRESS_ROUTING_IPV4_ROUTING)) {
            assertTableActions(routing, Srv6IntConstants.SRV6_INT_INGRESS_ROUTING_SET_NEXT_HOP,
                    Srv6IntConstants.SRV6_INT_INGRESS_ROUTING_DROP);
        }
        assertTableActions(Srv6IntConstants.SRV6_INT_EGRESS_REPORT_REPORT_CONFIG,
                Srv6IntConstants.SRV6_INT_EGRESS_REPORT_SET_REPORT_CONFIG);
        // The encap table is the bucket table: direct, keyed by chain and bucket, ENCAP_BUCKETS per chain fit.
        Table encap = tables.get(Srv6IntConstants.SRV6_INT_INGRESS_ENCAP_SRV6_ENCAP.id());
        assertEquals(0, encap.getImplementationId());
        assertEquals(List.of(Srv6IntConstants.HDR_CHAIN_ID.id(), Srv6IntConstants.HDR_BUCKET.id()),
                     encap.getMatchFieldsList().stream().map(f -> f.getName()).collect(Collectors.toList()));
        assertEquals(Srv6IntPipelineConstants.ENCAP_BUCKETS, 1 << Srv6IntConstants.HDR_BUCKET_BITWIDTH);
        assertTrue("room for 64 chains' buckets", encap.getSize() >= 64L * Srv6IntPipelineConstants.ENCAP_BUCKETS);
        // h_encaps_int carries the segment list minus the ingress's own SID.
        assertEquals(Srv6IntPipelineConstants.ENCAP_SEGMENT_PARAMS + 1,
                actions.get(Srv6IntConstants.SRV6_INT_INGRESS_ENCAP_H_ENCAPS_INT.id()).getParamsCount());
    }

    /** Every criterion the interpreter maps is a key of a table of the program. */
    @Test
    public void interpreterCriteriaAreMatchFields() {
        for (Map.Entry<?, PiMatchFieldId> e : Srv6IntInterpreter.CRITERION_MAP.entrySet()) {
            assertFalse(e.getKey() + " -> " + e.getValue(), matchFieldWidths(e.getValue().id()).isEmpty());
        }
        Set<String> aclKeys = tables.get(Srv6IntConstants.SRV6_INT_INGRESS_ACL_ACL.id())
                .getMatchFieldsList().stream().map(MatchField::getName).collect(Collectors.toSet());
        assertTrue(aclKeys.containsAll(Set.of("ig_port", "eth_type", "eth_dst", "ip_proto")));
    }

    @Test
    public void registersAndCountersHaveTheDocumentedSizes() {
        assertEquals(Srv6IntPipelineConstants.MAX_VNFS,
                register(Srv6IntConstants.SRV6_INT_INGRESS_VNF_LATENCY.id()).getSize());
        assertEquals(32, Srv6IntConstants.SRV6_INT_INGRESS_VNF_LATENCY_BITWIDTH);
        assertEquals(32, Srv6IntConstants.SRV6_INT_EGRESS_REPORT_SEQ_BITWIDTH);
        assertEquals(Srv6IntPipelineConstants.DROP_REASON_CELLS, p4info.getCountersList().stream()
                .filter(c -> c.getPreamble().getName().equals(Srv6IntConstants.SRV6_INT_INGRESS_DROP_REASONS.id()))
                .findFirst().orElseThrow().getSize());
        Set<String> direct = p4info.getDirectCountersList().stream()
                .map(c -> c.getPreamble().getName()).collect(Collectors.toSet());
        for (PiTableId t : List.of(Srv6IntConstants.SRV6_INT_INGRESS_ACL_ACL,
                Srv6IntConstants.SRV6_INT_INGRESS_NDP_NDP_REPLY,
                Srv6IntConstants.SRV6_INT_INGRESS_CLASSIFIER_SFC_CLASSIFIER,
                Srv6IntConstants.SRV6_INT_INGRESS_ENCAP_SRV6_ENCAP,
                Srv6IntConstants.SRV6_INT_INGRESS_ENDPOINT_MY_SID,
                Srv6IntConstants.SRV6_INT_INGRESS_ROUTING_IPV6_ROUTING,
                Srv6IntConstants.SRV6_INT_INGRESS_ROUTING_IPV4_ROUTING)) {
            int tableId = tables.get(t.id()).getPreamble().getId();
            assertTrue(t + " has no direct counter", p4info.getDirectCountersList().stream()
                    .anyMatch(c -> c.getDirectTableId() == tableId));
        }
        assertFalse(direct.isEmpty());
    }

    @Test
    public void packetIoHeadersCarryNineBitPorts() {
        assertEquals(Set.of(9), packetMetadataWidths(Srv6IntConstants.INGRESS_PORT.id()));
        assertEquals(Set.of(9), packetMetadataWidths(Srv6IntConstants.EGRESS_PORT.id()));
        Set<String> kinds = p4info.getControllerPacketMetadataList().stream()
                .map(c -> c.getPreamble().getName()).collect(Collectors.toSet());
        assertEquals(Set.of("packet_in", "packet_out"), kinds);
    }

    /** Clone sessions are not in p4info: the BMv2 JSON's clone primitives name them. */
    @Test
    public void cloneSessionsAreTheOnesTheJsonUses() throws Exception {
        JsonNode json = new ObjectMapper().readTree(
                Files.readAllBytes(Artefacts.outDir().resolve("bmv2.json")));
        Set<Integer> sessions = new HashSet<>();
        for (JsonNode action : json.get("actions")) {
            for (JsonNode prim : action.get("primitives")) {
                String op = prim.get("op").asText();
                if (op.startsWith("clone_")) {
                    JsonNode session = prim.get("parameters").get(0);
                    assertEquals("hexstr", session.get("type").asText());
                    sessions.add(Integer.decode(session.get("value").asText()));
                }
            }
        }
        assertEquals(Set.of(Srv6IntPipelineConstants.CPU_CLONE_SESSION_ID,
                Srv6IntPipelineConstants.REPORT_CLONE_SESSION_ID), sessions);
    }

    private static void assertTableActions(PiTableId table, PiActionId... written) {
        Table t = tables.get(table.id());
        assertNotNull(table.id(), t);
        Set<Integer> offered = t.getActionRefsList().stream().map(r -> r.getId()).collect(Collectors.toSet());
        for (PiActionId a : written) {
            assertTrue(table + " does not offer " + a,
                    offered.contains(actions.get(a.id()).getPreamble().getId()));
        }
    }

    private static Set<Integer> matchFieldWidths(String name) {
        return p4info.getTablesList().stream().flatMap(t -> t.getMatchFieldsList().stream())
                .filter(m -> m.getName().equals(name)).map(MatchField::getBitwidth)
                .collect(Collectors.toSet());
    }

    private static Set<Integer> paramWidths(String name) {
        return p4info.getActionsList().stream().flatMap(a -> a.getParamsList().stream())
                .filter(p -> p.getName().equals(name)).map(Action.Param::getBitwidth)
                .collect(Collectors.toSet());
    }

    private static Set<Integer> packetMetadataWidths(String name) {
        return p4info.getControllerPacketMetadataList().stream()
                .flatMap(c -> c.getMetadataList().stream())
                .filter(m -> m.getName().equals(name))
                .map(ControllerPacketMetadata.Metadata::getBitwidth)
                .collect(Collectors.toSet());
    }

    private static Register register(String name) {
        return p4info.getRegistersList().stream().filter(r -> r.getPreamble().getName().equals(name))
                .findFirst().orElseThrow(() -> new AssertionError("no register " + name));
    }
}
