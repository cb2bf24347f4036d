package org.srv6int.app.loop;

import org.srv6int.app.api.VnfKey;

import java.util.Optional;

/**
 * The loop's port towards what the switches hold: whether any switch may still steer a packet to
 * a replica. A drained replica's pod is deleted only once this says no (docs/global-loop.md,
 * "Scale-in"): the flow programming moves its buckets after the inventory change, not with it.
 */
public interface SwitchSteering {

    /**
     * Returns where the switches may still steer packets to a replica: an installed entry that
     * holds its SID (a bucket of the chain's table, i.e. a segment list through it), or a rewrite
     * of the chain's table the switch has not confirmed yet (it may still hold the old list).
     *
     * @param vnf       vNF
     * @param replicaId replica id
     * @return empty once every switch confirmed that none of its entries holds the SID; otherwise
     *         where it still may, for the decision's detail
     * @throws RuntimeException if the switches cannot be read (counts as not confirmed)
     */
    Optional<String> stillSteering(VnfKey vnf, String replicaId);
}
