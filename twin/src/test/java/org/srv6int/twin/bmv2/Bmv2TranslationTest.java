// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.bmv2;

import org.srv6int.pipeconf.Srv6IntConstants;
import org.srv6int.pipeconf.Srv6IntPipelineConstants;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import com.google.protobuf.ByteString;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.Test;
import org.onlab.packet.Ip6Address;
import org.onosproject.net.flow.DefaultFlowRule;
import org.onosproject.net.flow.DefaultTrafficSelector;
import org.onosproject.net.flow.DefaultTrafficTreatment;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.criteria.PiCriterion;
import org.onosproject.net.group.Group;
import org.onosproject.net.group.GroupDescription;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiActionParam;
import org.srv6int.app.api.model.SegmentList;
import org.srv6int.app.testing.AppHarness;
import org.srv6int.app.testing.PaperTestbed;
import p4.v1.P4RuntimeOuterClass.FieldMatch;
import p4.v1.P4RuntimeOuterClass.TableEntry;
import p4.v1.P4RuntimeOuterClass.Update;

/**
 * PI to P4Runtime translation and the idempotent diff, on the rules the real app installs on the
 * paper's testbed. Runs everywhere (no switch): the writes are recorded, not sent.
 */
public class Bmv2TranslationTest {

    private final PiToP4Runtime tr = new PiToP4Runtime(P4InfoIndex.pipeconf());

    private static ByteString bytes(int... b) {
        byte[] a = new byte[b.length];
        for (int i = 0; i < b.length; i++) {
            a[i] = (byte) b[i];
        }
        return ByteString.copyFrom(a);
    }

