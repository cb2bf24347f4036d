// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.program;

import org.srv6int.app.switchstate.FlowEntries;
import org.srv6int.pipeconf.Srv6IntConstants;
import org.srv6int.pipeconf.Srv6IntPipelineConstants;
import org.onlab.packet.Ip6Address;
import org.onlab.packet.IpPrefix;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.DefaultTrafficSelector;
import org.onosproject.net.flow.FlowEntry;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.FlowRuleOperations;
import org.onosproject.net.flow.FlowRuleService;
import org.onosproject.net.flow.TrafficSelector;
import org.onosproject.net.flow.TrafficTreatment;
import org.onosproject.net.flow.instructions.PiInstruction;
import org.onosproject.net.group.Group;
import org.onosproject.net.group.GroupDescription;
import org.onosproject.net.group.GroupService;
import org.onosproject.net.pi.runtime.PiActionProfileGroupId;
import org.srv6int.app.api.model.SegmentList;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.api.model.VnfReplicaId;
import org.srv6int.app.config.Srv6Devices;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

/**
 * Brings one switch from what is installed to its {@link DeviceProgram}, one
 * step at a time, so that no packet of a chain is lost:
 * <ol>
 * <li>missing switch, routing and my_sid rules are added first;</li>
 * <li>a bucket of a chain's bucket table gets a segment list only once every
 * replica SID it uses is installed (state ADDED) on its switch, whichever ONOS
 * instance masters that switch; which list, and when a bucket of a live
 * replica may move, {@link BucketTables} decides (fewest moves, drain by
 * flows); a bucket entry changes in place (same match);</li>
 * <li>the classifier goes in once every bucket of its chain has an entry;</li>
 * <li>stale chain rules are removed classifier first; a stale my_sid entry of
 * a replica once no installed bucket entry on any switch still uses its SID.</li>
 * </ol>
 * Each call does what is possible now and returns how many operations it
 * issued; the caller runs it again on flow-rule and group events until it
 * issues none (then the switch matches its program: re-install is a no-op).
 */
public final class Srv6IntReconciler {

    private final FlowRuleService flowRuleService;
    private final GroupService groupService;
    private final ApplicationId appId;
    private final BucketTables bucketTables;
    private final LongSupplier clock;

    /**
     * Creates a reconciler with the default drain settings on the wall clock.
     *
     * @param flowRuleService flow rule service
     * @param groupService    group service
     * @param appId           the app whose entries it owns
     */
    public Srv6IntReconciler(FlowRuleService flowRuleService, GroupService groupService, ApplicationId appId) {
        this(flowRuleService, groupService, appId,
             new BucketTables(Srv6IntPipelineConstants.ENCAP_BUCKETS),
             System::currentTimeMillis);
    }

    /**
     * Creates a reconciler.
     *
     * @param flowRuleService flow rule service
     * @param groupService    group service
     * @param appId           the app whose entries it owns
     * @param bucketTables    the chains' bucket tables (drain state)
     * @param clock           milliseconds, for the drain
     */
    public Srv6IntReconciler(FlowRuleService flowRuleService, GroupService groupService, ApplicationId appId,
                             BucketTables bucketTables, LongSupplier clock) {
        this.flowRuleService = flowRuleService;
        this.groupService = groupService;
        this.appId = appId;
        this.bucketTables = bucketTables;
        this.clock = clock;
    }

    /**
     * Returns the chains' bucket tables (drain counters, buckets waiting).
     *
     * @return bucket tables
     */
    public BucketTables bucketTables() {
        return bucketTables;
    }

