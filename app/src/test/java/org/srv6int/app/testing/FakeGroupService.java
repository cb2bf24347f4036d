package org.srv6int.app.testing;

import org.onosproject.core.ApplicationId;
import org.onosproject.core.GroupId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.group.DefaultGroup;
import org.onosproject.net.group.DefaultGroupDescription;
import org.onosproject.net.group.Group;
import org.onosproject.net.group.GroupBuckets;
import org.onosproject.net.group.GroupDescription;
import org.onosproject.net.group.GroupKey;
import org.onosproject.net.group.GroupServiceAdapter;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Group service that keeps groups per device and key like ONOS's group
 * store; groups are ADDED at once. Every operation is logged in order.
 */
public class FakeGroupService extends GroupServiceAdapter {

    private final Map<List<Object>, DefaultGroup> groups = new LinkedHashMap<>();
    private final List<String> log = new ArrayList<>();

    private static DefaultGroup added(GroupDescription d) {
        DefaultGroup g = new DefaultGroup(GroupId.valueOf(d.givenGroupId()), d);
        g.setState(Group.GroupState.ADDED);
        return g;
    }

    @Override
    public synchronized void addGroup(GroupDescription d) {
        List<Object> k = List.of(d.deviceId(), d.appCookie());
        if (groups.containsKey(k)) {
            throw new IllegalStateException("group exists: " + k);
        }
        groups.put(k, added(d));
        log.add("+ group " + Rules.describe(d.deviceId(), d.givenGroupId(), d.buckets()));
    }

    @Override
    public synchronized Group getGroup(DeviceId deviceId, GroupKey appCookie) {
        return groups.get(List.of(deviceId, appCookie));
    }

    @Override
    public synchronized void setBucketsForGroup(DeviceId deviceId, GroupKey oldCookie, GroupBuckets buckets,
                                                GroupKey newCookie, ApplicationId appId) {
        DefaultGroup old = groups.remove(List.of(deviceId, oldCookie));
        if (old == null) {
            throw new IllegalStateException("no group " + oldCookie + " on " + deviceId);
        }
        GroupDescription d = new DefaultGroupDescription(deviceId, old.type(), buckets, newCookie, old.id().id(),
                                                         appId);
        groups.put(List.of(deviceId, newCookie), added(d));
        log.add("= group " + Rules.describe(deviceId, old.id().id(), buckets));
    }

    @Override
    public synchronized void removeGroup(DeviceId deviceId, GroupKey appCookie, ApplicationId appId) {
        DefaultGroup g = groups.remove(List.of(deviceId, appCookie));
        if (g != null) {
            log.add("- group " + deviceId + " id=" + g.id().id());
        }
    }

    @Override
    public synchronized Iterable<Group> getGroups(DeviceId deviceId, ApplicationId appId) {
        return groups.values().stream().filter(g -> g.deviceId().equals(deviceId) && appId.equals(g.appId()))
                .collect(Collectors.toList());
    }

    @Override
    public synchronized Iterable<Group> getGroups(DeviceId deviceId) {
        return groups.values().stream().filter(g -> g.deviceId().equals(deviceId)).collect(Collectors.toList());
    }

    /**
     * Returns every group.
     *
     * @return groups
     */
    public synchronized List<Group> groups() {
        return new ArrayList<>(groups.values());
    }

    /**
     * Returns and clears the operation log.
     *
     * @return operations
     */
    public synchronized List<String> drainLog() {
        List<String> l = new ArrayList<>(log);
        log.clear();
        return l;
    }
}
