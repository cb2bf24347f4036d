// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.switchstate;

import org.onlab.packet.Ip6Address;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowEntry;
import org.onosproject.net.flow.FlowRuleService;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.pipeconf.Srv6IntConstants;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Reads off ONOS's flow store whether a switch may still steer packets to a SID or into a chain:
 * a replica's SID reaches packets only through the segment lists of the chains' bucket tables
 * ({@code srv6_encap}, program/BucketTables), a chain only through its classifier and bucket
 * table. An entry counts until it is gone; a rewrite of the chain's table counts until the switch
 * confirmed it (ADDED), since until then the switch may still hold the list it replaces. The
 * scale-in deletes a drained replica's pod only once {@link #stillSteering} is empty, a removed
 * chain's workloads go once {@link #chainEntries} is (docs/global-loop.md, "Scale-in").
 */
public final class SidSteering {

    private SidSteering() {
    }

    /**
     * Returns where the switches may still steer packets to a SID.
     *
     * @param flows    flow rule service (the cluster's flow store)
     * @param devices  the SRv6 switches
     * @param chainTag the chain the SID's replica belongs to (whose unconfirmed rewrites count)
     * @param sid      the replica's SID; null if unknown (a replica the inventory no longer has: the
     *                 programming moved its buckets at once), then only the chain's unconfirmed
     *                 rewrites count
     * @return empty if no switch's bucket table holds it and the chain's rewrites are all confirmed;
     *         otherwise per switch how many entries hold it and how many rewrites are unconfirmed
     */
    public static Optional<String> stillSteering(FlowRuleService flows, Collection<DeviceId> devices, int chainTag,
                                                 Ip6Address sid) {
        return perSwitch(flows, devices, entries -> {
            int holding = 0;
            int unconfirmed = 0;
            for (FlowEntry e : entries) {
                if (!e.table().equals(Srv6IntConstants.SRV6_INT_INGRESS_ENCAP_SRV6_ENCAP)
                        || e.state() == FlowEntry.FlowEntryState.REMOVED) {
                    continue;
                }
                if (sid != null && FlowEntries.travel(e).contains(sid)) {
                    holding++;
                } else if (e.state() != FlowEntry.FlowEntryState.ADDED && ofChain(e, chainTag)) {
                    unconfirmed++;
                }
            }
            String held = holding == 0 ? "" : holding + " bucket entr" + (holding == 1 ? "y" : "ies") + " with " + sid;
            String pending = unconfirmed == 0 ? ""
                    : unconfirmed + " rewrite" + (unconfirmed == 1 ? "" : "s") + " of chain " + chainTag
                            + " not confirmed";
            return held.isEmpty() || pending.isEmpty() ? held + pending : held + ", " + pending;
        });
    }

    /**
     * Returns where the switches still hold entries of a chain: its classifier (which sends
     * packets into the chain) and its bucket table (which sends them to its replicas).
     *
     * @param flows   flow rule service (the cluster's flow store)
     * @param devices the SRv6 switches
     * @param sfc     the chain
     * @return empty if no switch holds an entry of it; otherwise per switch how many
     */
    public static Optional<String> chainEntries(FlowRuleService flows, Collection<DeviceId> devices, Sfc sfc) {
        return perSwitch(flows, devices, entries -> {
            int n = 0;
            for (FlowEntry e : entries) {
                if (e.state() != FlowEntry.FlowEntryState.REMOVED
                        && (SwitchCounters.isClassifierOf(e, sfc) || ofChain(e, sfc.id().tag()))) {
                    n++;
                }
            }
            return n == 0 ? "" : n + " entr" + (n == 1 ? "y" : "ies") + " of chain " + sfc.id();
        });
    }

    private static boolean ofChain(FlowEntry e, int chainTag) {
        return FlowEntries.chainAndBucket(e).map(tb -> tb[0] == chainTag).orElse(false);
    }

    /** What each switch holds ("" for nothing), joined; empty if no switch holds anything. */
    private static Optional<String> perSwitch(FlowRuleService flows, Collection<DeviceId> devices,
                                              Function<Iterable<FlowEntry>, String> what) {
        List<String> where = new ArrayList<>();
        for (DeviceId d : devices) {
            Iterable<FlowEntry> entries = flows.getFlowEntries(d);
            String w = entries == null ? "" : what.apply(entries);
            if (!w.isEmpty()) {
                where.add(d + ": " + w);
            }
        }
        return where.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", where));
    }
}
