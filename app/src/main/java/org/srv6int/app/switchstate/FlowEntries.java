// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.switchstate;

import org.onlab.packet.Ip6Address;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.criteria.Criterion;
import org.onosproject.net.flow.criteria.PiCriterion;
import org.onosproject.net.flow.instructions.Instruction;
import org.onosproject.net.flow.instructions.PiInstruction;
import org.onosproject.net.pi.model.PiActionParamId;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiActionParam;
import org.onosproject.net.pi.runtime.PiExactFieldMatch;
import org.onosproject.net.pi.runtime.PiFieldMatch;
import org.srv6int.pipeconf.Srv6IntConstants;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.srv6int.pipeconf.Srv6IntConstants.LAST_ENTRY;
import static org.srv6int.pipeconf.Srv6IntConstants.S0;
import static org.srv6int.pipeconf.Srv6IntConstants.S1;
import static org.srv6int.pipeconf.Srv6IntConstants.S2;
import static org.srv6int.pipeconf.Srv6IntConstants.S3;
import static org.srv6int.pipeconf.Srv6IntConstants.S4;
import static org.srv6int.pipeconf.Srv6IntConstants.S5;
import static org.srv6int.pipeconf.Srv6IntConstants.S6;
import static org.srv6int.pipeconf.Srv6IntConstants.SRV6_INT_INGRESS_ENCAP_H_ENCAPS_INT;

/**
 * Reads the app's own srv6_encap entries back: which chain and bucket an entry serves and which
 * SIDs it sends to (the inverse of the flow programming's encoding, program/ChainProgrammer).
 */
public final class FlowEntries {

    private FlowEntries() {
    }

    /**
     * Returns the chain tag and bucket of a srv6_encap entry.
     *
     * @param rule entry
     * @return {tag, bucket}, empty if the rule is no bucket entry
     */
    public static Optional<int[]> chainAndBucket(FlowRule rule) {
        Criterion c = rule.selector().getCriterion(Criterion.Type.PROTOCOL_INDEPENDENT);
        if (!(c instanceof PiCriterion)) {
            return Optional.empty();
        }
        Optional<PiFieldMatch> tag = ((PiCriterion) c).fieldMatch(Srv6IntConstants.HDR_CHAIN_ID);
        Optional<PiFieldMatch> bucket = ((PiCriterion) c).fieldMatch(Srv6IntConstants.HDR_BUCKET);
        if (tag.isEmpty() || bucket.isEmpty() || !(tag.get() instanceof PiExactFieldMatch)
                || !(bucket.get() instanceof PiExactFieldMatch)) {
            return Optional.empty();
        }
        return Optional.of(new int[] {(int) value(((PiExactFieldMatch) tag.get()).value().asArray()),
                                      (int) value(((PiExactFieldMatch) bucket.get()).value().asArray())});
    }

    private static long value(byte[] b) {
        long v = 0;
        for (byte x : b) {
            v = (v << 8) | (x & 0xFF);
        }
        return v;
    }

    /**
     * Returns the SIDs (after the ingress) an installed encap entry sends to.
     *
     * @param rule srv6_encap entry
     * @return SIDs in travel order, empty if none
     */
    public static List<Ip6Address> travel(FlowRule rule) {
        for (Instruction i : rule.treatment().allInstructions()) {
            if (i instanceof PiInstruction && ((PiInstruction) i).action() instanceof PiAction) {
                return travel((PiAction) ((PiInstruction) i).action());
            }
        }
        return List.of();
    }

    /**
     * Returns the SIDs an installed H.Encaps.INT action sends to, in travel
     * order after the ingress (the inverse of ChainProgrammer.encapAction).
     *
     * @param a action of a srv6_encap entry
     * @return SIDs, empty if the action is not H.Encaps.INT
     */
    public static List<Ip6Address> travel(PiAction a) {
        if (!a.id().equals(SRV6_INT_INGRESS_ENCAP_H_ENCAPS_INT)) {
            return List.of();
        }
        Map<PiActionParamId, PiActionParam> p = new HashMap<>();
        a.parameters().forEach(x -> p.put(x.id(), x));
        PiActionParam le = p.get(LAST_ENTRY);
        if (le == null) {
            return List.of();
        }
        byte[] leBytes = le.value().asArray();
        int n = leBytes[leBytes.length - 1] & 0xFF;
        PiActionParamId[] ids = {S0, S1, S2, S3, S4, S5, S6};
        List<Ip6Address> out = new ArrayList<>();
        for (int j = 0; j < n && j < ids.length; j++) {
            PiActionParam s = p.get(ids[n - 1 - j]);
            if (s == null || s.value().size() != Ip6Address.BYTE_LENGTH) {
                return List.of();
            }
            out.add(Ip6Address.valueOf(s.value().asArray()));
        }
        return out;
    }
}
