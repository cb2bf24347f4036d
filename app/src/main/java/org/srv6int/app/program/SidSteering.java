package org.srv6int.app.program;

import org.onlab.packet.Ip6Address;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowEntry;
import org.onosproject.net.flow.FlowRuleService;
import org.srv6int.pipeconf.Srv6IntConstants;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Reads off ONOS's flow store whether a switch may still steer packets to a SID: a replica's SID
 * reaches packets only through the segment lists of the chains' bucket tables ({@code srv6_encap},
 * {@link BucketTables}). An entry counts until it is gone; a rewrite of the chain's table counts
 * until the switch confirmed it (ADDED), since until then the switch may still hold the list it
 * replaces. The scale-in deletes a drained replica's pod only once this is empty
 * (docs/global-loop.md, "Scale-in").
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
        List<String> where = new ArrayList<>();
        for (DeviceId d : devices) {
            Iterable<FlowEntry> entries = flows.getFlowEntries(d);
            if (entries == null) {
                continue;
            }
            int holding = 0;
            int unconfirmed = 0;
            for (FlowEntry e : entries) {
                if (!e.table().equals(Srv6IntConstants.SRV6_INT_INGRESS_ENCAP_SRV6_ENCAP)
                        || e.state() == FlowEntry.FlowEntryState.REMOVED) {
                    continue;
                }
                if (sid != null && BucketTables.travel(e).contains(sid)) {
                    holding++;
                } else if (e.state() != FlowEntry.FlowEntryState.ADDED
                        && BucketTables.chainAndBucket(e).map(tb -> tb[0] == chainTag).orElse(false)) {
                    unconfirmed++;
                }
            }
            if (holding > 0 || unconfirmed > 0) {
                where.add(d + ": " + (holding > 0 ? holding + " bucket entr" + (holding == 1 ? "y" : "ies")
                        + " with " + sid : "")
                        + (holding > 0 && unconfirmed > 0 ? ", " : "")
                        + (unconfirmed > 0 ? unconfirmed + " rewrite" + (unconfirmed == 1 ? "" : "s")
                        + " of chain " + chainTag + " not confirmed" : ""));
            }
        }
        return where.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", where));
    }
}
