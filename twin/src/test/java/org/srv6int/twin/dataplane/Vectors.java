// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.dataplane;

import java.util.Arrays;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip6Address;
import org.onlab.packet.MacAddress;
import org.onosproject.core.GroupId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.flow.DefaultFlowRule;
import org.onosproject.net.flow.DefaultTrafficSelector;
import org.onosproject.net.flow.DefaultTrafficTreatment;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.criteria.PiCriterion;
import org.onosproject.net.group.DefaultGroup;
import org.onosproject.net.group.DefaultGroupBucket;
import org.onosproject.net.group.DefaultGroupDescription;
import org.onosproject.net.group.DefaultGroupKey;
import org.onosproject.net.group.Group;
import org.onosproject.net.group.GroupBuckets;
import org.onosproject.net.group.GroupDescription;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiActionParam;
import org.onosproject.net.pi.runtime.PiTableAction;
import org.srv6int.app.testing.PaperTestbed;
import org.srv6int.codec.Addresses;

import static org.srv6int.pipeconf.Srv6IntConstants.*;

/**
 * The golden vectors (tests/vectors) and PI entries of their scenario
 * (tests/vectors/README.md; the same entries p4src/tests/test_dataplane.py gives BMv2),
 * built as ONOS flow rules and groups, on the paper testbed's switches and links
 * (SWn port 2 - SW(n+1) port 1; vNF servers on port 3, the collector on port 4).
 */
final class Vectors {

    static final DeviceId[] SW = {null, PaperTestbed.SW1, PaperTestbed.SW2, PaperTestbed.SW3, PaperTestbed.SW4};
    static final int UPSTREAM = 1;
    static final int DOWNSTREAM = 2;
    static final int VNF_PORT = 3;
    static final int COLLECTOR_PORT = 4;
    static final List<String> PLAIN_PATH = List.of("fc00:0:2::1", "fc00:0:3::1", "fc00:0:4::d4");
    static final List<String> SFC_PATH = List.of("fc00:0:2::f1", "fc00:0:3::f2", "fc00:0:4::d4");
    /** BMv2 tests mask these kinds; the flow label is compared. */
    static final Set<String> MASKED = Set.of("timestamp", "queue", "sequence");

    private static final ObjectMapper JSON = new ObjectMapper();

    private Vectors() {
    }

    static Path dir() {
        Path p = Paths.get("").toAbsolutePath();
        while (p != null && !Files.isDirectory(p.resolve("tests/vectors"))) {
            p = p.getParent();
        }
        if (p == null) {
            throw new IllegalStateException("tests/vectors not found above " + Paths.get("").toAbsolutePath());
        }
        return p.resolve("tests/vectors");
    }

