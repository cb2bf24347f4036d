// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.wiring;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

/**
 * Wires each local replica's SID to its pod through an Open vSwitch bridge, as
 * in the paper: the bridge joins the NIC that faces the switch (the "switch
 * port"; a worker with several gives each replica the one its switch port is
 * behind) and the pods' interfaces. Two kinds of OpenFlow rule, both carrying
 * {@link #COOKIE}:
 * <ul>
 *   <li>{@code priority=200, in_port=<switch port>, ipv6, ipv6_dst=<SID>}
 *       → {@code output:<pod port>}: the switch sends a packet to the replica
 *       with the replica's SID as the active segment (wire-format §2);</li>
 *   <li>{@code priority=100, in_port=<pod port>} → {@code output:<switch port>}:
 *       what the vNF returns goes back to the switch.</li>
 * </ul>
 * The bridge is {@code fail_mode=secure}, so it holds no NORMAL rule: a packet
 * for no local SID is dropped, never flooded into the pods.
 *
 * <p>The object keeps the wanted state (SID → pod interface, switch port). {@link #wire},
 * {@link #unwire} and {@link #reconcile} all end in the same reconciliation:
 * make sure the bridge, the switch ports and the pods' ports exist (pod ports
 * tagged with {@link #SID_KEY} and {@link #BRIDGE_KEY} in their
 * {@code external_ids}, so ports the agent added are found again after it
 * restarts), read the rules carrying the
 * cookie back ({@code ovs-ofctl dump-flows}), and delete what is not wanted
 * and add what is missing in one atomic bundle. Reconciling twice changes
 * nothing the second time; after an {@code ovs-vswitchd} restart or a flush it
 * puts the rules back. Thread-safe (one reconciliation at a time).
 */
public final class OvsSidWiring {

    /** Cookie of every rule the agent owns (high 32 bits "SR6I"); other rules are never touched. */
    public static final long COOKIE = 0x5352_3649_0000_0001L;
    /** Priority of a SID → pod rule. */
    public static final int SID_PRIORITY = 200;
    /** Priority of a pod → switch rule. */
    public static final int RETURN_PRIORITY = 100;
    /** {@code external_ids} key on the pod interfaces the agent added; value: the SID. */
    public static final String SID_KEY = "srv6int-sid";
    /** {@code external_ids} key on the pod interfaces the agent added; value: the bridge. */
    public static final String BRIDGE_KEY = "srv6int-bridge";

    private static final Pattern IFNAME = Pattern.compile("[A-Za-z0-9_.-]{1,15}");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final OvsCommands ovs;
    private final String bridge;
    private final String datapathType;
    /** Canonical SID → where it goes. */
    private final Map<String, Wire> wanted = new TreeMap<>();
    private final AtomicLong errors = new AtomicLong();
    private final AtomicLong rulesAdded = new AtomicLong();
    private final AtomicLong rulesRemoved = new AtomicLong();

    /**
     * Creates the wiring of one bridge. Nothing is run until the first call.
     *
     * @param ovs command runner
     * @param bridge bridge name
     * @param datapathType {@code system} (kernel module) or {@code netdev} (userspace)
     */
    public OvsSidWiring(OvsCommands ovs, String bridge, String datapathType) {
        this.ovs = ovs;
        this.bridge = interfaceName("bridge", bridge);
        if (!"system".equals(datapathType) && !"netdev".equals(datapathType)) {
            throw new IllegalArgumentException("datapath type must be system or netdev, got " + datapathType);
        }
        this.datapathType = datapathType;
    }

    private static String interfaceName(String what, String name) {
        if (name == null || !IFNAME.matcher(name).matches()) {
            throw new IllegalArgumentException(what + " is not an interface name (1-15 of [A-Za-z0-9_.-]): " + name);
        }
        return name;
    }

    /**
     * Sends the packets that arrive on the switch port with the SID as IPv6
     * destination to the pod interface, and the pod's packets back out of that
     * switch port; both ports are added to the bridge. Re-wiring a SID moves
     * it. The wish is kept even if OVS fails, so the next {@link #reconcile}
     * completes it.
     *
     * @param sid replica SID (IPv6 literal)
     * @param podInterface host-side interface of the replica's pod
     * @param switchPort the NIC facing the switch port the replica is announced behind
     * @return what the reconciliation changed
     * @throws IllegalArgumentException for a bad SID or interface name, or a pod
     *     interface that another SID already returns through another switch port,
     *     or an interface used both as a pod interface and a switch port (nothing changed)
     * @throws OvsException if OVS failed (counted)
     */
    public synchronized Reconciled wire(String sid, String podInterface, String switchPort) throws OvsException {
        String s = OpenFlowRule.canonicalIpv6(sid);
        Wire w = new Wire(interfaceName("pod interface", podInterface), interfaceName("switch port", switchPort));
        if (w.pod.equals(w.nic) || w.pod.equals(bridge) || w.nic.equals(bridge)) {
            throw new IllegalArgumentException("pod interface " + w.pod + ", switch port " + w.nic + " and bridge "
                    + bridge + " must differ");
        }
        for (Map.Entry<String, Wire> e : wanted.entrySet()) {
            Wire o = e.getValue();
            if (e.getKey().equals(s)) {
                continue;
            }
            if (o.pod.equals(w.pod) && !o.nic.equals(w.nic)) {
                throw new IllegalArgumentException("pod interface " + w.pod + " already returns SID " + e.getKey()
                        + " through " + o.nic + ", not " + w.nic);
            }
            if (o.pod.equals(w.nic) || o.nic.equals(w.pod)) {
                throw new IllegalArgumentException("interface used both as a pod interface and a switch port: "
                        + (o.pod.equals(w.nic) ? w.nic : w.pod));
            }
        }
        wanted.put(s, w);
        return reconcile();
    }

