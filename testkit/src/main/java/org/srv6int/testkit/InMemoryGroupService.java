// SPDX-License-Identifier: Apache-2.0
package org.srv6int.testkit;

import java.util.function.Function;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.GroupId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.group.DefaultGroup;
import org.onosproject.net.group.DefaultGroupDescription;
import org.onosproject.net.group.Group;
import org.onosproject.net.group.GroupBucket;
import org.onosproject.net.group.GroupBuckets;
import org.onosproject.net.group.GroupDescription;
import org.onosproject.net.group.GroupEvent;
import org.onosproject.net.group.GroupKey;
import org.onosproject.net.group.GroupListener;
import org.onosproject.net.group.GroupService;
import org.osgi.service.component.annotations.Component;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * Group service that keeps groups per device and application cookie like ONOS's group store,
 * with their buckets: adding buckets appends those not already there, removing drops them,
 * both re-keying the group to the new cookie. Groups are ADDED at once; listeners hear
 * GROUP_ADDED, GROUP_UPDATED and GROUP_REMOVED. Adding a second group under an existing
 * cookie, or changing a group that does not exist, fails as in ONOS.
 */
@Component(immediate = true, service = GroupService.class)
public class InMemoryGroupService implements GroupService {

    private final Map<List<Object>, DefaultGroup> groups = new LinkedHashMap<>();
    private final Listeners<GroupEvent, GroupListener> listeners = new Listeners<>();

    private static DefaultGroup added(GroupDescription d) {
        DefaultGroup g = new DefaultGroup(GroupId.valueOf(Objects.requireNonNull(d.givenGroupId(),
                                                                                 "group id")), d);
        g.setState(Group.GroupState.ADDED);
        return g;
    }

    @Override
    public void addGroup(GroupDescription d) {
        DefaultGroup g;
        synchronized (this) {
            List<Object> k = List.of(d.deviceId(), d.appCookie());
            if (groups.containsKey(k)) {
                throw new IllegalStateException("group exists on " + d.deviceId() + ": " + d.appCookie());
            }
            g = added(d);
            groups.put(k, g);
        }
        listeners.post(new GroupEvent(GroupEvent.Type.GROUP_ADDED, g));
    }

    @Override
    public synchronized Group getGroup(DeviceId deviceId, GroupKey appCookie) {
        return groups.get(List.of(deviceId, appCookie));
    }

    private void rebucket(DeviceId deviceId, GroupKey oldCookie, GroupKey newCookie, ApplicationId appId,
                          Function<List<GroupBucket>, List<GroupBucket>> change) {
        DefaultGroup g;
        synchronized (this) {
            DefaultGroup old = groups.remove(List.of(deviceId, oldCookie));
            if (old == null) {
                throw new IllegalStateException("no group " + oldCookie + " on " + deviceId);
            }
            List<GroupBucket> buckets = change.apply(new ArrayList<>(old.buckets().buckets()));
            GroupDescription d = new DefaultGroupDescription(deviceId, old.type(), new GroupBuckets(buckets),
                                                             newCookie == null ? oldCookie : newCookie,
                                                             old.id().id(), appId);
            g = added(d);
            groups.put(List.of(deviceId, d.appCookie()), g);
        }
        listeners.post(new GroupEvent(GroupEvent.Type.GROUP_UPDATED, g));
    }

    @Override
    public void addBucketsToGroup(DeviceId deviceId, GroupKey oldCookie, GroupBuckets buckets,
                                  GroupKey newCookie, ApplicationId appId) {
        rebucket(deviceId, oldCookie, newCookie, appId, l -> {
            buckets.buckets().stream().filter(b -> !l.contains(b)).forEach(l::add);
            return l;
        });
    }

    @Override
    public void removeBucketsFromGroup(DeviceId deviceId, GroupKey oldCookie, GroupBuckets buckets,
                                       GroupKey newCookie, ApplicationId appId) {
        rebucket(deviceId, oldCookie, newCookie, appId, l -> {
            l.removeAll(buckets.buckets());
            return l;
        });
    }

    @Override
    public void setBucketsForGroup(DeviceId deviceId, GroupKey oldCookie, GroupBuckets buckets,
                                   GroupKey newCookie, ApplicationId appId) {
        rebucket(deviceId, oldCookie, newCookie, appId, l -> new ArrayList<>(buckets.buckets()));
    }

    @Override
    public void removeGroup(DeviceId deviceId, GroupKey appCookie, ApplicationId appId) {
        DefaultGroup g;
        synchronized (this) {
            g = groups.remove(List.of(deviceId, appCookie));
        }
        if (g != null) {
            listeners.post(new GroupEvent(GroupEvent.Type.GROUP_REMOVED, g));
        }
    }

    @Override
    public synchronized void purgeGroupEntries(DeviceId deviceId) {
        groups.keySet().removeIf(k -> k.get(0).equals(deviceId));
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

    @Override
    public void addListener(GroupListener listener) {
        listeners.add(listener);
    }

    @Override
    public void removeListener(GroupListener listener) {
        listeners.remove(listener);
    }
}
