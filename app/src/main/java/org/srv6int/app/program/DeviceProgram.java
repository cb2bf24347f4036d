package org.srv6int.app.program;

import com.google.common.base.MoreObjects;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.group.GroupDescription;
import org.onosproject.net.group.GroupKey;
import org.srv6int.app.api.SegmentList;

import java.util.List;
import java.util.Map;

/**
 * Everything the app wants on one switch: the rules that do not depend on a
 * chain being routable first (switch info, report config, routing, my_sid),
 * the chain rules at an ingress (classifier, encap) that need their group in
 * place first, and the groups (encap groups and the report clone session)
 * with the segment lists behind each encap bucket.
 */
public final class DeviceProgram {

    private final DeviceId deviceId;
    private final List<FlowRule> baseRules;
    private final Map<GroupKey, List<FlowRule>> chainRules;
    private final List<GroupDescription> groups;
    private final Map<GroupKey, List<SegmentList>> groupLists;

    /**
     * Creates a device program.
     *
     * @param deviceId   device
     * @param baseRules  switch, routing and SID rules
     * @param chainRules classifier and encap rules, by the encap group they need
     * @param groups     groups
     * @param groupLists for each encap group, its segment lists in bucket order
     */
    public DeviceProgram(DeviceId deviceId, List<FlowRule> baseRules, Map<GroupKey, List<FlowRule>> chainRules,
                         List<GroupDescription> groups, Map<GroupKey, List<SegmentList>> groupLists) {
        this.deviceId = deviceId;
        this.baseRules = ImmutableList.copyOf(baseRules);
        this.chainRules = ImmutableMap.copyOf(chainRules);
        this.groups = ImmutableList.copyOf(groups);
        this.groupLists = ImmutableMap.copyOf(groupLists);
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
     * Returns the classifier and encap rules by the encap group they need.
     *
     * @return rules by group key
     */
    public Map<GroupKey, List<FlowRule>> chainRules() {
        return chainRules;
    }

    /**
     * Returns the groups.
     *
     * @return groups
     */
    public List<GroupDescription> groups() {
        return groups;
    }

    /**
     * Returns the segment lists behind each encap group's buckets.
     *
     * @return lists by group key
     */
    public Map<GroupKey, List<SegmentList>> groupLists() {
        return groupLists;
    }

    /**
     * Returns every rule.
     *
     * @return base then chain rules
     */
    public List<FlowRule> allRules() {
        ImmutableList.Builder<FlowRule> b = ImmutableList.<FlowRule>builder().addAll(baseRules);
        chainRules.values().forEach(b::addAll);
        return b.build();
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper(this).add("device", deviceId).add("baseRules", baseRules.size())
                .add("chainRules", chainRules.size()).add("groups", groups.size()).toString();
    }
}
