// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.telemetry;

import org.onosproject.net.DeviceId;
import org.srv6int.app.api.model.SegmentList;
import org.srv6int.app.api.model.SfcPaths;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.api.model.VnfReplicaId;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Derives {@link HopBinding}s from the chains' segment lists: a replica whose SID is
 * {@code segments().get(j)} of a segment list of chain c is bound to (c, hop j, Device_ID of the
 * switch its server hangs off). Hop j is the path position the codec reports (0 = ingress),
 * because the ingress SID is {@code segments().get(0)} and each endpoint overwrites the segment
 * it consumed in place.
 */
public final class HopBindings {

    private HopBindings() {
    }

    /**
     * Computes the bindings of every chain.
     *
     * @param paths       every chain's segment lists
     * @param replica     looks a replica up (empty if unknown, then it is skipped)
     * @param intDeviceId the INT Device_ID of an ONOS device (empty if unconfigured, then skipped)
     * @return bindings, without duplicates
     */
    public static List<HopBinding> of(Collection<SfcPaths> paths, Function<VnfReplicaId, Optional<VnfReplica>> replica,
                                      Function<DeviceId, Optional<Integer>> intDeviceId) {
        Set<HopBinding> out = new LinkedHashSet<>();
        for (SfcPaths p : paths) {
            int tag = p.sfcId().tag();
            for (SegmentList sl : p.segmentLists()) {
                for (VnfReplicaId id : sl.replicas()) {
                    Optional<VnfReplica> r = replica.apply(id);
                    if (r.isEmpty()) {
                        continue;
                    }
                    int hop = sl.segments().indexOf(r.get().sid());
                    Optional<Integer> dev = intDeviceId.apply(r.get().deviceId());
                    if (hop < 0 || dev.isEmpty()) {
                        continue;
                    }
                    out.add(new HopBinding(tag, hop, dev.get(), id.vnf(), id.name()));
                }
            }
        }
        return new ArrayList<>(out);
    }
}
