// SPDX-License-Identifier: Apache-2.0
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
import org.onosproject.net.PortNumber;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.criteria.Criterion;
import org.onosproject.net.flow.criteria.PiCriterion;
import org.onosproject.net.flow.instructions.Instruction;
import org.onosproject.net.flow.instructions.Instructions;
import org.onosproject.net.flow.instructions.PiInstruction;
import org.onosproject.net.group.Group;
import org.onosproject.net.group.GroupBucket;
import org.onosproject.net.group.GroupDescription;
import org.onosproject.net.pi.model.PiMatchFieldId;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiActionParam;
import org.onosproject.net.pi.runtime.PiActionProfileGroupId;
import org.onosproject.net.pi.runtime.PiExactFieldMatch;
import org.onosproject.net.pi.runtime.PiFieldMatch;
import org.onosproject.net.pi.runtime.PiLpmFieldMatch;
import org.onosproject.net.pi.runtime.PiTableAction;
import org.onosproject.net.pi.runtime.PiTernaryFieldMatch;
import org.srv6int.twin.dataplane.P4Tables.ActionSpec;
import org.srv6int.twin.dataplane.P4Tables.Field;
import org.srv6int.twin.dataplane.P4Tables.Kind;
import org.srv6int.twin.dataplane.P4Tables.TableSpec;
import org.srv6int.twin.dataplane.SwitchProgram.Action;
import org.srv6int.twin.dataplane.SwitchProgram.Entry;
import org.srv6int.twin.dataplane.SwitchProgram.Key;
import org.srv6int.twin.dataplane.SwitchProgram.Member;
import org.srv6int.twin.dataplane.SwitchProgram.Table;

import static org.srv6int.twin.dataplane.P4Tables.*;

/**
 * Compiles one switch's PI rules and groups into a {@link SwitchProgram}, with the checks
 * P4Runtime would make against the P4 program's tables ({@link P4Tables}): an unknown table,
 * action, field or parameter, a value that does not fit, a duplicate key or a missing group is
 * refused with a message that names the rule or group.
 */
final class RuleCompiler {

    private RuleCompiler() {
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
                            PortNumber.CONTROLLER)) {
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
}
