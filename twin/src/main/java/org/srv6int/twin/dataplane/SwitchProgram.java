// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.dataplane;

import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.group.Group;
import org.srv6int.codec.IntReportEncoder;
import org.srv6int.codec.Srv6IntEncap;

import static org.srv6int.twin.dataplane.P4Tables.*;

/**
 * One switch's PI entries compiled for the emulated pipeline over the P4 program's tables
 * ({@link P4Tables}); {@link RuleCompiler} makes the checks P4Runtime would make, so a rule the
 * real switch rejects is rejected here at {@link #compile} time with a message that names the
 * rule. Immutable once compiled, except the per-member encapsulator cache and the entries'
 * direct counters.
 */
final class SwitchProgram {

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

    SwitchProgram(Map<TableSpec, Table> t, Map<Integer, int[]> clones, DeviceId device) {
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
        return RuleCompiler.compile(device, rules, groups, previous);
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
