// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.bmv2;

import com.google.protobuf.ByteString;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.TableId;
import org.onosproject.net.flow.criteria.Criterion;
import org.onosproject.net.flow.criteria.PiCriterion;
import org.onosproject.net.flow.instructions.Instruction;
import org.onosproject.net.flow.instructions.Instructions;
import org.onosproject.net.flow.instructions.PiInstruction;
import org.onosproject.net.group.Group;
import org.onosproject.net.group.GroupBucket;
import org.onosproject.net.group.GroupDescription;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiActionParam;
import org.onosproject.net.pi.runtime.PiActionProfileGroupId;
import org.onosproject.net.pi.runtime.PiActionProfileMemberId;
import org.onosproject.net.pi.runtime.PiExactFieldMatch;
import org.onosproject.net.pi.runtime.PiFieldMatch;
import org.onosproject.net.pi.runtime.PiGroupKey;
import org.onosproject.net.pi.runtime.PiLpmFieldMatch;
import org.onosproject.net.pi.runtime.PiOptionalFieldMatch;
import org.onosproject.net.pi.runtime.PiRangeFieldMatch;
import org.onosproject.net.pi.runtime.PiTableAction;
import org.onosproject.net.pi.runtime.PiTernaryFieldMatch;
import org.onlab.util.ImmutableByteSequence;
import p4.config.v1.P4InfoOuterClass;
import p4.v1.P4RuntimeOuterClass.Action;
import p4.v1.P4RuntimeOuterClass.CloneSessionEntry;
import p4.v1.P4RuntimeOuterClass.FieldMatch;
import p4.v1.P4RuntimeOuterClass.MulticastGroupEntry;
import p4.v1.P4RuntimeOuterClass.Replica;
import p4.v1.P4RuntimeOuterClass.TableAction;
import p4.v1.P4RuntimeOuterClass.TableEntry;

/**
 * Translates the ONOS PI objects the app installs into P4Runtime messages, with the ids and widths
 * of a {@link P4InfoIndex}: flow rules (a {@link PiCriterion} selector and a {@link PiInstruction}
 * carrying a {@link PiAction} or a {@link PiActionProfileGroupId}) into table entries, SELECT groups
 * keyed by a {@link PiGroupKey} into weighted action-profile member lists, CLONE groups into clone
 * sessions and ALL groups into multicast groups. Values are written in P4Runtime's canonical
 * binary form: big-endian, without leading zero bytes, zero as one 0x00 byte.
 */
public final class PiToP4Runtime {

    private final P4InfoIndex p4info;

    /**
     * Creates a translator.
     *
     * @param p4info the program's P4Info
     */
    public PiToP4Runtime(P4InfoIndex p4info) {
        this.p4info = p4info;
    }

    /** @return the P4Info index */
    public P4InfoIndex p4info() {
        return p4info;
    }

    /**
     * Translates a flow rule. A rule with no PI criterion is the table's default entry.
     *
     * @param rule PI flow rule
     * @return table entry with its action
     * @throws IllegalArgumentException if the rule is not a PI rule of this program or a value does not fit
     */
    public TableEntry tableEntry(FlowRule rule) {
        TableId tid = rule.table();
        if (!(tid instanceof PiTableId)) {
            throw new IllegalArgumentException("not a PI flow rule (table " + tid + "): " + rule);
        }
        P4InfoIndex.TableInfo table = p4info.table((PiTableId) tid);
        TableEntry.Builder e = TableEntry.newBuilder().setTableId(table.id());
        Criterion c = rule.selector().getCriterion(Criterion.Type.PROTOCOL_INDEPENDENT);
        if (c == null) {
            if (!rule.selector().criteria().isEmpty()) {
                throw new IllegalArgumentException("flow rule on " + table.name()
                        + " has non-PI criteria: " + rule.selector());
            }
            e.setIsDefaultAction(true);
        } else {
            List<FieldMatch> matches = new ArrayList<>();
            for (PiFieldMatch m : ((PiCriterion) c).fieldMatches()) {
                fieldMatch(table, m, matches);
            }
            // P4Runtime compares entries by key; one order for the same match
            matches.sort(Comparator.comparingInt(FieldMatch::getFieldId));
            e.addAllMatch(matches);
            if (table.needsPriority()) {
                if (rule.priority() <= 0) {
                    throw new IllegalArgumentException("table " + table.name()
                            + " needs a priority > 0, rule has " + rule.priority());
                }
                e.setPriority(rule.priority());
            }
        }
        e.setAction(tableAction(rule));
        return e.build();
    }

