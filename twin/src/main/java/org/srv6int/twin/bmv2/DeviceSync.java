// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.bmv2;

import java.util.function.Function;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.group.Group;
import org.onosproject.net.group.GroupDescription;
import p4.v1.P4RuntimeOuterClass.Action;
import p4.v1.P4RuntimeOuterClass.ActionProfileGroup;
import p4.v1.P4RuntimeOuterClass.ActionProfileMember;
import p4.v1.P4RuntimeOuterClass.CloneSessionEntry;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.MulticastGroupEntry;
import p4.v1.P4RuntimeOuterClass.PacketReplicationEngineEntry;
import p4.v1.P4RuntimeOuterClass.TableEntry;
import p4.v1.P4RuntimeOuterClass.Update;

/**
 * What one switch holds, as written over P4Runtime, and the writes that turn it into the app's
 * current rules and groups: inserts, modifies and deletes only for what differs, in dependency order
 * (members and sessions, then groups, then table entries; deletions in the reverse order), each step
 * one batch. Writing the same rules twice writes nothing the second time.
 *
 * <p>Weights: BMv2's P4Runtime server ignores action-profile member weights, so a bucket of weight
 * {@code w} becomes {@code w / g} members with the same action and weight 1 ({@code g} the greatest
 * common divisor of the group's weights), which BMv2's selector hashes over evenly.
 */
final class DeviceSync {

    private final PiToP4Runtime translator;
    private final Map<TableEntry, TableEntry> entries = new LinkedHashMap<>();
    private final Map<List<Integer>, ActionProfileGroup> groups = new LinkedHashMap<>();
    private final Map<Integer, ActionProfileMember> members = new LinkedHashMap<>();
    private final Map<MemberKey, Integer> memberIds = new HashMap<>();
    private final Map<Integer, CloneSessionEntry> sessions = new LinkedHashMap<>();
    private final Map<Integer, MulticastGroupEntry> multicast = new LinkedHashMap<>();
    private int nextMemberId = 1;

    DeviceSync(PiToP4Runtime translator) {
        this.translator = translator;
    }

    /**
     * Brings the switch to the given rules and groups.
     *
     * @param rules  every PI rule of the switch
     * @param groups every group of the switch
     * @param writer writes one batch, throws if the switch refuses it
     * @return number of updates written
     * @throws IllegalArgumentException if a rule or group does not translate (nothing is written then)
     */
    int sync(Collection<FlowRule> rules, Collection<Group> groupsWanted, Consumer<List<Update>> writer) {
        // translate everything first: a bad rule fails the call before any write
        Map<TableEntry, TableEntry> wantEntries = new LinkedHashMap<>();
        for (FlowRule r : rules) {
            TableEntry e = translator.tableEntry(r);
            TableEntry prev = wantEntries.put(PiToP4Runtime.key(e), e);
            if (prev != null && !prev.equals(e)) {
                throw new IllegalArgumentException("two rules with the same table, match and priority but different "
                        + "actions on one switch: " + r);
            }
        }
        Map<List<Integer>, ActionProfileGroup> wantGroups = new LinkedHashMap<>();
        Map<Integer, ActionProfileMember> wantMembers = new LinkedHashMap<>();
        Map<Integer, CloneSessionEntry> wantSessions = new LinkedHashMap<>();
        Map<Integer, MulticastGroupEntry> wantMulticast = new LinkedHashMap<>();
        Map<MemberKey, Integer> ids = new HashMap<>(memberIds);
        int next = nextMemberId;
        for (Group g : groupsWanted) {
            if (PiToP4Runtime.isActionProfileGroup(g)) {
                int profile = translator.actionProfileId(g);
                List<PiToP4Runtime.WeightedAction> ms = translator.selectMembers(g);
                int gcd = 0;
                for (PiToP4Runtime.WeightedAction m : ms) {
                    gcd = BigInteger.valueOf(gcd).gcd(BigInteger.valueOf(m.weight())).intValue();
                }
                ActionProfileGroup.Builder pg = ActionProfileGroup.newBuilder().setActionProfileId(profile)
                        .setGroupId(g.id().id());
                Map<Action, Integer> copies = new HashMap<>();
                for (PiToP4Runtime.WeightedAction m : ms) {
                    for (int i = 0; i < m.weight() / gcd; i++) {
                        int k = copies.merge(m.action(), 1, Integer::sum) - 1;
                        MemberKey key = new MemberKey(profile, m.action(), k);
                        Integer id = ids.get(key);
                        if (id == null) {
                            id = next++;
                            ids.put(key, id);
                        }
                        wantMembers.put(id, ActionProfileMember.newBuilder().setActionProfileId(profile)
                                .setMemberId(id).setAction(m.action()).build());
                        pg.addMembers(ActionProfileGroup.Member.newBuilder().setMemberId(id).setWeight(1));
                    }
                }
                wantGroups.put(List.of(profile, g.id().id()), pg.build());
            } else if (g.type() == GroupDescription.Type.CLONE) {
                CloneSessionEntry s = PiToP4Runtime.cloneSession(g);
                wantSessions.put(s.getSessionId(), s);
            } else if (g.type() == GroupDescription.Type.ALL) {
                MulticastGroupEntry m = PiToP4Runtime.multicastGroup(g);
                wantMulticast.put(m.getMulticastGroupId(), m);
            } else {
                throw new IllegalArgumentException("group type " + g.type() + " of group " + g.id() + " on "
                        + g.deviceId() + " has no P4Runtime translation");
            }
        }

        int written = 0;
        // 1: new members, clone sessions and multicast groups (nothing refers to them yet)
        List<Update> u = new ArrayList<>();
        upserts(members, wantMembers, u, m -> Entity.newBuilder().setActionProfileMember(m).build(), false);
        upserts(sessions, wantSessions, u, s -> pre(s), false);
        upserts(multicast, wantMulticast, u, m -> pre(m), false);
        written += step(u, writer, () -> {
            members.putAll(wantMembers);
            sessions.putAll(wantSessions);
            multicast.putAll(wantMulticast);
        });
        memberIds.putAll(ids);
        nextMemberId = next;
        // 2: groups, now that their members exist
        u = new ArrayList<>();
        upserts(groups, wantGroups, u, g -> Entity.newBuilder().setActionProfileGroup(g).build(), false);
        written += step(u, writer, () -> groups.putAll(wantGroups));
        // 3: table entries, now that the groups they point to exist
        u = new ArrayList<>();
        upserts(entries, wantEntries, u, e -> Entity.newBuilder().setTableEntry(e).build(), true);
        written += step(u, writer, () -> entries.putAll(wantEntries));
        // 4: entries that are gone; a default entry goes back to the program's default action
        u = new ArrayList<>();
        List<TableEntry> goneEntries = new ArrayList<>();
        for (Map.Entry<TableEntry, TableEntry> e : entries.entrySet()) {
            if (!wantEntries.containsKey(e.getKey())) {
                goneEntries.add(e.getKey());
                u.add(e.getKey().getIsDefaultAction()
                        ? update(Update.Type.MODIFY, Entity.newBuilder().setTableEntry(e.getKey()).build())
                        : update(Update.Type.DELETE, Entity.newBuilder().setTableEntry(e.getKey()).build()));
            }
        }
        written += step(u, writer, () -> goneEntries.forEach(entries::remove));
        // 5: groups nobody points to any more
        u = new ArrayList<>();
        List<List<Integer>> goneGroups = new ArrayList<>();
        for (Map.Entry<List<Integer>, ActionProfileGroup> g : groups.entrySet()) {
            if (!wantGroups.containsKey(g.getKey())) {
                goneGroups.add(g.getKey());
                u.add(update(Update.Type.DELETE, Entity.newBuilder().setActionProfileGroup(g.getValue()).build()));
            }
        }
        written += step(u, writer, () -> goneGroups.forEach(groups::remove));
        // 6: members no group holds, sessions and multicast groups that are gone
        u = new ArrayList<>();
        List<Integer> goneMembers = new ArrayList<>();
        for (Map.Entry<Integer, ActionProfileMember> m : members.entrySet()) {
            if (!wantMembers.containsKey(m.getKey())) {
                goneMembers.add(m.getKey());
                u.add(update(Update.Type.DELETE, Entity.newBuilder().setActionProfileMember(m.getValue()).build()));
            }
        }
        List<Integer> goneSessions = new ArrayList<>();
        for (Map.Entry<Integer, CloneSessionEntry> s : sessions.entrySet()) {
            if (!wantSessions.containsKey(s.getKey())) {
                goneSessions.add(s.getKey());
                u.add(update(Update.Type.DELETE, pre(s.getValue())));
            }
        }
        List<Integer> goneMulticast = new ArrayList<>();
        for (Map.Entry<Integer, MulticastGroupEntry> m : multicast.entrySet()) {
            if (!wantMulticast.containsKey(m.getKey())) {
                goneMulticast.add(m.getKey());
                u.add(update(Update.Type.DELETE, pre(m.getValue())));
            }
        }
        written += step(u, writer, () -> {
            goneMembers.forEach(members::remove);
            goneSessions.forEach(sessions::remove);
            goneMulticast.forEach(multicast::remove);
        });
        memberIds.values().retainAll(members.keySet());
        return written;
    }

