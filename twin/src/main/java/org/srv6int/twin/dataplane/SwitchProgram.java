package org.srv6int.twin.dataplane;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.onlab.util.ImmutableByteSequence;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.criteria.Criterion;
import org.onosproject.net.flow.criteria.PiCriterion;
import org.onosproject.net.flow.instructions.Instruction;
import org.onosproject.net.flow.instructions.Instructions;
import org.onosproject.net.flow.instructions.PiInstruction;
import org.onosproject.net.group.Group;
import org.onosproject.net.group.GroupBucket;
import org.onosproject.net.group.GroupDescription;
import org.onosproject.net.pi.model.PiActionId;
import org.onosproject.net.pi.model.PiActionParamId;
import org.onosproject.net.pi.model.PiMatchFieldId;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiActionParam;
import org.onosproject.net.pi.runtime.PiActionProfileGroupId;
import org.onosproject.net.pi.runtime.PiExactFieldMatch;
import org.onosproject.net.pi.runtime.PiFieldMatch;
import org.onosproject.net.pi.runtime.PiLpmFieldMatch;
import org.onosproject.net.pi.runtime.PiTableAction;
import org.onosproject.net.pi.runtime.PiTernaryFieldMatch;
import org.srv6int.codec.IntReportEncoder;
import org.srv6int.codec.Srv6IntEncap;

import static org.srv6int.pipeconf.Srv6IntConstants.*;

/**
 * One switch's PI entries compiled for the emulated pipeline: the P4 program's
 * tables (names, match kinds, widths, actions and their parameters, defaults;
 * docs/p4-tables.md) and the checks P4Runtime would make, so a rule the real
 * switch rejects is rejected here at {@link #compile} time with a message that
 * names the rule. Immutable once compiled, except the per-member encapsulator
 * cache.
 */
final class SwitchProgram {

    /** Match kinds the program uses. */
    enum Kind { EXACT, LPM, TERNARY }

    /** One key field of a table. */
    static final class Field {
        final PiMatchFieldId id;
        final Kind kind;
        final int width;

        Field(PiMatchFieldId id, Kind kind, int width) {
            this.id = id;
            this.kind = kind;
            this.width = width;
        }
    }

    /** One action and its parameters, in the P4 order. */
    static final class ActionSpec {
        final PiActionId id;
        final PiActionParamId[] params;
        final int[] widths;

        ActionSpec(PiActionId id, Object... paramsAndWidths) {
            this.id = id;
            int n = paramsAndWidths.length / 2;
            params = new PiActionParamId[n];
            widths = new int[n];
            for (int i = 0; i < n; i++) {
                params[i] = (PiActionParamId) paramsAndWidths[2 * i];
                widths[i] = (Integer) paramsAndWidths[2 * i + 1];
            }
        }
    }

    /** A table of the program. */
    static final class TableSpec {
        final PiTableId id;
        final Field[] fields;
        final ActionSpec[] actions;
        final boolean constDefault;
        final boolean indirect;

        TableSpec(PiTableId id, Field[] fields, ActionSpec[] actions, boolean constDefault, boolean indirect) {
            this.id = id;
            this.fields = fields;
            this.actions = actions;
            this.constDefault = constDefault;
            this.indirect = indirect;
        }

        ActionSpec action(PiActionId a) {
            for (ActionSpec s : actions) {
                if (s.id.equals(a)) {
                    return s;
                }
            }
            return null;
        }
    }

    /** An action with its parameter values (128-bit values as two longs). */
    static final class Action {
        final ActionSpec spec;
        final long[] hi;
        final long[] lo;

        Action(ActionSpec spec, long[] hi, long[] lo) {
            this.spec = spec;
            this.hi = hi;
            this.lo = lo;
        }

        long p(int i) {
            return lo[i];
        }
    }

    /** A member of an action-profile group (a segment list of a chain). */
    static final class Member {
        final Action action;
        final int weight;
        // Encapsulators by (sfc_mode << 5 | map_info), built on first use: S and MapInfo come
        // from the classifier entry, the SIDs from this member.
        final Srv6IntEncap[] encaps = new Srv6IntEncap[64];

        Member(Action action, int weight) {
            this.action = action;
            this.weight = weight;
        }
    }

