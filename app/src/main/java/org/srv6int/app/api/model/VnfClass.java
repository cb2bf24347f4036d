// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api.model;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The vNF types of vnf-interference.txt Table II, by what a vNF does to a packet; interference
 * between co-located vNFs depends on these (type VI, payload rewriting, was not measured there
 * and is not here).
 */
public enum VnfClass {
    /** Type I: reads the IP header (gateway; iptables). */
    HEADER_READING("I", "header reading"),
    /** Type II: reads IP and port, updates flow state (firewall, monitor; pktstat, ntopng). */
    FLOW_MONITORING("II", "header+port reading, flow state"),
    /** Type III: reads header and payload (NIDS, DPI; snort, nDPI). */
    PAYLOAD_INSPECTION("III", "payload inspection"),
    /** Type IV: rewrites the IP header (load balancer, proxy; nginx). */
    HEADER_REWRITING("IV", "header rewriting"),
    /** Type V: rewrites IP and port (NAT; nginx). */
    PORT_REWRITING("V", "header+port rewriting");

    // vNF type names of this project and the paper's applications, by class.
    private static final Map<String, VnfClass> KNOWN = Map.ofEntries(
            Map.entry("ovs", HEADER_READING), Map.entry("iptables", HEADER_READING),
            Map.entry("gateway", HEADER_READING), Map.entry("forwarder", HEADER_READING),
            Map.entry("pktstat", FLOW_MONITORING), Map.entry("ntopng", FLOW_MONITORING),
            Map.entry("monitor", FLOW_MONITORING), Map.entry("firewall", FLOW_MONITORING),
            Map.entry("snort", PAYLOAD_INSPECTION), Map.entry("ndpi", PAYLOAD_INSPECTION),
            Map.entry("dpi", PAYLOAD_INSPECTION), Map.entry("ids", PAYLOAD_INSPECTION),
            Map.entry("nginx", HEADER_REWRITING), Map.entry("lb", HEADER_REWRITING),
            Map.entry("proxy", HEADER_REWRITING), Map.entry("nat", PORT_REWRITING));

    private final String roman;
    private final String operation;

    VnfClass(String roman, String operation) {
        this.roman = roman;
        this.operation = operation;
    }

    /**
     * Returns the paper's type number.
     *
     * @return "I" .. "V"
     */
    public String roman() {
        return roman;
    }

    /**
     * Returns what the type does to a packet.
     *
     * @return short description
     */
    public String operation() {
        return operation;
    }

    /**
     * Returns the class of a vNF type name this project or the paper knows (case-insensitive).
     *
     * @param vnfType a chain's vNF type, e.g. "snort"
     * @return its class, empty if the name is not a known one
     */
    public static Optional<VnfClass> ofType(String vnfType) {
        return vnfType == null ? Optional.empty()
                : Optional.ofNullable(KNOWN.get(vnfType.toLowerCase(Locale.ROOT)));
    }

    /**
     * Parses a class given as the paper's number ("III") or the enum name.
     *
     * @param text "I".."V" or e.g. "PAYLOAD_INSPECTION" (case-insensitive)
     * @return the class
     * @throws IllegalArgumentException naming the accepted values
     */
    public static VnfClass parse(String text) {
        if (text != null) {
            for (VnfClass c : values()) {
                if (c.roman.equalsIgnoreCase(text.trim()) || c.name().equalsIgnoreCase(text.trim())) {
                    return c;
                }
            }
        }
        throw new IllegalArgumentException("vNF class must be one of I, II, III, IV, V (or "
                + Arrays.toString(values()) + "), got '" + text + "'");
    }
}
