package org.srv6int.app.testing;

import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip6Address;
import org.onlab.packet.MacAddress;
import org.onlab.util.ImmutableByteSequence;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.TrafficTreatment;
import org.onosproject.net.flow.criteria.Criterion;
import org.onosproject.net.flow.criteria.PiCriterion;
import org.onosproject.net.flow.instructions.Instruction;
import org.onosproject.net.flow.instructions.Instructions;
import org.onosproject.net.flow.instructions.PiInstruction;
import org.onosproject.net.group.GroupBucket;
import org.onosproject.net.group.GroupBuckets;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiActionParam;
import org.onosproject.net.pi.runtime.PiActionProfileGroupId;
import org.onosproject.net.pi.runtime.PiExactFieldMatch;
import org.onosproject.net.pi.runtime.PiFieldMatch;
import org.onosproject.net.pi.runtime.PiLpmFieldMatch;
import org.onosproject.net.pi.runtime.PiTernaryFieldMatch;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Renders PI flow rules and groups as one readable line each (addresses as
 * addresses, MACs as MACs), so tests can state exactly which entries a switch
 * gets.
 */
public final class Rules {

    private Rules() {
    }

    /**
     * Renders a rule: "device table match -> action(params)".
     *
     * @param r rule
     * @return line
     */
    public static String describe(FlowRule r) {
        String table = r.table().toString().replaceFirst("^Srv6Int(Ingress|Egress)\\.", "");
        List<String> match = new ArrayList<>();
        for (Criterion c : r.selector().criteria()) {
            if (c instanceof PiCriterion) {
                ((PiCriterion) c).fieldMatches().stream()
                        .sorted(Comparator.comparing(m -> m.fieldId().toString()))
                        .forEach(m -> match.add(field(m)));
            } else {
                match.add(c.toString());
            }
        }
        return r.deviceId() + " " + table + " " + (match.isEmpty() ? "default" : String.join(",", match))
                + " -> " + treatment(r.treatment()) + (match.isEmpty() ? "" : " prio=" + r.priority());
    }

    /**
     * Renders a group.
     *
     * @param device  device
     * @param groupId group id
     * @param buckets buckets
     * @return line
     */
    public static String describe(DeviceId device, int groupId, GroupBuckets buckets) {
        return device + " id=" + groupId + " " + buckets.buckets().stream()
                .map(b -> "[w=" + b.weight() + " " + treatment(b.treatment()) + "]")
                .sorted()
                .collect(Collectors.joining(" "));
    }

    /**
     * Renders a bucket list, sorted.
     *
     * @param buckets buckets
     * @return text
     */
    public static List<String> buckets(List<GroupBucket> buckets) {
        return buckets.stream().map(b -> "w=" + b.weight() + " " + treatment(b.treatment())).sorted()
                .collect(Collectors.toList());
    }

    private static String treatment(TrafficTreatment t) {
        List<String> out = new ArrayList<>();
        for (Instruction i : t.allInstructions()) {
            if (i instanceof PiInstruction) {
                Object a = ((PiInstruction) i).action();
                if (a instanceof PiAction) {
                    out.add(action((PiAction) a));
                } else if (a instanceof PiActionProfileGroupId) {
                    out.add("group(" + ((PiActionProfileGroupId) a).id() + ")");
                } else {
                    out.add(a.toString());
                }
            } else if (i instanceof Instructions.OutputInstruction) {
                out.add("output(" + ((Instructions.OutputInstruction) i).port() + ")");
            } else {
                out.add(i.toString());
            }
        }
        return String.join(";", out);
    }

    private static String action(PiAction a) {
        String name = a.id().toString().replaceFirst("^.*\\.", "");
        return name + "(" + a.parameters().stream()
                .sorted(Comparator.comparing(p -> p.id().toString()))
                .map(p -> p.id() + "=" + value(p.id().toString(), p.value()))
                .collect(Collectors.joining(", ")) + ")";
    }

    private static String field(PiFieldMatch m) {
        String n = m.fieldId().toString();
        if (m instanceof PiExactFieldMatch) {
            return n + "=" + value(n, ((PiExactFieldMatch) m).value());
        }
        if (m instanceof PiLpmFieldMatch) {
            PiLpmFieldMatch l = (PiLpmFieldMatch) m;
            return n + "=" + value(n, l.value()) + "/" + l.prefixLength();
        }
        if (m instanceof PiTernaryFieldMatch) {
            PiTernaryFieldMatch t = (PiTernaryFieldMatch) m;
            return n + "=" + value(n, t.value()) + "&&&" + value(n, t.mask());
        }
        return m.toString();
    }

    private static String value(String name, ImmutableByteSequence v) {
        byte[] b = v.asArray();
        if (name.matches("ipv6_.*|my_sid|s[0-9]") && b.length == 16) {
            return Ip6Address.valueOf(b).toString();
        }
        if (name.matches("ipv4_.*|src_ip|dst_ip") && b.length == 4) {
            return Ip4Address.valueOf(b).toString();
        }
        if (name.matches(".*mac") && b.length == 6) {
            return MacAddress.valueOf(b).toString();
        }
        return new BigInteger(1, b).toString();
    }
}