    /** A table entry, with its direct counter (every table of the P4 program has one). */
    static final class Entry {
        /** The table it is in. */
        final TableSpec spec;
        /** The rule it was compiled from (null for a default action). */
        final FlowRule rule;
        /** Direct counter: packets and bytes the entry matched, as the switch's counter counts. */
        long packets;
        long bytes;
        final long[] vHi;
        final long[] vLo;
        final long[] mHi;
        final long[] mLo;
        final int priority;
        final int prefix;
        final Action action;
        final Member[] members;
        final int totalWeight;

        Entry(TableSpec spec, FlowRule rule, long[] vHi, long[] vLo, long[] mHi, long[] mLo, int priority,
              int prefix, Action action, Member[] members) {
            this.spec = spec;
            this.rule = rule;
            this.vHi = vHi;
            this.vLo = vLo;
            this.mHi = mHi;
            this.mLo = mLo;
            this.priority = priority;
            this.prefix = prefix;
            this.action = action;
            this.members = members;
            int w = 0;
            if (members != null) {
                for (Member m : members) {
                    w += m.weight;
                }
            }
            totalWeight = w;
        }

        /**
         * Counts a hit in the entry's direct counter.
         *
         * @param len packet length, bytes
         */
        void count(int len) {
            packets++;
            bytes += len;
        }

        boolean matches(long[] kHi, long[] kLo) {
            for (int i = 0; i < vHi.length; i++) {
                if (((kHi[i] ^ vHi[i]) & mHi[i]) != 0 || ((kLo[i] ^ vLo[i]) & mLo[i]) != 0) {
                    return false;
                }
            }
            return true;
        }

        /** Picks a member by weight with the selector hash {@link #mix(int)}. */
        Member pick(int flowHash) {
            int h = mix(flowHash);
            int r = Integer.remainderUnsigned(h, totalWeight);
            for (Member m : members) {
                r -= m.weight;
                if (r < 0) {
                    return m;
                }
            }
            return members[members.length - 1];
        }
    }

    /** The key of an exact or LPM entry (prefix length and value): two entries with one key are a duplicate. */
    static final class Key {
        private final int prefix;
        private final long[] hi;
        private final long[] lo;