    /**
     * The key of a table entry: the entry without its action (what P4Runtime identifies it by).
     *
     * @param entry table entry
     * @return key
     */
    public static TableEntry key(TableEntry entry) {
        return entry.toBuilder().clearAction().build();
    }

    private void fieldMatch(P4InfoIndex.TableInfo table, PiFieldMatch m, List<FieldMatch> out) {
        P4InfoOuterClass.MatchField f = table.field(m.fieldId());
        int w = f.getBitwidth();
        String what = table.name() + "." + f.getName();
        FieldMatch.Builder b = FieldMatch.newBuilder().setFieldId(f.getId());
        switch (m.type()) {
            case EXACT:
                requireKind(f, P4InfoOuterClass.MatchField.MatchType.EXACT, what);
                b.setExact(FieldMatch.Exact.newBuilder()
                                   .setValue(canonical(((PiExactFieldMatch) m).value(), w, what)));
                break;
            case LPM: {
                requireKind(f, P4InfoOuterClass.MatchField.MatchType.LPM, what);
                PiLpmFieldMatch lpm = (PiLpmFieldMatch) m;
                if (lpm.prefixLength() == 0) {
                    return; // P4Runtime: a don't-care LPM field is omitted
                }
                b.setLpm(FieldMatch.LPM.newBuilder().setValue(canonical(lpm.value(), w, what))
                                 .setPrefixLen(lpm.prefixLength()));
                break;
            }
            case TERNARY: {
                requireKind(f, P4InfoOuterClass.MatchField.MatchType.TERNARY, what);
                PiTernaryFieldMatch t = (PiTernaryFieldMatch) m;
                ByteString mask = canonical(t.mask(), w, what + " mask");
                if (isZero(mask)) {
                    return; // P4Runtime: a don't-care ternary field is omitted
                }
                b.setTernary(FieldMatch.Ternary.newBuilder().setValue(canonical(t.value(), w, what))
                                     .setMask(mask));
                break;
            }
            case RANGE: {
                requireKind(f, P4InfoOuterClass.MatchField.MatchType.RANGE, what);
                PiRangeFieldMatch r = (PiRangeFieldMatch) m;
                b.setRange(FieldMatch.Range.newBuilder().setLow(canonical(r.lowValue(), w, what))
                                   .setHigh(canonical(r.highValue(), w, what)));
                break;
            }
            case OPTIONAL:
                requireKind(f, P4InfoOuterClass.MatchField.MatchType.OPTIONAL, what);
                b.setOptional(FieldMatch.Optional.newBuilder()
                                      .setValue(canonical(((PiOptionalFieldMatch) m).value(), w, what)));
                break;
            default:
                throw new IllegalArgumentException("match kind " + m.type() + " of " + what + " is not supported");
        }
        out.add(b.build());
    }

    private static void requireKind(P4InfoOuterClass.MatchField f, P4InfoOuterClass.MatchField.MatchType kind,
                                    String what) {
        if (f.getMatchType() != kind) {
            throw new IllegalArgumentException(what + " is " + f.getMatchType() + " in the P4Info, the rule gives "
                    + kind);
        }
    }

