package org.srv6int.app.program;

import org.srv6int.pipeconf.Srv6IntActions;
import org.onlab.packet.Ip6Address;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.DefaultTrafficTreatment;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.criteria.PiCriterion;
import org.onosproject.net.group.DefaultGroupBucket;
import org.onosproject.net.group.DefaultGroupDescription;
import org.onosproject.net.group.GroupBucket;
import org.onosproject.net.group.GroupBuckets;
import org.onosproject.net.group.GroupDescription;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiActionParam;
import org.onosproject.net.pi.runtime.PiActionProfileGroupId;
import org.onosproject.net.pi.runtime.PiGroupKey;
import org.srv6int.app.api.FlowClassifier;
import org.srv6int.app.api.SegmentList;
import org.srv6int.app.api.Sfc;
import org.srv6int.app.api.SfcPaths;

import java.util.List;
import java.util.stream.Collectors;

import static org.srv6int.app.program.P4Names.CHAIN_ID;
import static org.srv6int.app.program.P4Names.CHAIN_ID_KEY;
import static org.srv6int.app.program.P4Names.H_ENCAPS_INT;
import static org.srv6int.app.program.P4Names.IG_PORT;
import static org.srv6int.app.program.P4Names.INT_PERIOD;
import static org.srv6int.app.program.P4Names.IPV4_DST;
import static org.srv6int.app.program.P4Names.IPV4_SRC;
import static org.srv6int.app.program.P4Names.IPV6_DST;
import static org.srv6int.app.program.P4Names.IPV6_SRC;
import static org.srv6int.app.program.P4Names.IP_PROTO;
import static org.srv6int.app.program.P4Names.L4_DPORT;
import static org.srv6int.app.program.P4Names.L4_SPORT;
import static org.srv6int.app.program.P4Names.LAST_ENTRY;
import static org.srv6int.app.program.P4Names.MAP_INFO;
import static org.srv6int.app.program.P4Names.SEGMENT;
import static org.srv6int.app.program.P4Names.SET_CHAIN;
import static org.srv6int.app.program.P4Names.SFC_CLASSIFIER;
import static org.srv6int.app.program.P4Names.SFC_MODE;
import static org.srv6int.app.program.P4Names.SRV6_ENCAP;
import static org.srv6int.app.program.P4Names.SRV6_ENCAP_SELECTOR;

/**
 * A chain's entries at its ingress switch (H.Encaps.INT): the classifier
 * entry that tags its traffic with the chain id, and the srv6_encap entry
 * pointing to the chain's SELECT group with one member per segment list,
 * weighted. The group id is the chain id.
 */
public final class ChainProgrammer {

    /** Base priority of classifier entries; more specific classifiers rank higher. */
    public static final int CLASSIFIER_PRIORITY = 1000;

    private ChainProgrammer() {
    }

    /**
     * Returns the group key of a chain's encap group on its ingress.
     *
     * @param sfc chain
     * @return key
     */
    public static PiGroupKey groupKey(Sfc sfc) {
        return new PiGroupKey(SRV6_ENCAP, SRV6_ENCAP_SELECTOR, sfc.id().tag());
    }

    /**
     * Builds the classifier entry.
     *
     * @param sfc   chain
     * @param appId app id
     * @return rule on the ingress device
     */
    public static FlowRule classifierRule(Sfc sfc, ApplicationId appId) {
        FlowClassifier c = sfc.classifier();
        PiCriterion.Builder m = PiCriterion.builder()
                .matchTernary(IG_PORT, sfc.ingress().port().toLong(), 0x1FF);
        if (c.ipProto() != FlowClassifier.ANY) {
            m.matchTernary(IP_PROTO, c.ipProto(), 0xFF);
        }
        int bytes = c.isIp4() ? 4 : 16;
        if (c.srcPrefix().prefixLength() > 0) {
            m.matchTernary(c.isIp4() ? IPV4_SRC : IPV6_SRC, c.srcPrefix().address().toOctets(),
                           PiRules.prefixMask(bytes, c.srcPrefix().prefixLength()));
        }
        if (c.dstPrefix().prefixLength() > 0) {
            m.matchTernary(c.isIp4() ? IPV4_DST : IPV6_DST, c.dstPrefix().address().toOctets(),
                           PiRules.prefixMask(bytes, c.dstPrefix().prefixLength()));
        }
        if (c.l4SrcPort() != FlowClassifier.ANY) {
            m.matchTernary(L4_SPORT, c.l4SrcPort(), 0xFFFF);
        }
        if (c.l4DstPort() != FlowClassifier.ANY) {
            m.matchTernary(L4_DPORT, c.l4DstPort(), 0xFFFF);
        }
        PiAction a = Srv6IntActions.setChain(sfc.id().tag(), !sfc.vnfs().isEmpty(), P4Names.DEFAULT_MAP_INFO,
                                             sfc.intSamplingRate());
        return PiRules.rule(sfc.ingress().deviceId(), appId, SFC_CLASSIFIER, m.build(),
                            CLASSIFIER_PRIORITY + specificity(c), a);
    }

    /**
     * Builds the srv6_encap entry pointing to the chain's group.
     *
     * @param sfc   chain
     * @param appId app id
     * @return rule on the ingress device
     */
    public static FlowRule encapRule(Sfc sfc, ApplicationId appId) {
        return PiRules.rule(sfc.ingress().deviceId(), appId, SRV6_ENCAP,
                            PiCriterion.builder().matchExact(CHAIN_ID_KEY, sfc.id().tag()).build(), 0,
                            PiActionProfileGroupId.of(sfc.id().tag()));
    }

    /**
     * Builds the chain's SELECT group.
     *
     * @param sfc   chain
     * @param paths its segment lists
     * @param appId app id
     * @return group description on the ingress device
     */
    public static GroupDescription encapGroup(Sfc sfc, SfcPaths paths, ApplicationId appId) {
        List<GroupBucket> buckets = paths.segmentLists().stream()
                .map(ChainProgrammer::bucket)
                .collect(Collectors.toList());
        return new DefaultGroupDescription(sfc.ingress().deviceId(), GroupDescription.Type.SELECT,
                                           new GroupBuckets(buckets), groupKey(sfc), sfc.id().tag(), appId);
    }

    /**
     * Builds the group member of one segment list.
     *
     * @param list segment list
     * @return bucket
     */
    public static GroupBucket bucket(SegmentList list) {
        return DefaultGroupBucket.createSelectGroupBucket(
                DefaultTrafficTreatment.builder().piTableAction(encapAction(list)).build(),
                (short) list.weight());
    }

    /**
     * Builds H.Encaps.INT for a segment list: travel order reversed into
     * Segment List[0..LastEntry]; Segment List[LastEntry] (the ingress's own
     * SID) comes from switch_info, unused s&lt;i&gt; are written as ::.
     *
     * @param list segment list
     * @return action
     */
    public static PiAction encapAction(SegmentList list) {
        List<Ip6Address> travel = list.segments();
        return Srv6IntActions.hEncapsInt(travel.subList(1, travel.size()));
    }

    private static int specificity(FlowClassifier c) {
        int s = c.srcPrefix().prefixLength() + c.dstPrefix().prefixLength();
        s += c.ipProto() != FlowClassifier.ANY ? 8 : 0;
        s += c.l4SrcPort() != FlowClassifier.ANY ? 16 : 0;
        s += c.l4DstPort() != FlowClassifier.ANY ? 16 : 0;
        return s;
    }
}