        Key(Entry e) {
            prefix = e.prefix;
            hi = e.vHi;
            lo = e.vLo;
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Key)) {
                return false;
            }
            Key k = (Key) o;
            return prefix == k.prefix && Arrays.equals(hi, k.hi) && Arrays.equals(lo, k.lo);
        }

        @Override
        public int hashCode() {
            return 31 * (31 * prefix + Arrays.hashCode(hi)) + Arrays.hashCode(lo);
        }
    }

    /** A compiled table: entries in match order and the default action (null = NoAction). */
    static final class Table {
        final TableSpec spec;
        final Entry[] entries;
        final Action defaultAction;

        // Exact tables with one or two fields of at most 32 bits (srv6_encap: chain, bucket, 256
        // entries a chain, hit by every classified packet): sorted keys, found by binary search.
        private final long[] exactKeys;
        private final Entry[] exactEntries;

        Table(TableSpec spec, Entry[] entries, Action defaultAction) {
            this.spec = spec;
            this.entries = entries;
            this.defaultAction = defaultAction;
            boolean exact = spec.fields.length >= 1 && spec.fields.length <= 2;
            for (Field f : spec.fields) {
                exact &= f.kind == Kind.EXACT && f.width <= 32;
            }
            if (exact) {
                Entry[] sorted = entries.clone();
                Arrays.sort(sorted, Comparator.comparingLong(Table::exactKey));
                exactEntries = sorted;
                exactKeys = new long[sorted.length];
                for (int i = 0; i < sorted.length; i++) {
                    exactKeys[i] = exactKey(sorted[i]);
                }
            } else {
                exactEntries = null;
                exactKeys = null;
            }
        }

        private static long exactKey(Entry e) {
            return e.vLo.length == 1 ? e.vLo[0] : e.vLo[0] << 32 | e.vLo[1];
        }

        Entry lookup(long[] kHi, long[] kLo) {
            if (exactKeys == null) {
                return scan(kHi, kLo);
            }
            // the field's bits of the key only, as the entries' masks take them in the scan
            long k0 = kLo[0] & (-1L >>> (64 - spec.fields[0].width));
            long key = spec.fields.length == 1 ? k0 : k0 << 32 | kLo[1] & (-1L >>> (64 - spec.fields[1].width));
            int i = Arrays.binarySearch(exactKeys, key);
            return i < 0 ? null : exactEntries[i];
        }

        /** The first entry in match order that matches: what the table returns, without the index. */
        Entry scan(long[] kHi, long[] kLo) {
            for (Entry e : entries) {
                if (e.matches(kHi, kLo)) {
                    return e;
                }
            }
            return null;
        }
    }

    // ---- the program's tables (p4src/shared/control, docs/p4-tables.md) ----

    static final ActionSpec NO_ACTION_SPEC = new ActionSpec(NO_ACTION);
    static final ActionSpec SET_SWITCH_INFO = new ActionSpec(SRV6_INT_INGRESS_SET_SWITCH_INFO,
            DEVICE_ID, 16, MY_SID, 128, ROUTER_MAC, 48);
    static final ActionSpec ACL_PUNT = new ActionSpec(SRV6_INT_INGRESS_ACL_PUNT_TO_CPU);
    static final ActionSpec ACL_CLONE = new ActionSpec(SRV6_INT_INGRESS_ACL_CLONE_TO_CPU);
    static final ActionSpec ACL_DROP = new ActionSpec(SRV6_INT_INGRESS_ACL_DROP);
    static final ActionSpec NDP_NS_TO_NA = new ActionSpec(SRV6_INT_INGRESS_NDP_NDP_NS_TO_NA, TARGET_MAC, 48);
    static final ActionSpec SET_CHAIN = new ActionSpec(SRV6_INT_INGRESS_CLASSIFIER_SET_CHAIN,
            CHAIN_ID, 16, SFC_MODE, 1, MAP_INFO, 16, INT_PERIOD, 16);
    static final ActionSpec H_ENCAPS_INT = new ActionSpec(SRV6_INT_INGRESS_ENCAP_H_ENCAPS_INT,
            LAST_ENTRY, 8, S0, 128, S1, 128, S2, 128, S3, 128, S4, 128, S5, 128, S6, 128);
    static final ActionSpec END_T = new ActionSpec(SRV6_INT_INGRESS_ENDPOINT_END_T_INT);
    static final ActionSpec END_T_SFC = new ActionSpec(SRV6_INT_INGRESS_ENDPOINT_END_T_INT_SFC,
            VNF_ID, 16, VNF_PORT, 9, VNF_MAC, 48);
    static final ActionSpec END_DT = new ActionSpec(SRV6_INT_INGRESS_ENDPOINT_END_DT_INT);
    static final ActionSpec SET_NEXT_HOP = new ActionSpec(SRV6_INT_INGRESS_ROUTING_SET_NEXT_HOP,
            PORT, 9, DMAC, 48);
    static final ActionSpec ROUTING_DROP = new ActionSpec(SRV6_INT_INGRESS_ROUTING_DROP);
    static final ActionSpec SET_REPORT_CONFIG = new ActionSpec(SRV6_INT_EGRESS_REPORT_SET_REPORT_CONFIG,
            SRC_MAC, 48, DST_MAC, 48, SRC_IP, 32, DST_IP, 32, UDP_SPORT, 16, UDP_DPORT, 16, TRUNC_LEN, 16);

    private static Field f(PiMatchFieldId id, Kind k, int w) {
        return new Field(id, k, w);
    }

    static final TableSpec T_SWITCH_INFO = new TableSpec(SRV6_INT_INGRESS_SWITCH_INFO, new Field[0],
            new ActionSpec[] {SET_SWITCH_INFO}, false, false);
    static final TableSpec T_ACL = new TableSpec(SRV6_INT_INGRESS_ACL_ACL, new Field[] {
        f(HDR_IG_PORT, Kind.TERNARY, 9), f(HDR_ETH_DST, Kind.TERNARY, 48), f(HDR_ETH_SRC, Kind.TERNARY, 48),
        f(HDR_ETH_TYPE, Kind.TERNARY, 16), f(HDR_IP_PROTO, Kind.TERNARY, 8), f(HDR_ICMP_TYPE, Kind.TERNARY, 8),
        f(HDR_L4_SPORT, Kind.TERNARY, 16), f(HDR_L4_DPORT, Kind.TERNARY, 16)},
            new ActionSpec[] {ACL_PUNT, ACL_CLONE, ACL_DROP, NO_ACTION_SPEC}, true, false);
    static final TableSpec T_NDP = new TableSpec(SRV6_INT_INGRESS_NDP_NDP_REPLY, new Field[] {
        f(HDR_NDP_TARGET, Kind.EXACT, 128)}, new ActionSpec[] {NDP_NS_TO_NA}, true, false);
    static final TableSpec T_CLASSIFIER = new TableSpec(SRV6_INT_INGRESS_CLASSIFIER_SFC_CLASSIFIER, new Field[] {
        f(HDR_IG_PORT, Kind.TERNARY, 9), f(HDR_IP_PROTO, Kind.TERNARY, 8), f(HDR_IPV4_SRC, Kind.TERNARY, 32),
        f(HDR_IPV4_DST, Kind.TERNARY, 32), f(HDR_IPV6_SRC, Kind.TERNARY, 128), f(HDR_IPV6_DST, Kind.TERNARY, 128),
        f(HDR_L4_SPORT, Kind.TERNARY, 16), f(HDR_L4_DPORT, Kind.TERNARY, 16)},
            new ActionSpec[] {SET_CHAIN}, true, false);
    // the bucket table (p4src/shared/control/encap.p4): one direct entry per (chain, bucket)
    static final TableSpec T_ENCAP = new TableSpec(SRV6_INT_INGRESS_ENCAP_SRV6_ENCAP, new Field[] {
        f(HDR_CHAIN_ID, Kind.EXACT, 16), f(HDR_BUCKET, Kind.EXACT, HDR_BUCKET_BITWIDTH)},
            new ActionSpec[] {H_ENCAPS_INT}, true, false);
    static final TableSpec T_MY_SID = new TableSpec(SRV6_INT_INGRESS_ENDPOINT_MY_SID, new Field[] {
        f(HDR_IPV6_DST, Kind.LPM, 128)}, new ActionSpec[] {END_T, END_T_SFC, END_DT}, true, false);
    static final TableSpec T_IPV6_ROUTING = new TableSpec(SRV6_INT_INGRESS_ROUTING_IPV6_ROUTING, new Field[] {
        f(HDR_IPV6_DST, Kind.LPM, 128)}, new ActionSpec[] {SET_NEXT_HOP, ROUTING_DROP}, false, false);
    static final TableSpec T_IPV4_ROUTING = new TableSpec(SRV6_INT_INGRESS_ROUTING_IPV4_ROUTING, new Field[] {
        f(HDR_IPV4_DST, Kind.LPM, 32)}, new ActionSpec[] {SET_NEXT_HOP, ROUTING_DROP}, false, false);
    static final TableSpec T_REPORT_CONFIG = new TableSpec(SRV6_INT_EGRESS_REPORT_REPORT_CONFIG, new Field[0],
            new ActionSpec[] {SET_REPORT_CONFIG}, false, false);

    static final List<TableSpec> TABLES = List.of(T_SWITCH_INFO, T_ACL, T_NDP, T_CLASSIFIER, T_ENCAP, T_MY_SID,
            T_IPV6_ROUTING, T_IPV4_ROUTING, T_REPORT_CONFIG);

    /** P4 CPU_PORT (v1model/arch.p4). */
    static final int CPU_PORT = 255;
    /** REPORT_CLONE_SESSION_ID (v1model/arch.p4). */
    static final int REPORT_CLONE_SESSION = 100;
    /** CPU_CLONE_SESSION_ID (v1model/arch.p4). */
    static final int CPU_CLONE_SESSION = 99;

    // ---- compiled state ----

    final Table switchInfo;
    final Table acl;
    final Table ndp;
    final Table classifier;
    final Table encap;
    final Table mySid;
    final Table ipv6Routing;
    final Table ipv4Routing;
    final Table reportConfig;
    /** Clone session id -> egress ports. */
    final Map<Integer, int[]> cloneSessions;
    /**
     * Entries by the rule they came from; rule equality is ONOS's (device, table, match,
     * priority), the identity of a P4Runtime table entry, so a modified entry is found too.
     */
    final Map<FlowRule, Entry> byRule = new HashMap<>();

    // switch_info / report_config, decoded once
    final int deviceId;
    final byte[] mySidBytes;
    final long routerMac;
    final IntReportEncoder reportEncoder;

    private SwitchProgram(Map<TableSpec, Table> t, Map<Integer, int[]> clones, DeviceId device) {
        switchInfo = t.get(T_SWITCH_INFO);
        acl = t.get(T_ACL);
        ndp = t.get(T_NDP);
        classifier = t.get(T_CLASSIFIER);
        encap = t.get(T_ENCAP);
        mySid = t.get(T_MY_SID);
        ipv6Routing = t.get(T_IPV6_ROUTING);
        ipv4Routing = t.get(T_IPV4_ROUTING);
        reportConfig = t.get(T_REPORT_CONFIG);
        cloneSessions = clones;
        for (Table tb : t.values()) {
            for (Entry e : tb.entries) {
                byRule.put(e.rule, e);
            }
        }
        Action si = switchInfo.defaultAction;
        deviceId = (int) si.p(0);
        mySidBytes = toBytes(si.hi[1], si.lo[1]);
        routerMac = si.p(2);
        Action rc = reportConfig.defaultAction;
        try {
            reportEncoder = IntReportEncoder.builder().reporterDeviceId(deviceId)
                    .ethernet(rc.p(1), rc.p(0)).ipv4(rc.p(2), rc.p(3))
                    .udpSrcPort((int) rc.p(4)).udpDstPort((int) rc.p(5)).maxMirrorLength((int) rc.p(6))
                    .build();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(device + ": report_config " + e.getMessage()
                    + " (the emulated switch needs UDP ports 1..65535 and trunc_len >= 1)", e);
        }
    }

    /** An empty program: every table at its P4 default (what a fresh switch runs). */
    static SwitchProgram empty(DeviceId device) {
        return compile(device, List.of(), List.of());
    }

    /**
     * Compiles one switch's rules and groups.
     *
     * @param device switch (for messages)
     * @param rules  PI flow rules
     * @param groups PI groups (SELECT: action-profile groups; CLONE/ALL: clone sessions)
     * @return program
     * @throws IllegalArgumentException naming the offending rule or group if the P4 program
     *                                  has no such table, action, field or parameter, or a
     *                                  value does not fit
     */
    static SwitchProgram compile(DeviceId device, Collection<FlowRule> rules, Collection<Group> groups) {
        return compile(device, rules, groups, null);
    }

    /**
     * Compiles one switch's rules and groups, taking over the compiled entries of a previous
     * program whose rule is unchanged (same match, priority, id and action): an update that
     * rewrites a chain's buckets compiles those buckets, not every entry of the switch again.
     *
     * @param device   switch (for messages)
     * @param rules    PI flow rules
     * @param groups   PI groups (SELECT: action-profile groups; CLONE/ALL: clone sessions)
     * @param previous the switch's current program, or null
     * @return program
     * @throws IllegalArgumentException as {@link #compile(DeviceId, Collection, Collection)}
     */
    static SwitchProgram compile(DeviceId device, Collection<FlowRule> rules, Collection<Group> groups,
                                 SwitchProgram previous) {
        Map<Integer, Member[]> profileGroups = new HashMap<>();
        Map<Integer, int[]> clones = new HashMap<>();
        for (Group g : groups) {
            compileGroup(device, g, profileGroups, clones);
        }
        Map<TableSpec, List<Entry>> entries = new LinkedHashMap<>();
        Map<TableSpec, Action> defaults = new HashMap<>();
        for (TableSpec s : TABLES) {
            entries.put(s, new ArrayList<>());
        }
        defaults.put(T_SWITCH_INFO, new Action(SET_SWITCH_INFO, new long[3], new long[3]));
        defaults.put(T_IPV6_ROUTING, new Action(ROUTING_DROP, new long[0], new long[0]));
        defaults.put(T_IPV4_ROUTING, new Action(ROUTING_DROP, new long[0], new long[0]));
        defaults.put(T_REPORT_CONFIG, new Action(SET_REPORT_CONFIG, new long[7],
                new long[] {0, 0, 0, 0, 32766, 32766, 256}));
        Map<TableSpec, Set<Key>> keys = new HashMap<>();
        for (FlowRule r : rules) {
            Entry same = previous == null ? null : previous.byRule.get(r);
            // an entry of a direct table depends on its rule alone; indirect ones also on their group
            if (same != null && !same.spec.indirect && same.rule.exactMatch(r)) {
                add(device, same, entries, keys);
            } else {
                compileRule(device, r, profileGroups, entries, keys, defaults);
            }
        }
        Map<TableSpec, Table> tables = new HashMap<>();
        for (TableSpec s : TABLES) {
            List<Entry> list = entries.get(s);
            // Ternary: highest priority first; LPM: longest prefix first (P4Runtime semantics).
            list.sort(Comparator.comparingInt((Entry e) -> -e.prefix).thenComparingInt(e -> -e.priority));
            tables.put(s, new Table(s, list.toArray(new Entry[0]), defaults.get(s)));
        }
        return new SwitchProgram(tables, clones, device);
    }

    private static void compileGroup(DeviceId device, Group g, Map<Integer, Member[]> profileGroups,
                                     Map<Integer, int[]> clones) {
        int id = g.id().id();
        String where = device + " group " + id;
        if (g.type() == GroupDescription.Type.SELECT) {
            List<Member> members = new ArrayList<>();
            for (GroupBucket b : g.buckets().buckets()) {
                PiTableAction a = piAction(b.treatment().allInstructions(), where);
                if (!(a instanceof PiAction)) {
                    throw new IllegalArgumentException(where + ": a member must be a PiAction, got " + a);
                }
                if (b.weight() < 1) {
                    throw new IllegalArgumentException(where + ": member weight " + b.weight()
                            + " (P4Runtime needs >= 1)");
                }
                members.add(new Member(action(T_ENCAP, (PiAction) a, where), b.weight()));
            }
            if (members.isEmpty()) {
                throw new IllegalArgumentException(where + ": an action-profile group needs a member");
            }
            profileGroups.put(id, members.toArray(new Member[0]));
        } else if (g.type() == GroupDescription.Type.CLONE || g.type() == GroupDescription.Type.ALL) {
            List<Integer> ports = new ArrayList<>();
            for (GroupBucket b : g.buckets().buckets()) {
                for (Instruction i : b.treatment().allInstructions()) {
                    if (!(i instanceof Instructions.OutputInstruction)) {
                        throw new IllegalArgumentException(where + ": a clone session bucket only outputs, got " + i);
                    }
                    long p = ((Instructions.OutputInstruction) i).port().toLong();
                    if (((Instructions.OutputInstruction) i).port().equals(
                            org.onosproject.net.PortNumber.CONTROLLER)) {
                        p = CPU_PORT;
                    }
                    if (p < 0 || p > 511) {
                        throw new IllegalArgumentException(where + ": port " + p + " is not a 9-bit port");
                    }
                    ports.add((int) p);
                }
            }
            clones.put(id, ports.stream().mapToInt(Integer::intValue).toArray());
        } else {
            throw new IllegalArgumentException(where + ": group type " + g.type()
                    + " has no counterpart in the P4 program (SELECT action-profile groups, CLONE sessions)");
        }
    }

    private static PiTableAction piAction(List<Instruction> instructions, String where) {
        PiTableAction found = null;
        for (Instruction i : instructions) {
            if (!(i instanceof PiInstruction)) {
                throw new IllegalArgumentException(where + ": not a PI instruction: " + i);
            }
            if (found != null) {
                throw new IllegalArgumentException(where + ": more than one PI action");
            }
            found = ((PiInstruction) i).action();
        }
        if (found == null) {
            throw new IllegalArgumentException(where + ": no PI action");
        }
        return found;
    }

    private static void compileRule(DeviceId device, FlowRule r, Map<Integer, Member[]> profileGroups,
                                    Map<TableSpec, List<Entry>> entries, Map<TableSpec, Set<Key>> keys,
                                    Map<TableSpec, Action> defaults) {
        String where = device + " rule in " + r.table();
        TableSpec spec = null;
        for (TableSpec s : TABLES) {
            if (s.id.equals(r.table())) {
                spec = s;
            }
        }
        if (spec == null) {
            throw new IllegalArgumentException(where + ": the P4 program has no table " + r.table());
        }
        if (!r.deviceId().equals(device)) {
            throw new IllegalArgumentException(where + ": rule is for " + r.deviceId());
        }
        Map<PiMatchFieldId, PiFieldMatch> matches = new HashMap<>();
        for (Criterion c : r.selector().criteria()) {
            if (!(c instanceof PiCriterion)) {
                throw new IllegalArgumentException(where + ": not a PI criterion: " + c);
            }
            for (PiFieldMatch m : ((PiCriterion) c).fieldMatches()) {
                matches.put(m.fieldId(), m);
            }
        }
        PiTableAction ta = piAction(r.treatment().allInstructions(), where);
        if (spec.fields.length == 0 && !matches.isEmpty()) {
            throw new IllegalArgumentException(where + ": " + spec.id + " has no key, got " + matches.keySet());
        }
        if (matches.isEmpty()) {
            // No key: the rule sets the table's default action.
            if (spec.constDefault) {
                throw new IllegalArgumentException(where + ": the default action is const in the P4 program");
            }
            if (!(ta instanceof PiAction)) {
                throw new IllegalArgumentException(where + ": a default action must be a PiAction, got " + ta);
            }
            defaults.put(spec, action(spec, (PiAction) ta, where));
            return;
        }
        int n = spec.fields.length;
        long[] vHi = new long[n];
        long[] vLo = new long[n];
        long[] mHi = new long[n];
        long[] mLo = new long[n];
        int prefix = 0;
        for (PiMatchFieldId id : matches.keySet()) {
            boolean known = false;
            for (Field fd : spec.fields) {
                known |= fd.id.equals(id);
            }
            if (!known) {
                throw new IllegalArgumentException(where + ": table has no match field " + id);
            }
        }
        for (int i = 0; i < n; i++) {
            Field fd = spec.fields[i];
            PiFieldMatch m = matches.get(fd.id);
            BigInteger value;
            BigInteger mask;
            if (m == null) {
                if (fd.kind == Kind.EXACT) {
                    throw new IllegalArgumentException(where + ": exact field " + fd.id + " missing");
                }
                continue;
            } else if (fd.kind == Kind.EXACT && m instanceof PiExactFieldMatch) {
                value = fit(((PiExactFieldMatch) m).value(), fd, where);
                mask = BigInteger.ONE.shiftLeft(fd.width).subtract(BigInteger.ONE);
            } else if (fd.kind == Kind.LPM && m instanceof PiLpmFieldMatch) {
                PiLpmFieldMatch l = (PiLpmFieldMatch) m;
                if (l.prefixLength() < 0 || l.prefixLength() > fd.width) {
                    throw new IllegalArgumentException(where + ": prefix length " + l.prefixLength()
                            + " for " + fd.width + "-bit field " + fd.id);
                }
                value = fit(l.value(), fd, where);
                mask = BigInteger.ONE.shiftLeft(fd.width).subtract(BigInteger.ONE)
                        .xor(BigInteger.ONE.shiftLeft(fd.width - l.prefixLength()).subtract(BigInteger.ONE));
                prefix = l.prefixLength();
            } else if (fd.kind == Kind.TERNARY && m instanceof PiTernaryFieldMatch) {
                value = fit(((PiTernaryFieldMatch) m).value(), fd, where);
                mask = fit(((PiTernaryFieldMatch) m).mask(), fd, where);
            } else {
                throw new IllegalArgumentException(where + ": field " + fd.id + " is " + fd.kind
                        + " in the P4 program, got " + m.type());
            }
            value = value.and(mask);
            vHi[i] = value.shiftRight(64).longValue();
            vLo[i] = value.longValue();
            mHi[i] = mask.shiftRight(64).longValue();
            mLo[i] = mask.longValue();
        }
        Action a = null;
        Member[] members = null;
        if (spec.indirect) {
            if (!(ta instanceof PiActionProfileGroupId)) {
                throw new IllegalArgumentException(where + ": " + spec.id
                        + " is an indirect table: the action must be an action-profile group id, got " + ta);
            }
            int gid = ((PiActionProfileGroupId) ta).id();
            members = profileGroups.get(gid);
            if (members == null) {
                throw new IllegalArgumentException(where + ": action-profile group " + gid + " is not programmed");
            }
        } else {
            if (!(ta instanceof PiAction)) {
                throw new IllegalArgumentException(where + ": the action must be a PiAction, got " + ta);
            }
            a = action(spec, (PiAction) ta, where);
            if (spec == T_ENCAP) {
                // one member: the entry's segment list, with its encapsulator cache
                members = new Member[] {new Member(a, 1)};
            }
        }
        add(device, new Entry(spec, r, vHi, vLo, mHi, mLo, r.priority(), prefix, a, members), entries, keys);
    }

    /** Adds an entry to its table, refusing a second entry with its key (a set per table, not a scan). */
    private static void add(DeviceId device, Entry e, Map<TableSpec, List<Entry>> entries,
                            Map<TableSpec, Set<Key>> keys) {
        if (e.spec.fields[0].kind != Kind.TERNARY
                && !keys.computeIfAbsent(e.spec, x -> new HashSet<>()).add(new Key(e))) {
            throw new IllegalArgumentException(device + " rule in " + e.rule.table() + ": duplicate key "
                    + e.rule.selector());
        }
        entries.get(e.spec).add(e);
    }

    private static Action action(TableSpec table, PiAction a, String where) {
        ActionSpec spec = table.action(a.id());
        if (spec == null) {
            throw new IllegalArgumentException(where + ": table " + table.id + " has no action " + a.id());
        }
        int n = spec.params.length;
        long[] hi = new long[n];
        long[] lo = new long[n];
        if (a.parameters().size() != n) {
            throw new IllegalArgumentException(where + ": " + a.id() + " takes " + Arrays.toString(spec.params)
                    + ", got " + a.parameters());
        }
        for (PiActionParam p : a.parameters()) {
            int i = Arrays.asList(spec.params).indexOf(p.id());
            if (i < 0) {
                throw new IllegalArgumentException(where + ": " + a.id() + " has no parameter " + p.id());
            }
            BigInteger v = new BigInteger(1, p.value().asArray());
            if (v.bitLength() > spec.widths[i]) {
                throw new IllegalArgumentException(where + ": " + a.id() + " parameter " + p.id() + " = " + v
                        + " does not fit " + spec.widths[i] + " bits");
            }
            hi[i] = v.shiftRight(64).longValue();
            lo[i] = v.longValue();
        }
        if (spec == SET_CHAIN && lo[2] > 0x1F) {
            throw new IllegalArgumentException(where + ": set_chain map_info " + lo[2]
                    + " names INT fields the wire format does not define (bits 0..4)");
        }
        return new Action(spec, hi, lo);
    }

    private static BigInteger fit(ImmutableByteSequence s, Field fd, String where) {
        BigInteger v = new BigInteger(1, s.asArray());
        if (v.bitLength() > fd.width) {
            throw new IllegalArgumentException(where + ": value " + v + " does not fit the " + fd.width
                    + "-bit field " + fd.id);
        }
        return v;
    }

    static byte[] toBytes(long hi, long lo) {
        byte[] b = new byte[16];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (hi >>> (56 - 8 * i));
            b[8 + i] = (byte) (lo >>> (56 - 8 * i));
        }
        return b;
    }

    /**
     * The selector hash: murmur3's 32-bit finalizer over the flow hash (CRC-32 of the
     * inner 5-tuple, {@link org.srv6int.codec.FlowHash}), so that the low bits used for
     * the weighted pick depend on every bit of the CRC. BMv2 takes its CRC-32 of the
     * selector fields modulo the weight-expanded member count; the pick differs per flow
     * but both keep a flow on one member and spread flows by weight.
     *
     * @param h flow hash
     * @return mixed hash
     */
    static int mix(int h) {
        int x = h;
        x ^= x >>> 16;
        x *= 0x85ebca6b;
        x ^= x >>> 13;
        x *= 0xc2b2ae35;
        x ^= x >>> 16;
        return x;
    }
}
