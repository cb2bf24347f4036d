// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.wiring;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One OpenFlow rule of table 0 in {@code ovs-ofctl}'s flow syntax: priority,
 * match fields and actions. Two rules are equal when priority, match and
 * actions are (the cookie is not compared): that is how reconciliation tells a
 * rule that is in place from one that must be added or removed. IPv6 address
 * values are compared by address, not by spelling.
 */
public final class OpenFlowRule {

    /** OpenFlow's default priority, which {@code dump-flows} leaves out. */
    public static final int DEFAULT_PRIORITY = 32768;

    /** Fields of a dump line that describe the entry, not its match. */
    private static final Set<String> NOT_MATCH = Set.of("cookie", "duration", "table", "n_packets", "n_bytes",
            "idle_age", "hard_age", "idle_timeout", "hard_timeout", "reset_counts", "send_flow_rem",
            "check_overlap", "no_packet_counts", "no_byte_counts", "importance", "priority");
    private static final Set<String> IPV6_FIELDS = Set.of("ipv6_dst", "ipv6_src", "nd_target");
    private static final Pattern IPV6_LITERAL = Pattern.compile("[0-9a-fA-F:.]+");
    private static final Pattern TOKEN = Pattern.compile("[,\\s]+");

    private final long cookie;
    private final int priority;
    private final Map<String, String> match;
    private final String actions;

    /**
     * Creates a rule.
     *
     * @param cookie cookie (not part of equality)
     * @param priority 0..65535
     * @param match fields in order; value "" for a bare keyword such as {@code ipv6}
     * @param actions actions, e.g. {@code output:2}
     */
    public OpenFlowRule(long cookie, int priority, Map<String, String> match, String actions) {
        if (priority < 0 || priority > 65535) {
            throw new IllegalArgumentException("priority out of range: " + priority);
        }
        this.cookie = cookie;
        this.priority = priority;
        Map<String, String> m = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : match.entrySet()) {
            m.put(e.getKey(), normalize(e.getKey(), e.getValue()));
        }
        this.match = Collections.unmodifiableMap(m);
        this.actions = actions.strip();
    }

    /**
     * Parses one flow line of {@code ovs-ofctl dump-flows} (with or without
     * {@code --no-stats}; port numbers, i.e. {@code --no-names}).
     *
     * @param line a line of the dump
     * @return the rule, or null for a line that is no flow (the reply header)
     * @throws IllegalArgumentException for a flow line that cannot be read
     */
    public static OpenFlowRule parseDumpLine(String line) {
        String s = line.strip();
        int a = s.indexOf(" actions=");
        if (s.isEmpty() || a < 0) {
            return null;
        }
        long cookie = 0;
        int priority = DEFAULT_PRIORITY;
        Map<String, String> match = new LinkedHashMap<>();
        for (String tok : TOKEN.split(s.substring(0, a).strip())) {
            if (tok.isEmpty()) {
                continue;
            }
            int eq = tok.indexOf('=');
            String key = eq < 0 ? tok : tok.substring(0, eq);
            String value = eq < 0 ? "" : tok.substring(eq + 1);
            if ("cookie".equals(key)) {
                cookie = Long.parseUnsignedLong(value.startsWith("0x") ? value.substring(2) : value, 16);
            } else if ("priority".equals(key)) {
                priority = Integer.parseInt(value);
            } else if (!NOT_MATCH.contains(key)) {
                match.put(key, value);
            }
        }
        return new OpenFlowRule(cookie, priority, match, s.substring(a + " actions=".length()));
    }

    private static String normalize(String key, String value) {
        if (!IPV6_FIELDS.contains(key) || value.contains("/")) {
            return value;
        }
        return canonicalIpv6(value);
    }

    /**
     * An IPv6 literal in one spelling (Java's full form, lower case), so that
     * {@code fc00:2::10} and {@code fc00:0002:0:0:0:0:0:0010} compare equal.
     *
     * @param literal IPv6 address literal (never a host name: nothing is resolved)
     * @return canonical text
     * @throws IllegalArgumentException if it is not an IPv6 literal
     */
    public static String canonicalIpv6(String literal) {
        if (literal == null || !IPV6_LITERAL.matcher(literal).matches() || literal.indexOf(':') < 0) {
            throw new IllegalArgumentException("not an IPv6 address: " + literal);
        }
        InetAddress a;
        try {
            a = InetAddress.getByName(literal); // a literal is parsed, never looked up
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an IPv6 address: " + literal, e);
        }
        if (!(a instanceof Inet6Address)) {
            throw new IllegalArgumentException("not an IPv6 address (IPv4-mapped): " + literal);
        }
        return a.getHostAddress().toLowerCase(Locale.ROOT);
    }

    /**
     * The line that adds this rule in an {@code add-flows} file.
     *
     * @return e.g. {@code add cookie=0x..,priority=200,ipv6,in_port=1,ipv6_dst=..,actions=output:2}
     */
    public String addSpec() {
        return "add cookie=0x" + Long.toHexString(cookie) + ",priority=" + priority + matchSpec()
                + ",actions=" + actions;
    }

    /**
     * The line that deletes exactly this rule (same cookie, priority and match)
     * in an {@code add-flows} file.
     *
     * @return e.g. {@code delete_strict cookie=0x../-1,priority=200,...}
     */
    public String deleteSpec() {
        return "delete_strict cookie=0x" + Long.toHexString(cookie) + "/-1,priority=" + priority + matchSpec();
    }

    private String matchSpec() {
        StringBuilder b = new StringBuilder();
        for (Map.Entry<String, String> e : match.entrySet()) {
            b.append(',').append(e.getKey());
            if (!e.getValue().isEmpty()) {
                b.append('=').append(e.getValue());
            }
        }
        return b.toString();
    }

    /**
     * Cookie.
     *
     * @return cookie
     */
    public long cookie() {
        return cookie;
    }

    /**
     * Priority.
     *
     * @return priority
     */
    public int priority() {
        return priority;
    }

    /**
     * Match fields.
     *
     * @return unmodifiable, in order
     */
    public Map<String, String> match() {
        return match;
    }

    /**
     * Actions.
     *
     * @return actions text
     */
    public String actions() {
        return actions;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof OpenFlowRule)) {
            return false;
        }
        OpenFlowRule r = (OpenFlowRule) o;
        return priority == r.priority && match.equals(r.match) && actions.equals(r.actions);
    }

    @Override
    public int hashCode() {
        return (priority * 31 + match.hashCode()) * 31 + actions.hashCode();
    }

    @Override
    public String toString() {
        return "priority=" + priority + matchSpec() + " actions=" + actions;
    }
}
