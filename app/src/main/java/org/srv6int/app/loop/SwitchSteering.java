// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowRuleService;
import org.srv6int.app.api.VnfInventoryService;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.api.model.VnfReplicaId;
import org.srv6int.app.switchstate.SidSteering;

import java.util.Collection;
import java.util.Optional;
import java.util.function.Supplier;

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

    /**
     * The switches' view as ONOS's flow store holds it ({@link SidSteering}): the replica's SID
     * from the inventory, the chain's table on every SRv6 switch.
     *
     * @param flows     flow rule service
     * @param devices   the SRv6 switches, read at each call
     * @param inventory the replicas (a replica no longer there has no SID: only the chain's
     *                  unconfirmed rewrites count)
     * @return the port
     */
    static SwitchSteering ofFlowStore(FlowRuleService flows, Supplier<? extends Collection<DeviceId>> devices,
                                      VnfInventoryService inventory) {
        return (vnf, replica) -> SidSteering.stillSteering(flows, devices.get(), vnf.sfcId().tag(),
                inventory.getReplica(VnfReplicaId.of(vnf, replica)).map(VnfReplica::sid).orElse(null));
    }
}
