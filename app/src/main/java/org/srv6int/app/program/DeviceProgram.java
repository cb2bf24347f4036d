// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.program;

import com.google.common.base.MoreObjects;
import com.google.common.collect.ImmutableList;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.group.GroupDescription;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.model.SfcPaths;

import java.util.List;

import static com.google.common.base.Preconditions.checkNotNull;

/**
 * Everything the app wants on one switch: the rules that do not depend on a
 * chain being routable first (switch info, report config, routing, my_sid),
 * the chains whose ingress it is (classifier entry and segment lists: the
 * bucket table is worked out against what is installed, see
 * {@link BucketTables}), and the groups (the report clone session).
 */
public final class DeviceProgram {

    /** A chain at its ingress: its classifier entry and the segment lists its buckets choose from. */
    public static final class ChainIngress {
        private final Sfc sfc;
        private final FlowRule classifier;
        private final SfcPaths paths;

        /**
         * Creates a chain's ingress program.
         *
         * @param sfc        chain
         * @param classifier its classifier entry
         * @param paths      its segment lists (not empty)
         */
        public ChainIngress(Sfc sfc, FlowRule classifier, SfcPaths paths) {
            this.sfc = checkNotNull(sfc, "sfc is null");
            this.classifier = checkNotNull(classifier, "classifier is null");
            this.paths = checkNotNull(paths, "paths is null");
        }

        /**
         * Returns the chain.
         *
         * @return chain
         */
        public Sfc sfc() {
            return sfc;
        }

        /**
         * Returns the classifier entry.
         *
         * @return rule
         */
        public FlowRule classifier() {
            return classifier;
        }

        /**
         * Returns the segment lists.
         *
         * @return paths
         */
        public SfcPaths paths() {
            return paths;
        }
    }

    private final DeviceId deviceId;
    private final List<FlowRule> baseRules;
    private final List<ChainIngress> chains;
    private final List<GroupDescription> groups;

    /**
     * Creates a device program.
     *
     * @param deviceId  device
     * @param baseRules switch, routing and SID rules
     * @param chains    chains whose ingress this switch is
     * @param groups    groups
     */
    public DeviceProgram(DeviceId deviceId, List<FlowRule> baseRules, List<ChainIngress> chains,
                         List<GroupDescription> groups) {
        this.deviceId = deviceId;
        this.baseRules = ImmutableList.copyOf(baseRules);
        this.chains = ImmutableList.copyOf(chains);
        this.groups = ImmutableList.copyOf(groups);
    }

    /**
     * Returns the device.
     *
     * @return device id
     */
    public DeviceId deviceId() {
        return deviceId;
    }

    /**
     * Returns the switch, routing and SID rules.
     *
     * @return rules
     */
    public List<FlowRule> baseRules() {
        return baseRules;
    }

    /**
     * Returns the chains whose ingress this switch is.
     *
     * @return chains
     */
    public List<ChainIngress> chains() {
        return chains;
    }

    /**
     * Returns the groups.
     *
     * @return groups
     */
    public List<GroupDescription> groups() {
        return groups;
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper(this).add("device", deviceId).add("baseRules", baseRules.size())
                .add("chains", chains.size()).add("groups", groups.size()).toString();
    }
}