    /**
     * Runs one step on one switch.
     *
     * @param device   the switch (this instance must master it)
     * @param want     its program, null if the app wants nothing there
     * @param replicas every replica (to find the SIDs a segment list needs)
     * @param devices  SRv6 device configs (to find replica SIDs' vNF ids and
     *                 every switch's groups)
     * @return number of flow rule and group operations issued
     */
    public int step(DeviceId device, DeviceProgram want, Collection<VnfReplica> replicas, Srv6Devices devices) {
        int ops = 0;
        // One look at the switches per step: every comparison below is a lookup by rule key
        // (device, table, match, priority), so a step costs O(entries), not O(entries^2).
        Snapshot snap = new Snapshot(replicas);
        Installed have = snap.installed(device);
        FlowRuleOperations.Builder batch = FlowRuleOperations.builder();
        List<FlowRule> adds = new ArrayList<>();
        Set<FlowRule> wanted = new HashSet<>();
        if (want != null) {
            wanted.addAll(want.baseRules());
            for (FlowRule r : want.baseRules()) {
                if (!have.hasExactly(r)) {
                    adds.add(r);
                }
            }
            for (GroupDescription g : want.groups()) {
                ops += reconcileGroup(device, g);
            }
            long now = clock.getAsLong();
            Map<SegmentList, Boolean> readiness = new IdentityHashMap<>();
            for (DeviceProgram.ChainIngress c : want.chains()) {
                Map<Integer, FlowEntry> installed = have.buckets(c.sfc().id().tag());
                BucketTables.Plan plan = bucketTables.plan(c.sfc(), c.paths().segmentLists(), installed, replicas,
                        l -> readiness.computeIfAbsent(l, x -> ready(x, snap, devices)), appId, now);
                wanted.addAll(plan.wanted);
                adds.addAll(plan.writes);
                // the classifier points at the chain only once every bucket has its entry
                if (plan.complete) {
                    wanted.add(c.classifier());
                    if (!have.hasExactly(c.classifier())) {
                        adds.add(c.classifier());
                    }
                }
            }
            bucketTables.retain(device, want.chains().stream().map(c -> c.sfc().id()).collect(Collectors.toSet()));
        }
        if (want == null) {
            bucketTables.retain(device, Set.of());
        }
        adds.forEach(batch::add);
        ops += adds.size();

        // break: stale entries, classifier first, after the adds of this batch
        Set<TrafficSelector> referenced = null;
        List<FlowRule> staleClassifiers = new ArrayList<>();
        List<FlowRule> staleOthers = new ArrayList<>();
        for (FlowEntry e : have.entries) {
            if (wanted.contains(e)) {
                continue;
            }
            if (e.table().equals(Srv6IntConstants.SRV6_INT_INGRESS_CLASSIFIER_SFC_CLASSIFIER)) {
                staleClassifiers.add(e);
            } else if (e.table().equals(Srv6IntConstants.SRV6_INT_INGRESS_ENDPOINT_MY_SID)) {
                if (referenced == null) {
                    referenced = referencedSidSelectors(devices, snap);
                }
                if (!referenced.contains(e.selector())) {
                    staleOthers.add(e);
                }
            } else {
                staleOthers.add(e);
            }
        }
        if (!staleClassifiers.isEmpty()) {
            batch.newStage();
            staleClassifiers.forEach(batch::remove);
        }
        if (!staleOthers.isEmpty()) {
            batch.newStage();
            staleOthers.forEach(batch::remove);
        }
        ops += staleClassifiers.size() + staleOthers.size();
        if (!adds.isEmpty() || !staleClassifiers.isEmpty() || !staleOthers.isEmpty()) {
            flowRuleService.apply(batch.build());
        }

        // stale groups
        Set<Object> wantedKeys = want == null ? Set.of()
                : want.groups().stream().map(GroupDescription::appCookie).collect(Collectors.toSet());
        for (Group g : groups(device)) {
            if (wantedKeys.contains(g.appCookie())) {
                continue;
            }
            boolean pointedTo = have.entries.stream().anyMatch(e
                    -> e.table().equals(Srv6IntConstants.SRV6_INT_INGRESS_ENCAP_SRV6_ENCAP)
                    && pointsTo(e.treatment(), g.id().id()));
            if (!pointedTo) {
                groupService.removeGroup(device, g.appCookie(), appId);
                ops++;
            }
        }
        return ops;
    }

    /**
     * Returns whether the app has no flow rule and no group left on a switch.
     *
     * @param device switch
     * @return true if clean
     */
    public boolean isClean(DeviceId device) {
        return entries(device).isEmpty() && groups(device).isEmpty();
    }

    private int reconcileGroup(DeviceId device, GroupDescription g) {
        Group cur = groupService.getGroup(device, g.appCookie());
        if (cur == null) {
            groupService.addGroup(g);
            return 1;
        }
        if (!new HashSet<>(cur.buckets().buckets()).equals(new HashSet<>(g.buckets().buckets()))) {
            groupService.setBucketsForGroup(device, g.appCookie(), g.buckets(), g.appCookie(), appId);
            return 1;
        }
        return 0;
    }

    /**
     * Returns whether every replica SID a segment list uses is installed.
     */
    private boolean ready(SegmentList list, Snapshot snap, Srv6Devices devices) {
        for (VnfReplicaId id : list.replicas()) {
            VnfReplica r = snap.replica(id);
            if (r == null) {
                return false;
            }
            Optional<Integer> vnfId = devices.get(r.deviceId()).flatMap(c -> c.vnfId(r.sid()));
            if (vnfId.isEmpty()) {
                return false;
            }
            FlowRule need = SidProgrammer.replicaRule(r.deviceId(), appId, r, vnfId.get());
            if (!snap.installed(r.deviceId()).hasAdded(need)) {
                return false;
            }
        }
        return true;
    }

