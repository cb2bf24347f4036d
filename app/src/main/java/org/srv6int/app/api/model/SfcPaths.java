// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api.model;

import com.google.common.base.MoreObjects;
import com.google.common.collect.ImmutableList;

import java.util.List;
import java.util.Objects;

import static com.google.common.base.Preconditions.checkNotNull;

/**
 * The computed routing of a chain: one {@link SegmentList} per combination of
 * replicas that carry traffic, each with its multipath weight.
 */
public final class SfcPaths {

    private final SfcId sfcId;
    private final List<SegmentList> segmentLists;

    /**
     * Creates the paths of a chain.
     *
     * @param sfcId        chain id
     * @param segmentLists segment lists (empty if the chain cannot be routed)
     */
    public SfcPaths(SfcId sfcId, List<SegmentList> segmentLists) {
        this.sfcId = checkNotNull(sfcId, "chain id is null");
        this.segmentLists = ImmutableList.copyOf(checkNotNull(segmentLists, "segment lists is null"));
    }

    /**
     * Returns the chain id.
     *
     * @return chain id
     */
    public SfcId sfcId() {
        return sfcId;
    }

    /**
     * Returns the segment lists of the chain's multipath group.
     *
     * @return segment lists
     */
    public List<SegmentList> segmentLists() {
        return segmentLists;
    }

    /**
     * Returns the sum of the weights.
     *
     * @return total weight
     */
    public int totalWeight() {
        return segmentLists.stream().mapToInt(SegmentList::weight).sum();
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof SfcPaths)) {
            return false;
        }
        SfcPaths that = (SfcPaths) o;
        return sfcId.equals(that.sfcId) && segmentLists.equals(that.segmentLists);
    }

    @Override
    public int hashCode() {
        return Objects.hash(sfcId, segmentLists);
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper(this).add("sfcId", sfcId).add("segmentLists", segmentLists).toString();
    }
}
