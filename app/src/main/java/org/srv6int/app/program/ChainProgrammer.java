// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.program;

import org.srv6int.pipeconf.Srv6IntPipelineConstants;
import org.srv6int.pipeconf.Srv6IntActions;
import org.onlab.packet.Ip6Address;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.criteria.PiCriterion;
import org.onosproject.net.pi.runtime.PiAction;
import org.srv6int.app.api.model.FlowClassifier;
import org.srv6int.app.api.model.SegmentList;
import org.srv6int.app.api.model.Sfc;

import java.util.List;

import static org.srv6int.pipeconf.Srv6IntConstants.HDR_BUCKET;
import static org.srv6int.pipeconf.Srv6IntConstants.HDR_CHAIN_ID;
import static org.srv6int.pipeconf.Srv6IntConstants.HDR_IG_PORT;
import static org.srv6int.pipeconf.Srv6IntConstants.HDR_IPV4_DST;
import static org.srv6int.pipeconf.Srv6IntConstants.HDR_IPV4_SRC;
import static org.srv6int.pipeconf.Srv6IntConstants.HDR_IPV6_DST;
import static org.srv6int.pipeconf.Srv6IntConstants.HDR_IPV6_SRC;
import static org.srv6int.pipeconf.Srv6IntConstants.HDR_IP_PROTO;
import static org.srv6int.pipeconf.Srv6IntConstants.HDR_L4_DPORT;
import static org.srv6int.pipeconf.Srv6IntConstants.HDR_L4_SPORT;
import static org.srv6int.pipeconf.Srv6IntConstants.SRV6_INT_INGRESS_CLASSIFIER_SFC_CLASSIFIER;
import static org.srv6int.pipeconf.Srv6IntConstants.SRV6_INT_INGRESS_ENCAP_SRV6_ENCAP;


/**
 * A chain's entries at its ingress switch (H.Encaps.INT): the classifier
 * entry that tags its traffic with the chain id, and its bucket table: one
 * srv6_encap entry per (chain, bucket) with the segment list of that bucket
 * ({@link BucketTables} decides which).
 */
public final class ChainProgrammer {

    /** Base priority of classifier entries; more specific classifiers rank higher. */
    public static final int CLASSIFIER_PRIORITY = 1000;

    private ChainProgrammer() {
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
                .matchTernary(HDR_IG_PORT, sfc.ingress().port().toLong(), 0x1FF);
        if (c.ipProto() != FlowClassifier.ANY) {
            m.matchTernary(HDR_IP_PROTO, c.ipProto(), 0xFF);
        }
        int bytes = c.isIp4() ? 4 : 16;
        if (c.srcPrefix().prefixLength() > 0) {
            m.matchTernary(c.isIp4() ? HDR_IPV4_SRC : HDR_IPV6_SRC, c.srcPrefix().address().toOctets(),
                           PiRules.prefixMask(bytes, c.srcPrefix().prefixLength()));
        }
        if (c.dstPrefix().prefixLength() > 0) {
            m.matchTernary(c.isIp4() ? HDR_IPV4_DST : HDR_IPV6_DST, c.dstPrefix().address().toOctets(),
                           PiRules.prefixMask(bytes, c.dstPrefix().prefixLength()));
        }
        if (c.l4SrcPort() != FlowClassifier.ANY) {
            m.matchTernary(HDR_L4_SPORT, c.l4SrcPort(), 0xFFFF);
        }
        if (c.l4DstPort() != FlowClassifier.ANY) {
            m.matchTernary(HDR_L4_DPORT, c.l4DstPort(), 0xFFFF);
        }
        PiAction a = Srv6IntActions.setChain(sfc.id().tag(), !sfc.vnfs().isEmpty(),
                Srv6IntPipelineConstants.DEFAULT_MAP_INFO,
                                             sfc.intSamplingRate());
        return PiRules.rule(sfc.ingress().deviceId(), appId, SRV6_INT_INGRESS_CLASSIFIER_SFC_CLASSIFIER, m.build(),
                            CLASSIFIER_PRIORITY + specificity(c), a);
    }

    /**
     * Builds the srv6_encap entry of one bucket of a chain: the flows whose
     * hash falls into {@code bucket} take {@code list}.
     *
     * @param sfc    chain
     * @param bucket bucket, 0..ENCAP_BUCKETS-1
     * @param list   segment list
     * @param appId  app id
     * @return rule on the ingress device
     */
    public static FlowRule bucketRule(Sfc sfc, int bucket, SegmentList list, ApplicationId appId) {
        return PiRules.rule(sfc.ingress().deviceId(), appId, SRV6_INT_INGRESS_ENCAP_SRV6_ENCAP,
                            bucketCriterion(sfc, bucket), 0, encapAction(list));
    }

    /**
     * Builds the match of one bucket of a chain.
     *
     * @param sfc    chain
     * @param bucket bucket
     * @return criterion
     */
    public static PiCriterion bucketCriterion(Sfc sfc, int bucket) {
        return PiCriterion.builder().matchExact(HDR_CHAIN_ID, sfc.id().tag())
                .matchExact(HDR_BUCKET, bucket).build();
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