    /** The my_sid selectors of the SIDs any installed bucket entry of this app on any SRv6 switch uses. */
    private Set<TrafficSelector> referencedSidSelectors(Srv6Devices devices, Snapshot snap) {
        Set<Ip6Address> sids = new HashSet<>();
        for (DeviceId d : devices.all().keySet()) {
            for (FlowEntry e : snap.installed(d).entries) {
                if (e.table().equals(Srv6IntConstants.SRV6_INT_INGRESS_ENCAP_SRV6_ENCAP)) {
                    sids.addAll(FlowEntries.travel(e));
                }
            }
        }
        Set<TrafficSelector> selectors = new HashSet<>();
        for (Ip6Address s : sids) {
            selectors.add(sidSelector(s));
        }
        return selectors;
    }

    private static TrafficSelector sidSelector(Ip6Address sid) {
        return DefaultTrafficSelector.builder()
                .matchPi(PiRules.lpm(Srv6IntConstants.HDR_IPV6_DST, IpPrefix.valueOf(sid, 128))).build();
    }

    private static boolean pointsTo(TrafficTreatment t, int groupId) {
        return t.allInstructions().stream().anyMatch(i -> i instanceof PiInstruction
                && ((PiInstruction) i).action() instanceof PiActionProfileGroupId
                && ((PiActionProfileGroupId) ((PiInstruction) i).action()).id() == groupId);
    }

    private List<FlowEntry> entries(DeviceId device) {
        Predicate<FlowEntry> mine = e -> e.appId() == appId.id();
        Iterable<FlowEntry> it = flowRuleService.getFlowEntries(device);
        return it == null ? List.of()
                : StreamSupport.stream(it.spliterator(), false).filter(mine).collect(Collectors.toList());
    }

    private List<Group> groups(DeviceId device) {
        Iterable<Group> it = groupService.getGroups(device, appId);
        return it == null ? List.of() : StreamSupport.stream(it.spliterator(), false).collect(Collectors.toList());
    }

    /**
     * The switches as one step sees them: each switch's entries of this app read once, on first
     * use, and the replicas by id. Nothing is applied before the step's end, so one read holds.
     */
    private final class Snapshot {
        private final Map<DeviceId, Installed> byDevice = new HashMap<>();
        private final Map<VnfReplicaId, VnfReplica> replicas = new HashMap<>();

        Snapshot(Collection<VnfReplica> all) {
            for (VnfReplica r : all) {
                replicas.putIfAbsent(r.id(), r);
            }
        }

        VnfReplica replica(VnfReplicaId id) {
            return replicas.get(id);
        }

        Installed installed(DeviceId d) {
            return byDevice.computeIfAbsent(d, x -> new Installed(entries(x)));
        }
    }

    /** One switch's entries of this app, indexed by rule key and, for srv6_encap, by chain and bucket. */
    private static final class Installed {
        final List<FlowEntry> entries;
        // rule key (device, table, match, priority) -> the entries with that key, in read order
        private final Map<FlowRule, List<FlowEntry>> byKey = new HashMap<>();
        // chain tag -> bucket -> live bucket entry (the last one read wins)
        private Map<Integer, Map<Integer, FlowEntry>> buckets;

        Installed(List<FlowEntry> entries) {
            this.entries = entries;
            for (FlowEntry e : entries) {
                byKey.computeIfAbsent(e, x -> new ArrayList<>(1)).add(e);
            }
        }

        /** Whether an entry exactly as the rule (same action, same id) is installed and not being removed. */
        boolean hasExactly(FlowRule r) {
            for (FlowEntry e : byKey.getOrDefault(r, List.of())) {
                if (e.exactMatch(r) && live(e)) {
                    return true;
                }
            }
            return false;
        }

        /** Whether an entry exactly as the rule is installed and confirmed (ADDED). */
        boolean hasAdded(FlowRule r) {
            for (FlowEntry e : byKey.getOrDefault(r, List.of())) {
                if (e.state() == FlowEntry.FlowEntryState.ADDED && e.exactMatch(r)) {
                    return true;
                }
            }
            return false;
        }

        /** A chain's live bucket entries by bucket (read-only). */
        Map<Integer, FlowEntry> buckets(int tag) {
            if (buckets == null) {
                buckets = new HashMap<>();
                for (FlowEntry e : entries) {
                    if (e.table().equals(Srv6IntConstants.SRV6_INT_INGRESS_ENCAP_SRV6_ENCAP) && live(e)) {
                        FlowEntries.chainAndBucket(e).ifPresent(
                                tb -> buckets.computeIfAbsent(tb[0], x -> new HashMap<>()).put(tb[1], e));
                    }
                }
            }
            return buckets.getOrDefault(tag, Map.of());
        }

        private static boolean live(FlowEntry e) {
            return e.state() != FlowEntry.FlowEntryState.PENDING_REMOVE
                    && e.state() != FlowEntry.FlowEntryState.REMOVED;
        }
    }
}