    @Test
    public void canonicalFormDropsLeadingZerosKeepsOneForZeroAndRejectsOverflow() {
        assertEquals(bytes(0x01, 0x02), PiToP4Runtime.canonical(new byte[] {0, 0, 1, 2}, 16, "f"));
        assertEquals(bytes(0), PiToP4Runtime.canonical(new byte[] {0, 0}, 16, "f"));
        assertEquals(bytes(0x01, 0xff), PiToP4Runtime.canonical(new byte[] {0x01, (byte) 0xff}, 9, "f"));
        try {
            PiToP4Runtime.canonical(new byte[] {0x02, 0x00}, 9, "ig_port");
            fail("0x200 does not fit in 9 bits");
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("ig_port") && e.getMessage().contains("9 bits"));
        }
    }

    @Test
    public void appClassifierRuleBecomesTernaryEntryWithPriorityAndIdsFromTheP4Info() {
        AppHarness app = AppRules.fig5();
        FlowRule classifier = AppRules.rules(app, PaperTestbed.SW1).stream()
                .filter(r -> r.table().equals(Srv6IntConstants.SRV6_INT_INGRESS_CLASSIFIER_SFC_CLASSIFIER))
                        .findFirst().orElseThrow();
        TableEntry e = tr.tableEntry(classifier);
        P4InfoIndex.TableInfo t = tr.p4info().table(Srv6IntConstants.SRV6_INT_INGRESS_CLASSIFIER_SFC_CLASSIFIER);
        assertEquals(t.id(), e.getTableId());
        assertEquals(1072, e.getPriority());
        assertFalse(e.getIsDefaultAction());
        List<Integer> ids = e.getMatchList().stream().map(FieldMatch::getFieldId).collect(Collectors.toList());
        List<Integer> sorted = new ArrayList<>(ids);
        Collections.sort(sorted);
        assertEquals("fields in id order", sorted, ids);
        FieldMatch port = e.getMatchList().stream()
                .filter(m -> m.getFieldId() == t.field(Srv6IntConstants.HDR_IG_PORT).getId()).findFirst().orElseThrow();
        assertEquals(bytes(1), port.getTernary().getValue());
        assertEquals(bytes(0x01, 0xff), port.getTernary().getMask());
        assertEquals(tr.p4info().action(Srv6IntConstants.SRV6_INT_INGRESS_CLASSIFIER_SET_CHAIN).id(),
                e.getAction().getAction().getActionId());
    }

    @Test
    public void lpmExactAndDefaultEntriesHaveNoPriority() {
        AppHarness app = AppRules.fig5();
        for (FlowRule r : AppRules.rules(app, PaperTestbed.SW1)) {
            TableEntry e = tr.tableEntry(r);
            if (r.table().equals(Srv6IntConstants.SRV6_INT_INGRESS_SWITCH_INFO)) {
                assertTrue(e.getIsDefaultAction());
                assertEquals(0, e.getMatchCount());
            }
            if (r.table().equals(Srv6IntConstants.SRV6_INT_INGRESS_ENDPOINT_MY_SID)
                    || r.table().equals(Srv6IntConstants.SRV6_INT_INGRESS_ENCAP_SRV6_ENCAP)) {
                assertEquals(0, e.getPriority());
            }
            if (r.table().equals(Srv6IntConstants.SRV6_INT_INGRESS_ENCAP_SRV6_ENCAP)) {
                assertTrue("a bucket entry has a direct action", e.getAction().hasAction());
            }
        }
    }

    @Test
    public void syncWritesEverythingOnceThenNothingThenOnlyTheChange() {
        AppHarness app = AppRules.fig5();
        DeviceSync sync = new DeviceSync(tr);
        List<FlowRule> rules = AppRules.rules(app, PaperTestbed.SW1);
        List<Group> groups = AppRules.groups(app, PaperTestbed.SW1);
        List<List<Update>> batches = new ArrayList<>();
        int first = sync.sync(rules, groups, batches::add);
        // SW1 has no group: the bucket tables are direct entries
        assertEquals(List.of(), groups);
        assertEquals(rules.size(), first);
        List<Update> entries = batches.stream().flatMap(List::stream).collect(Collectors.toList());
        assertTrue(entries.stream().allMatch(u -> u.getEntity().hasTableEntry()));
        assertTrue("default entries are modified, never inserted", entries.stream()
                .filter(u -> u.getEntity().getTableEntry().getIsDefaultAction())
                .allMatch(u -> u.getType() == Update.Type.MODIFY));

        batches.clear();
        assertEquals(0, sync.sync(rules, groups, batches::add));
        assertEquals(List.of(), batches);

        FlowRule gone = rules.stream().filter(r
                -> r.table().equals(Srv6IntConstants.SRV6_INT_INGRESS_ROUTING_IPV6_ROUTING)).findFirst().orElseThrow();
        List<FlowRule> fewer = new ArrayList<>(rules);
        fewer.remove(gone);
        assertEquals(1, sync.sync(fewer, groups, batches::add));
        assertEquals(Update.Type.DELETE, batches.get(0).get(0).getType());
        assertEquals(PiToP4Runtime.key(tr.tableEntry(gone)), batches.get(0).get(0).getEntity().getTableEntry());
    }

    @Test
    public void replicaAddedByTheGlobalLoopModifiesHalfTheBucketEntries() {
        AppHarness app = AppRules.fig5();
        DeviceSync sync = new DeviceSync(tr);
        sync.sync(AppRules.rules(app, PaperTestbed.SW1), AppRules.groups(app, PaperTestbed.SW1), u -> { });
        app.inventory.addReplica(org.srv6int.app.api.model.VnfKey.of(PaperTestbed.SFC2, 0), "worker2");
        app.settle();
        List<List<Update>> batches = new ArrayList<>();
        sync.sync(AppRules.rules(app, PaperTestbed.SW1), AppRules.groups(app, PaperTestbed.SW1), batches::add);
        List<String> ops = batches.stream().flatMap(List::stream)
                .map(u -> u.getType() + " " + u.getEntity().getEntityCase()).collect(Collectors.toList());
        // 1 -> 2 Snort replicas: the new replica's share of the chain's buckets, modified in place
        assertEquals(Collections.nCopies(org.srv6int.pipeconf.Srv6IntPipelineConstants.ENCAP_BUCKETS / 2,
                                                   "MODIFY TABLE_ENTRY"), ops);
    }

    @Test
    public void cloneGroupBecomesCloneSessionToTheCollectorPort() {
        AppHarness app = AppRules.fig5();
        Group clone = AppRules.groups(app, PaperTestbed.SW4).stream()
                .filter(g -> g.type() == GroupDescription.Type.CLONE).findFirst().orElseThrow();
        var s = PiToP4Runtime.cloneSession(clone);
        assertEquals(Srv6IntPipelineConstants.REPORT_CLONE_SESSION_ID, s.getSessionId());
        assertEquals(1, s.getReplicasCount());
        assertEquals(10, s.getReplicas(0).getEgressPort());
    }

    @Test
    public void badInputGetsClearErrors() {
        FlowRule wrongParam = DefaultFlowRule.builder().forDevice(PaperTestbed.SW1).fromApp(PaperTestbed.APP_ID)
                .forTable(Srv6IntConstants.SRV6_INT_INGRESS_ROUTING_IPV6_ROUTING)
                .withSelector(DefaultTrafficSelector.builder().matchPi(PiCriterion.builder()
                        .matchLpm(Srv6IntConstants.HDR_IPV6_DST, Ip6Address.valueOf("fc00::").toOctets(),
                                16).build()).build())
                .withTreatment(DefaultTrafficTreatment.builder().piTableAction(PiAction.builder()
                        .withId(Srv6IntConstants.SRV6_INT_INGRESS_ROUTING_SET_NEXT_HOP)
                                .withParameter(new PiActionParam(Srv6IntConstants.PORT, 1)).build())
                                       .build())
                .withPriority(16).makePermanent().build();
        try {
            tr.tableEntry(wrongParam);
            fail("set_next_hop takes two parameters");
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("takes 2 parameters"));
        }
        FlowRule notPi = DefaultFlowRule.builder().forDevice(PaperTestbed.SW1).fromApp(PaperTestbed.APP_ID)
                .forTable(0).withSelector(DefaultTrafficSelector.emptySelector())
                .withTreatment(DefaultTrafficTreatment.emptyTreatment()).withPriority(1).makePermanent().build();
        try {
            tr.tableEntry(notPi);
            fail("not a PI rule");
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("not a PI flow rule"));
        }
    }

    private static SegmentList list(int weight, String... sids) {
        List<Ip6Address> s = new ArrayList<>();
        s.add(Ip6Address.valueOf("fc00:0:1::1"));
        for (String x : sids) {
            s.add(Ip6Address.valueOf(x));
        }
        return new SegmentList(s, List.of(), List.of(), weight);
    }
}