    /**
     * Removes the SID's rules, and its pod port when no other SID uses it.
     *
     * @param sid replica SID (IPv6 literal)
     * @return what the reconciliation changed
     * @throws IllegalArgumentException for a bad SID
     * @throws OvsException if OVS failed (counted; the SID stays unwanted)
     */
    public synchronized Reconciled unwire(String sid) throws OvsException {
        wanted.remove(OpenFlowRule.canonicalIpv6(sid));
        return reconcile();
    }

    /**
     * The bridge.
     *
     * @return its name
     */
    public String bridge() {
        return bridge;
    }

    /**
     * The wanted wiring.
     *
     * @return canonical SID → pod interface (copy)
     */
    public synchronized Map<String, String> wired() {
        Map<String, String> m = new TreeMap<>();
        wanted.forEach((sid, w) -> m.put(sid, w.pod));
        return m;
    }

    /**
     * Makes OVS hold exactly the wanted wiring: bridge, ports, and the rules
     * carrying {@link #COOKIE}. Idempotent.
     *
     * @return what it changed, and the pod interfaces OVS could not use
     * @throws OvsException if OVS failed (counted)
     */
    public synchronized Reconciled reconcile() throws OvsException {
        try {
            return reconcileOnce();
        } catch (OvsException e) {
            errors.incrementAndGet();
            throw e;
        }
    }

    private Reconciled reconcileOnce() throws OvsException {
        List<String> tx = new ArrayList<>(List.of("--", "--may-exist", "add-br", bridge,
                "--", "set", "Bridge", bridge, "datapath_type=" + datapathType, "fail_mode=secure"));
        Set<String> nics = new LinkedHashSet<>();
        Set<String> inUse = new LinkedHashSet<>();
        for (Wire w : wanted.values()) {
            nics.add(w.nic);
            inUse.add(w.pod);
        }
        for (String nic : nics) {
            tx.addAll(List.of("--", "--may-exist", "add-port", bridge, nic));
        }
        for (Map.Entry<String, Wire> w : wanted.entrySet()) {
            String pod = w.getValue().pod;
            tx.addAll(List.of("--", "--may-exist", "add-port", bridge, pod,
                    "--", "set", "Interface", pod, "external_ids:" + SID_KEY + "=\"" + w.getKey() + "\"",
                    "external_ids:" + BRIDGE_KEY + "=" + bridge));
        }
        ovs.vsctl(tx);
        Map<String, Iface> ifaces = interfaces();
        // ports the agent added to this bridge for SIDs no longer wanted
        List<String> del = new ArrayList<>();
        for (Iface i : ifaces.values()) {
            if (i.sid != null && bridge.equals(i.bridge) && !inUse.contains(i.name)) {
                del.addAll(List.of("--", "--if-exists", "del-port", bridge, i.name));
            }
        }
        if (!del.isEmpty()) {
            ovs.vsctl(del);
        }
        Set<OpenFlowRule> want = new LinkedHashSet<>();
        Map<String, String> broken = new TreeMap<>();
        for (Map.Entry<String, Wire> w : wanted.entrySet()) {
            Iface nic = usable(ifaces, w.getValue().nic, broken);
            Iface pod = usable(ifaces, w.getValue().pod, broken);
            if (nic == null || pod == null) {
                continue;
            }
            Map<String, String> m = new LinkedHashMap<>();
            m.put("ipv6", "");
            m.put("in_port", Integer.toString(nic.ofport));
            m.put("ipv6_dst", w.getKey());
            want.add(new OpenFlowRule(COOKIE, SID_PRIORITY, m, "output:" + pod.ofport));
            // one per pod port (a set): wire() keeps a pod's SIDs behind one switch port
            want.add(new OpenFlowRule(COOKIE, RETURN_PRIORITY, Map.of("in_port", Integer.toString(pod.ofport)),
                    "output:" + nic.ofport));
        }
        Set<OpenFlowRule> have = rules();
        List<String> bundle = new ArrayList<>();
        int removed = 0;
        int added = 0;
        for (OpenFlowRule r : have) {
            if (!want.contains(r)) {
                bundle.add(r.deleteSpec());
                removed++;
            }
        }
        for (OpenFlowRule r : want) {
            if (!have.contains(r)) {
                bundle.add(r.addSpec());
                added++;
            }
        }
        if (!bundle.isEmpty()) {
            ovs.ofctl(List.of("--bundle", "add-flows", bridge, "-"), String.join("\n", bundle) + "\n");
        }
        rulesAdded.addAndGet(added);
        rulesRemoved.addAndGet(removed);
        if (!broken.isEmpty()) {
            errors.incrementAndGet();
        }
        return new Reconciled(added, removed, del.size() / 5, broken);
    }