    private TableAction tableAction(FlowRule rule) {
        PiTableAction a = piTableAction(rule.treatment().allInstructions(), "flow rule " + rule.id());
        switch (a.type()) {
            case ACTION:
                return TableAction.newBuilder().setAction(action((PiAction) a)).build();
            case ACTION_PROFILE_GROUP_ID:
                return TableAction.newBuilder().setActionProfileGroupId(((PiActionProfileGroupId) a).id()).build();
            case ACTION_PROFILE_MEMBER_ID:
                return TableAction.newBuilder().setActionProfileMemberId(((PiActionProfileMemberId) a).id()).build();
            default:
                throw new IllegalArgumentException("table action " + a.type() + " is not supported: " + rule);
        }
    }

    private static PiTableAction piTableAction(List<Instruction> instructions, String what) {
        PiTableAction found = null;
        for (Instruction i : instructions) {
            if (!(i instanceof PiInstruction)) {
                throw new IllegalArgumentException(what + " has a non-PI instruction " + i
                        + " (the twin runs no pipeline interpreter)");
            }
            if (found != null) {
                throw new IllegalArgumentException(what + " has more than one PI table action");
            }
            found = ((PiInstruction) i).action();
        }
        if (found == null) {
            throw new IllegalArgumentException(what + " has no PI table action");
        }
        return found;
    }

    /**
     * Translates a PI action.
     *
     * @param a action
     * @return P4Runtime action
     * @throws IllegalArgumentException if the program has no such action, a parameter is missing or does not fit
     */
    public Action action(PiAction a) {
        P4InfoIndex.ActionInfo info = p4info.action(a.id());
        if (a.parameters().size() != info.paramCount()) {
            throw new IllegalArgumentException("action " + info.name() + " takes " + info.paramCount()
                    + " parameters, got " + a.parameters().size() + ": " + a);
        }
        List<Action.Param> params = new ArrayList<>();
        for (PiActionParam p : a.parameters()) {
            P4InfoOuterClass.Action.Param pi = info.param(p.id());
            params.add(Action.Param.newBuilder().setParamId(pi.getId())
                               .setValue(canonical(p.value(), pi.getBitwidth(), info.name() + "." + pi.getName()))
                               .build());
        }
        params.sort(Comparator.comparingInt(Action.Param::getParamId));
        return Action.newBuilder().setActionId(info.id()).addAllParams(params).build();
    }

    /**
     * The members of a SELECT group keyed by a {@link PiGroupKey}: one action per bucket with its weight.
     *
     * @param g group
     * @return weighted actions, bucket order
     * @throws IllegalArgumentException if a bucket is not a single PI action or its weight is below 1
     */
    public List<WeightedAction> selectMembers(Group g) {
        List<WeightedAction> out = new ArrayList<>();
        for (GroupBucket b : g.buckets().buckets()) {
            PiTableAction a = piTableAction(b.treatment().allInstructions(), "group " + g.id() + " bucket");
            if (a.type() != PiTableAction.Type.ACTION) {
                throw new IllegalArgumentException("group " + g.id() + " bucket action is " + a.type()
                        + ", not an action");
            }
            if (b.weight() < 1) {
                throw new IllegalArgumentException("group " + g.id() + " bucket weight " + b.weight()
                        + " (SELECT buckets need a weight >= 1)");
            }
            out.add(new WeightedAction(action((PiAction) a), b.weight()));
        }
        return out;
    }

    /**
     * The action profile of a SELECT group.
     *
     * @param g group with a {@link PiGroupKey}
     * @return P4Runtime action profile id
     * @throws IllegalArgumentException if the group is not keyed by a {@link PiGroupKey}
     */
    public int actionProfileId(Group g) {
        if (!(g.appCookie() instanceof PiGroupKey)) {
            throw new IllegalArgumentException("SELECT group " + g.id() + " on " + g.deviceId()
                    + " is not keyed by a PiGroupKey (cookie " + g.appCookie() + ")");
        }
        return p4info.actionProfileId(((PiGroupKey) g.appCookie()).actionProfileId());
    }

