// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.switchstate;

import org.srv6int.pipeconf.Srv6IntConstants;
import org.onosproject.net.flow.criteria.PiCriterion;
import org.onosproject.net.flow.DefaultTrafficSelector;
import org.onosproject.net.flow.FlowEntry;
import org.onosproject.net.flow.FlowRuleService;
import org.onosproject.net.flow.TrafficSelector;
import org.onosproject.net.flow.instructions.Instruction;
import org.onosproject.net.flow.instructions.PiInstruction;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiActionParam;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.model.VnfReplica;

import java.math.BigInteger;
import java.util.OptionalLong;

/**
 * Reads the packet counters of the app's entries from ONOS's flow statistics: the P4 program has
 * direct counters on {@code sfc_classifier} and {@code my_sid} (docs/p4-tables.md), which ONOS's
 * P4Runtime driver reads with the table entries into {@link FlowEntry#packets()}. Used by the
 * failure detection (docs/failures.md): a chain's classifier entry counts the traffic its ingress
 * classifies, a replica's my_sid entry the packets that reached its switch for it.
 */
public final class SwitchCounters {

    private SwitchCounters() {
    }

    /**
     * Returns the packets a chain's ingress classified: the counter of its classifier entry.
     *
     * @param flows flow rule service
     * @param sfc   chain
     * @return packets, empty if the entry is not installed (or the service has nothing)
     */
    public static OptionalLong classified(FlowRuleService flows, Sfc sfc) {
        Iterable<FlowEntry> entries = flows.getFlowEntries(sfc.ingress().deviceId());
        return entries == null ? OptionalLong.empty() : classified(entries, sfc);
    }

    /**
     * Returns the packets a chain's ingress classified, from entries already read.
     *
     * @param entries the ingress switch's entries
     * @param sfc     chain
     * @return packets, empty if the entry is not among them
     */
    public static OptionalLong classified(Iterable<FlowEntry> entries, Sfc sfc) {
        long sum = 0;
        boolean found = false;
        for (FlowEntry e : entries) {
            if (e.state() == FlowEntry.FlowEntryState.ADDED && isClassifierOf(e, sfc)) {
                sum += e.packets();
                found = true;
            }
        }
        return found ? OptionalLong.of(sum) : OptionalLong.empty();
    }

    /**
     * Returns the packets that reached a replica's switch for its SID: the counter of its my_sid entry.
     *
     * @param flows   flow rule service
     * @param replica replica
     * @return packets, empty if the entry is not installed
     */
    public static OptionalLong sidPackets(FlowRuleService flows, VnfReplica replica) {
        Iterable<FlowEntry> entries = flows.getFlowEntries(replica.deviceId());
        return entries == null ? OptionalLong.empty() : sidPackets(entries, replica);
    }

    /**
     * Returns the packets that reached a replica's switch for its SID, from entries already read.
     *
     * @param entries the replica's switch's entries
     * @param replica replica
     * @return packets, empty if the entry is not among them
     */
    public static OptionalLong sidPackets(Iterable<FlowEntry> entries, VnfReplica replica) {
        for (FlowEntry e : entries) {
            if (e.state() == FlowEntry.FlowEntryState.ADDED && isSidEntryOf(e, replica)) {
                return OptionalLong.of(e.packets());
            }
        }
        return OptionalLong.empty();
    }

    /**
     * Returns whether an entry is a chain's classifier entry (sets its chain id).
     *
     * @param e   entry
     * @param sfc chain
     * @return true if so
     */
    public static boolean isClassifierOf(FlowEntry e, Sfc sfc) {
        return e.deviceId().equals(sfc.ingress().deviceId())
                && e.table().equals(Srv6IntConstants.SRV6_INT_INGRESS_CLASSIFIER_SFC_CLASSIFIER)
                && setsChain(e, sfc.id().tag());
    }

    /**
     * Returns whether an entry is a replica's my_sid entry (its SID, /128).
     *
     * @param e       entry
     * @param replica replica
     * @return true if so
     */
    public static boolean isSidEntryOf(FlowEntry e, VnfReplica replica) {
        TrafficSelector sel = DefaultTrafficSelector.builder()
                .matchPi(PiCriterion.builder().matchLpm(Srv6IntConstants.HDR_IPV6_DST, replica.sid().toOctets(), 128)
                                 .build()).build();
        return e.deviceId().equals(replica.deviceId())
                && e.table().equals(Srv6IntConstants.SRV6_INT_INGRESS_ENDPOINT_MY_SID)
                && e.selector().equals(sel);
    }

    private static boolean setsChain(FlowEntry e, int tag) {
        for (Instruction i : e.treatment().allInstructions()) {
            if (i instanceof PiInstruction && ((PiInstruction) i).action() instanceof PiAction) {
                PiAction a = (PiAction) ((PiInstruction) i).action();
                if (!a.id().equals(Srv6IntConstants.SRV6_INT_INGRESS_CLASSIFIER_SET_CHAIN)) {
                    continue;
                }
                for (PiActionParam p : a.parameters()) {
                    if (p.id().equals(Srv6IntConstants.CHAIN_ID)) {
                        return new BigInteger(1, p.value().asArray()).intValue() == tag;
                    }
                }
            }
        }
        return false;
    }
}