    /**
     * The rules carrying {@link #COOKIE} as OVS holds them now.
     *
     * @return rules
     * @throws OvsException if OVS failed
     */
    public Set<OpenFlowRule> rules() throws OvsException {
        String dump = ovs.ofctl(List.of("--no-stats", "--no-names", "dump-flows", bridge,
                "cookie=0x" + Long.toHexString(COOKIE) + "/-1"), null);
        Set<OpenFlowRule> have = new LinkedHashSet<>();
        for (String line : dump.split("\n")) {
            OpenFlowRule r;
            try {
                r = OpenFlowRule.parseDumpLine(line);
            } catch (IllegalArgumentException e) {
                throw new OvsException("cannot read dump-flows line '" + line.strip() + "': " + e.getMessage(), e);
            }
            if (r != null) {
                have.add(r);
            }
        }
        return have;
    }

    private Map<String, Iface> interfaces() throws OvsException {
        String out = ovs.vsctl(List.of("--format=json", "--columns=name,ofport,external_ids,error",
                "list", "Interface"));
        Map<String, Iface> m = new LinkedHashMap<>();
        try {
            for (JsonNode row : JSON.readTree(out).path("data")) {
                Iface i = new Iface(row.get(0).asText(), row.get(1).isInt() ? row.get(1).asInt() : -1,
                        mapValue(row.get(2), SID_KEY), mapValue(row.get(2), BRIDGE_KEY),
                        row.get(3).isTextual() ? row.get(3).asText() : null);
                m.put(i.name, i);
            }
        } catch (IOException | RuntimeException e) {
            throw new OvsException("cannot read ovs-vsctl list Interface: " + e.getMessage(), e);
        }
        return m;
    }

    /** The interface if OVS gives it an OpenFlow port, else null with the reason put in broken. */
    private static Iface usable(Map<String, Iface> ifaces, String name, Map<String, String> broken) {
        Iface i = ifaces.get(name);
        if (i == null || i.ofport <= 0) {
            broken.put(name, i == null ? "not found" : reason(i));
            return null;
        }
        return i;
    }

    private static String reason(Iface i) {
        return i.error != null ? i.error : "ofport " + i.ofport + ", OVS gave no reason (see the ovs-vswitchd log)";
    }

    /** Value of key in an OVSDB JSON map {@code ["map", [[k, v], ...]]}, or null. */
    private static String mapValue(JsonNode map, String key) {
        for (JsonNode kv : map.path(1)) {
            if (key.equals(kv.path(0).asText())) {
                return kv.path(1).asText();
            }
        }
        return null;
    }

    /**
     * Failed OVS commands and reconciliations that left a pod interface unusable.
     *
     * @return count
     */
    public long errors() {
        return errors.get();
    }

    /**
     * Rules added by reconciliations so far (repairs included).
     *
     * @return count
     */
    public long rulesAdded() {
        return rulesAdded.get();
    }

    /**
     * Rules removed by reconciliations so far.
     *
     * @return count
     */
    public long rulesRemoved() {
        return rulesRemoved.get();
    }

    /** Where one SID goes: its pod's interface, and the switch port it arrives on and returns to. */
    private static final class Wire {
        final String pod;
        final String nic;

        Wire(String pod, String nic) {
            this.pod = pod;
            this.nic = nic;
        }
    }

    /** One row of OVSDB's Interface table. */
    private static final class Iface {
        final String name;
        final int ofport;
        final String sid;
        final String bridge;
        final String error;

        Iface(String name, int ofport, String sid, String bridge, String error) {
            this.name = name;
            this.ofport = ofport;
            this.sid = sid;
            this.bridge = bridge;
            this.error = error;
        }
    }

    /** What one reconciliation changed. */
    public static final class Reconciled {
        private final int added;
        private final int removed;
        private final int portsRemoved;
        private final Map<String, String> broken;

        Reconciled(int added, int removed, int portsRemoved, Map<String, String> broken) {
            this.added = added;
            this.removed = removed;
            this.portsRemoved = portsRemoved;
            this.broken = Map.copyOf(broken);
        }

        /**
         * Rules added.
         *
         * @return count
         */
        public int added() {
            return added;
        }

        /**
         * Rules removed.
         *
         * @return count
         */
        public int removed() {
            return removed;
        }

        /**
         * Pod ports removed from the bridge.
         *
         * @return count
         */
        public int portsRemoved() {
            return portsRemoved;
        }

        /**
         * Wanted pod interfaces and switch ports OVS could not use (missing, no
         * OpenFlow port), with OVS's error; their SIDs are not delivered until
         * they appear.
         *
         * @return interface → reason
         */
        public Map<String, String> broken() {
            return broken;
        }

        @Override
        public String toString() {
            return "added=" + added + " removed=" + removed + " portsRemoved=" + portsRemoved + " broken=" + broken;
        }
    }
}