    /** @return number of table entries held */
    int entryCount() {
        return entries.size();
    }

    /** @return number of action-profile members held */
    int memberCount() {
        return members.size();
    }

    private static <K, V> void upserts(Map<K, V> have, Map<K, V> want, List<Update> out,
                                       Function<V, Entity> entity, boolean tableEntries) {
        for (Map.Entry<K, V> w : want.entrySet()) {
            V h = have.get(w.getKey());
            if (Objects.equals(h, w.getValue())) {
                continue;
            }
            boolean isDefault = tableEntries && ((TableEntry) w.getValue()).getIsDefaultAction();
            // P4Runtime has no insert for a default entry: it always exists, it is modified
            out.add(update(h == null && !isDefault ? Update.Type.INSERT : Update.Type.MODIFY,
                           entity.apply(w.getValue())));
        }
    }

    private static int step(List<Update> updates, Consumer<List<Update>> writer, Runnable commit) {
        if (updates.isEmpty()) {
            return 0;
        }
        writer.accept(updates);
        commit.run();
        return updates.size();
    }

    private static Update update(Update.Type t, Entity e) {
        return Update.newBuilder().setType(t).setEntity(e).build();
    }

    private static Entity pre(CloneSessionEntry s) {
        return Entity.newBuilder().setPacketReplicationEngineEntry(
                PacketReplicationEngineEntry.newBuilder().setCloneSessionEntry(s)).build();
    }

    private static Entity pre(MulticastGroupEntry m) {
        return Entity.newBuilder().setPacketReplicationEngineEntry(
                PacketReplicationEngineEntry.newBuilder().setMulticastGroupEntry(m)).build();
    }

    /** A member: its profile, its action and which copy of that action (weights are copies). */
    private static final class MemberKey {
        private final int profile;
        private final Action action;
        private final int copy;

        MemberKey(int profile, Action action, int copy) {
            this.profile = profile;
            this.action = action;
            this.copy = copy;
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof MemberKey)) {
                return false;
            }
            MemberKey k = (MemberKey) o;
            return profile == k.profile && copy == k.copy && action.equals(k.action);
        }

        @Override
        public int hashCode() {
            return Objects.hash(profile, action, copy);
        }
    }
}
