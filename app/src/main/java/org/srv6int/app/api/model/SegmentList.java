// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api.model;

import com.google.common.base.MoreObjects;
import com.google.common.collect.ImmutableList;
import org.onlab.packet.Ip6Address;
import org.onosproject.net.DeviceId;

import java.util.List;
import java.util.Objects;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

/**
 * One path of a chain through one combination of replicas (one replica per
 * vNF), and its multipath weight at the ingress.
 *
 * <p>{@link #segments()} is in travel order: the ingress switch's SID first
 * (hop 0, see docs/wire-format.md 1.3), then the SID of each endpoint, the
 * egress's End.DT.INT SID last. The SRH carries them reversed
 * ({@code Segment List[LastEntry]} = first).
 */
public final class SegmentList {

    /** Most segments an SRH of the P4 program carries. */
    public static final int MAX_SEGMENTS = 8;

    private final List<Ip6Address> segments;
    private final List<DeviceId> switchPath;
    private final List<VnfReplicaId> replicas;
    private final int weight;

    /**
     * Creates a segment list.
     *
     * @param segments   SIDs in travel order
     * @param switchPath every switch the packet crosses, ingress to egress
     * @param replicas   the replica used for each vNF, in chain order
     * @param weight     multipath weight, 1..255
     */
    public SegmentList(List<Ip6Address> segments, List<DeviceId> switchPath, List<VnfReplicaId> replicas,
                       int weight) {
        this.segments = ImmutableList.copyOf(checkNotNull(segments, "segments is null"));
        this.switchPath = ImmutableList.copyOf(checkNotNull(switchPath, "switch path is null"));
        this.replicas = ImmutableList.copyOf(checkNotNull(replicas, "replicas is null"));
        checkArgument(this.segments.size() >= 2 && this.segments.size() <= MAX_SEGMENTS,
                      "a segment list has 2..%s segments, got %s", MAX_SEGMENTS, this.segments.size());
        checkArgument(weight >= 1 && weight <= 255, "weight must be in 1..255, got %s", weight);
        this.weight = weight;
    }

    /**
     * Returns the SIDs in travel order.
     *
     * @return segments
     */
    public List<Ip6Address> segments() {
        return segments;
    }

    /**
     * Returns the switches the packet crosses, ingress to egress (a switch
     * appears more than once if the path turns back through it).
     *
     * @return switch path
     */
    public List<DeviceId> switchPath() {
        return switchPath;
    }

    /**
     * Returns the replica used for each vNF, in chain order.
     *
     * @return replica ids
     */
    public List<VnfReplicaId> replicas() {
        return replicas;
    }

    /**
     * Returns the multipath weight of this list in the ingress's group.
     *
     * @return weight
     */
    public int weight() {
        return weight;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof SegmentList)) {
            return false;
        }
        SegmentList that = (SegmentList) o;
        return weight == that.weight && segments.equals(that.segments) && switchPath.equals(that.switchPath)
                && replicas.equals(that.replicas);
    }

    @Override
    public int hashCode() {
        return Objects.hash(segments, switchPath, replicas, weight);
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper(this).add("segments", segments).add("switchPath", switchPath)
                .add("replicas", replicas).add("weight", weight).toString();
    }
}