    static JsonNode load(String name) {
        try {
            return JSON.readTree(dir().resolve(name + ".json").toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte[] frame(String name) {
        return Addresses.fromHex(load(name).get("hex").asText());
    }

    static byte[] masked(byte[] frame, JsonNode vector) {
        byte[] b = frame.clone();
        for (JsonNode m : vector.get("masks")) {
            if (!MASKED.contains(m.get("kind").asText())) {
                continue;
            }
            int off = m.get("offset").asInt();
            int len = m.get("length").asInt();
            byte[] bits = m.has("bitmask") ? Addresses.fromHex(m.get("bitmask").asText()) : null;
            for (int i = 0; i < len && off + i < b.length; i++) {
                b[off + i] &= (byte) ~(bits == null ? 0xFF : bits[i]);
            }
        }
        return b;
    }

    /** Compares a switch's output with a vector, masks of kind timestamp/queue/sequence applied. */
    static void assertMatches(byte[] actual, String name) {
        assertMatches(actual, frame(name), load(name));
    }

    static void assertMatches(byte[] actual, byte[] expected, JsonNode vector) {
        String name = vector.get("name").asText();
        byte[] a = masked(actual, vector);
        byte[] e = masked(expected, vector);
        List<Integer> diffs = new ArrayList<>();
        for (int i = 0; i < Math.min(a.length, e.length); i++) {
            if (a[i] != e[i]) {
                diffs.add(i);
            }
        }
        assertTrue(name + ": length " + a.length + " vs " + e.length + ", differing offsets " + diffs
                        + "\ngot      " + Addresses.toHex(actual, 0, actual.length)
                        + "\nexpected " + Addresses.toHex(expected, 0, expected.length),
                a.length == e.length && diffs.isEmpty());
    }

    // ---- PI entries ----

    static byte[] ip6(String s) {
        return Ip6Address.valueOf(s).toOctets();
    }

    static long mac(String s) {
        return MacAddress.valueOf(s).toLong();
    }

    static long swMac(int n) {
        return mac("02:00:00:00:00:0" + n);
    }

    static FlowRule rule(DeviceId d, PiTableId table, PiCriterion match, int prio, PiTableAction action) {
        return DefaultFlowRule.builder().forDevice(d).fromApp(PaperTestbed.APP_ID).forTable(table)
                .withSelector(match == null ? DefaultTrafficSelector.emptySelector()
                                      : DefaultTrafficSelector.builder().matchPi(match).build())
                .withTreatment(DefaultTrafficTreatment.builder().piTableAction(action).build())
                .withPriority(prio).makePermanent().build();
    }

    static FlowRule switchInfo(int n, String mySid) {
        return rule(SW[n], SRV6_INT_INGRESS_SWITCH_INFO, null, 0,
                PiAction.builder().withId(SRV6_INT_INGRESS_SET_SWITCH_INFO)
                        .withParameter(new PiActionParam(DEVICE_ID, n))
                        .withParameter(new PiActionParam(MY_SID, ip6(mySid)))
                        .withParameter(new PiActionParam(ROUTER_MAC, swMac(n))).build());
    }

    static FlowRule route6(int n, String prefix, int plen, int port, long dmac) {
        return rule(SW[n], SRV6_INT_INGRESS_ROUTING_IPV6_ROUTING,
                PiCriterion.builder().matchLpm(HDR_IPV6_DST, ip6(prefix), plen).build(), plen,
                nextHop(port, dmac));
    }

    static PiAction nextHop(int port, long dmac) {
        return PiAction.builder().withId(SRV6_INT_INGRESS_ROUTING_SET_NEXT_HOP)
                .withParameter(new PiActionParam(PORT, port))
                .withParameter(new PiActionParam(DMAC, dmac)).build();
    }

    static FlowRule mySid(int n, String sid, PiAction a) {
        return rule(SW[n], SRV6_INT_INGRESS_ENDPOINT_MY_SID,
                PiCriterion.builder().matchLpm(HDR_IPV6_DST, ip6(sid), 128).build(), 128, a);
    }

    static PiAction encapAction(List<String> path) {
        PiAction.Builder b = PiAction.builder().withId(SRV6_INT_INGRESS_ENCAP_H_ENCAPS_INT)
                .withParameter(new PiActionParam(LAST_ENTRY, path.size()));
        org.onosproject.net.pi.model.PiActionParamId[] s = {S0, S1, S2, S3, S4, S5, S6};
        for (int k = 0; k < 7; k++) {
            b.withParameter(new PiActionParam(s[k], k < path.size() ? ip6(path.get(path.size() - 1 - k))
                    : new byte[16]));
        }
        return b.build();
    }

    static Group cloneSession(DeviceId d, int id, int port) {
        GroupDescription desc = new DefaultGroupDescription(d, GroupDescription.Type.CLONE,
                new GroupBuckets(List.of(DefaultGroupBucket.createCloneGroupBucket(
                        DefaultTrafficTreatment.builder().setOutput(PortNumber.portNumber(port)).build()))),
                new DefaultGroupKey(("clone" + id).getBytes()), id, PaperTestbed.APP_ID);
        return new DefaultGroup(GroupId.valueOf(id), desc);
    }

    /** SW1's entries: the ingress of one chain (tag 1) with weighted segment lists. */
    static Entries ingress(boolean sfc, int intPeriod, List<List<String>> paths, List<Integer> weights) {
        Entries e = new Entries();
        e.rules.add(switchInfo(1, "fc00:0:1::1"));
        e.rules.add(rule(SW[1], SRV6_INT_INGRESS_CLASSIFIER_SFC_CLASSIFIER,
                PiCriterion.builder().matchTernary(HDR_IPV4_DST,
                        Ip4Address.valueOf("10.0.4.1").toOctets(), new byte[] {-1, -1, -1, -1}).build(), 10,
                PiAction.builder().withId(SRV6_INT_INGRESS_CLASSIFIER_SET_CHAIN)
                        .withParameter(new PiActionParam(CHAIN_ID, 1))
                        .withParameter(new PiActionParam(SFC_MODE, sfc ? 1 : 0))
                        .withParameter(new PiActionParam(MAP_INFO, 0x1F))
                        .withParameter(new PiActionParam(INT_PERIOD, intPeriod)).build()));
        // the bucket table: contiguous blocks of buckets in proportion to the weights
        int total = weights.stream().mapToInt(Integer::intValue).sum();
        int buckets = org.srv6int.pipeconf.Srv6IntPipelineConstants.ENCAP_BUCKETS;
        for (int b = 0, list = 0, edge = buckets * weights.get(0) / total; b < buckets; b++) {
            while (b >= edge) {
                list++;
                int acc = 0;
                for (int i = 0; i <= list; i++) {
                    acc += weights.get(i);
                }
                edge = buckets * acc / total;
            }
            e.rules.add(rule(SW[1], SRV6_INT_INGRESS_ENCAP_SRV6_ENCAP,
                    PiCriterion.builder().matchExact(HDR_CHAIN_ID, 1).matchExact(HDR_BUCKET, b).build(), 0,
                    encapAction(paths.get(list))));
        }
        e.rules.add(route6(1, "fc00:0:2::", 48, DOWNSTREAM, swMac(2)));
        e.rules.add(route6(1, "fc00:0:5::", 48, 3, mac("02:00:00:00:00:05")));
        return e;
    }

    /** SW2's or SW3's entries: End.T.INT, the vNF SID, the route to the next switch. */
    static Entries endpoint(int n) {
        Entries e = new Entries();
        e.rules.add(switchInfo(n, "fc00:0:" + n + "::1"));
        e.rules.add(mySid(n, "fc00:0:" + n + "::1",
                PiAction.builder().withId(SRV6_INT_INGRESS_ENDPOINT_END_T_INT).build()));
        e.rules.add(mySid(n, n == 2 ? "fc00:0:2::f1" : "fc00:0:3::f2",
                PiAction.builder().withId(SRV6_INT_INGRESS_ENDPOINT_END_T_INT_SFC)
                        .withParameter(new PiActionParam(VNF_ID, n - 1))
                        .withParameter(new PiActionParam(org.srv6int.pipeconf.Srv6IntConstants.VNF_PORT, VNF_PORT))
                        .withParameter(new PiActionParam(VNF_MAC, mac("02:00:00:00:02:0" + (n - 1)))).build()));
        e.rules.add(route6(n, "fc00:0:" + (n + 1) + "::", 48, DOWNSTREAM, swMac(n + 1)));
        return e;
    }

    static PiAction endTSfc(int vnfId, long vnfMac) {
        return PiAction.builder().withId(SRV6_INT_INGRESS_ENDPOINT_END_T_INT_SFC)
                .withParameter(new PiActionParam(VNF_ID, vnfId))
                .withParameter(new PiActionParam(org.srv6int.pipeconf.Srv6IntConstants.VNF_PORT, VNF_PORT))
                .withParameter(new PiActionParam(VNF_MAC, vnfMac)).build();
    }

    /** SW2 of the local-* vectors: vNFs 1, 2, 3 behind its vNF port (one worker). */
    static Entries localVnfs() {
        Entries e = endpoint(2);
        e.rules.add(mySid(2, "fc00:0:2::f2", endTSfc(2, mac("02:00:00:00:02:02"))));
        e.rules.add(mySid(2, "fc00:0:2::f3", endTSfc(3, mac("02:00:00:00:02:03"))));
        return e;
    }

    /** SW4 of the local-* vectors: vNF 4 behind its vNF port, then End.DT.INT. */
    static Entries localVnfThenEgress(int truncLen) {
        Entries e = egress(truncLen);
        e.rules.add(mySid(4, "fc00:0:4::f4", endTSfc(4, mac("02:00:00:00:02:04"))));
        return e;
    }

    /** SW1's entries for IPv6 traffic to h2 (2001:db8:4::1), plain mode, INT on every packet. */
    static Entries ingressIpv6(List<String> path) {
        Entries e = new Entries();
        e.rules.add(switchInfo(1, "fc00:0:1::1"));
        byte[] ones = new byte[16];
        Arrays.fill(ones, (byte) -1);
        e.rules.add(rule(SW[1], SRV6_INT_INGRESS_CLASSIFIER_SFC_CLASSIFIER,
                PiCriterion.builder().matchTernary(HDR_IPV6_DST, ip6("2001:db8:4::1"), ones).build(), 10,
                PiAction.builder().withId(SRV6_INT_INGRESS_CLASSIFIER_SET_CHAIN)
                        .withParameter(new PiActionParam(CHAIN_ID, 1))
                        .withParameter(new PiActionParam(SFC_MODE, 0))
                        .withParameter(new PiActionParam(MAP_INFO, 0x1F))
                        .withParameter(new PiActionParam(INT_PERIOD, 1)).build()));
        for (int b = 0; b < org.srv6int.pipeconf.Srv6IntPipelineConstants.ENCAP_BUCKETS; b++) {
            e.rules.add(rule(SW[1], SRV6_INT_INGRESS_ENCAP_SRV6_ENCAP,
                    PiCriterion.builder().matchExact(HDR_CHAIN_ID, 1).matchExact(HDR_BUCKET, b).build(), 0,
                    encapAction(path)));
        }
        e.rules.add(route6(1, "fc00:0:2::", 48, DOWNSTREAM, swMac(2)));
        return e;
    }

    /** SW4's entries with the IPv6 route to h2 (a decapsulated IPv6 packet is routed on its own address). */
    static Entries egressIpv6() {
        Entries e = egress(256);
        e.rules.add(route6(4, "2001:db8:4::1", 128, DOWNSTREAM, mac("02:00:00:00:01:04")));
        return e;
    }

    /** SW4's entries: End.DT.INT, the route to h2, the report config and clone session. */
    static Entries egress(int truncLen) {
        Entries e = new Entries();
        e.rules.add(switchInfo(4, "fc00:0:4::1"));
        e.rules.add(mySid(4, "fc00:0:4::d4", PiAction.builder().withId(SRV6_INT_INGRESS_ENDPOINT_END_DT_INT).build()));
        e.rules.add(rule(SW[4], SRV6_INT_INGRESS_ROUTING_IPV4_ROUTING,
                PiCriterion.builder().matchLpm(HDR_IPV4_DST, Ip4Address.valueOf("10.0.4.1").toOctets(), 32).build(),
                32, nextHop(DOWNSTREAM, mac("02:00:00:00:01:04"))));
        e.rules.add(rule(SW[4], SRV6_INT_EGRESS_REPORT_REPORT_CONFIG, null, 0,
                PiAction.builder().withId(SRV6_INT_EGRESS_REPORT_SET_REPORT_CONFIG)
                        .withParameter(new PiActionParam(SRC_MAC, swMac(4)))
                        .withParameter(new PiActionParam(DST_MAC, mac("02:00:00:00:03:01")))
                        .withParameter(new PiActionParam(SRC_IP, Ip4Address.valueOf("10.0.100.4").toOctets()))
                        .withParameter(new PiActionParam(DST_IP, Ip4Address.valueOf("10.0.100.1").toOctets()))
                        .withParameter(new PiActionParam(UDP_SPORT, 32770))
                        .withParameter(new PiActionParam(UDP_DPORT, 32766))
                        .withParameter(new PiActionParam(TRUNC_LEN, truncLen)).build()));
        e.groups.add(cloneSession(SW[4], 100, COLLECTOR_PORT));
        return e;
    }

    /** Rules and groups of one switch. */
    static final class Entries {
        final List<FlowRule> rules = new ArrayList<>();
        final List<Group> groups = new ArrayList<>();

        void programInto(EmulatedDataplane dp, DeviceId d) {
            dp.program(d, rules, groups);
        }
    }

    static void assertFrames(List<Dataplane.Frame> frames, int expected) {
        assertEquals("frames out: " + frames.size(), expected, frames.size());
    }
}