    /**
     * Translates a CLONE group: session id is the group id, one replica per bucket's output port.
     *
     * @param g CLONE group
     * @return clone session
     */
    public static CloneSessionEntry cloneSession(Group g) {
        return CloneSessionEntry.newBuilder().setSessionId(g.id().id()).addAllReplicas(replicas(g)).build();
    }

    /**
     * Translates an ALL group: multicast group id is the group id, one replica per bucket's output port.
     *
     * @param g ALL group
     * @return multicast group
     */
    public static MulticastGroupEntry multicastGroup(Group g) {
        return MulticastGroupEntry.newBuilder().setMulticastGroupId(g.id().id()).addAllReplicas(replicas(g)).build();
    }

    private static List<Replica> replicas(Group g) {
        List<Replica> out = new ArrayList<>();
        int instance = 1;
        for (GroupBucket b : g.buckets().buckets()) {
            Long port = null;
            for (Instruction i : b.treatment().allInstructions()) {
                if (i instanceof Instructions.OutputInstruction && port == null) {
                    port = ((Instructions.OutputInstruction) i).port().toLong();
                } else {
                    throw new IllegalArgumentException(g.type() + " group " + g.id()
                            + " bucket must be exactly one output instruction: " + b.treatment());
                }
            }
            if (port == null) {
                throw new IllegalArgumentException(g.type() + " group " + g.id() + " bucket has no output port");
            }
            out.add(Replica.newBuilder().setEgressPort(port.intValue()).setInstance(instance++).build());
        }
        return out;
    }

    /**
     * Whether a group is translated to action-profile members and a group.
     *
     * @param g group
     * @return true for SELECT (and INDIRECT) groups
     */
    public static boolean isActionProfileGroup(Group g) {
        return g.type() == GroupDescription.Type.SELECT || g.type() == GroupDescription.Type.INDIRECT;
    }

    /**
     * Encodes a value of a {@code bitwidth}-bit field in P4Runtime's canonical binary form.
     *
     * @param value    value, big-endian, any length
     * @param bitwidth field width
     * @param what     field, for the error message
     * @return shortest big-endian string, one 0x00 byte for zero
     * @throws IllegalArgumentException if the value needs more than {@code bitwidth} bits
     */
    public static ByteString canonical(ImmutableByteSequence value, int bitwidth, String what) {
        return canonical(value.asArray(), bitwidth, what);
    }

    /**
     * Encodes a value of a {@code bitwidth}-bit field in P4Runtime's canonical binary form.
     *
     * @param value    value, big-endian, any length
     * @param bitwidth field width
     * @param what     field, for the error message
     * @return shortest big-endian string, one 0x00 byte for zero
     * @throws IllegalArgumentException if the value needs more than {@code bitwidth} bits
     */
    public static ByteString canonical(byte[] value, int bitwidth, String what) {
        int first = 0;
        while (first < value.length - 1 && value[first] == 0) {
            first++;
        }
        if (value.length == 0) {
            return ByteString.copyFrom(new byte[1]);
        }
        int bits = new BigInteger(1, value).bitLength();
        if (bits > bitwidth) {
            throw new IllegalArgumentException(what + ": value 0x" + new BigInteger(1, value).toString(16)
                    + " does not fit in " + bitwidth + " bits");
        }
        return ByteString.copyFrom(value, first, value.length - first);
    }

    private static boolean isZero(ByteString b) {
        for (int i = 0; i < b.size(); i++) {
            if (b.byteAt(i) != 0) {
                return false;
            }
        }
        return true;
    }

    /** An action with the weight of its bucket. */
    public static final class WeightedAction {
        private final Action action;
        private final int weight;

        WeightedAction(Action action, int weight) {
            this.action = action;
            this.weight = weight;
        }

        /** @return action */
        public Action action() {
            return action;
        }

        /** @return weight, at least 1 */
        public int weight() {
            return weight;
        }
    }
}
