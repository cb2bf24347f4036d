package org.srv6int.k8s.agent.wiring;

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
 * port") and the pods' interfaces. Two kinds of OpenFlow rule, both carrying
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
 * <p>The object keeps the wanted state (SID → pod interface). {@link #wire},
 * {@link #unwire} and {@link #reconcile} all end in the same reconciliation:
 * make sure the bridge, the switch port and the pods' ports exist (pod ports
 * tagged with {@link #SID_KEY} in their {@code external_ids}, so ports the
 * agent added are found again after it restarts), read the rules carrying the
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

    private static final Pattern IFNAME = Pattern.compile("[A-Za-z0-9_.-]{1,15}");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final OvsCommands ovs;
    private final String bridge;
    private final String switchPort;
    private final String datapathType;
    /** Canonical SID → pod interface. */
    private final Map<String, String> wanted = new TreeMap<>();
    private final AtomicLong errors = new AtomicLong();
    private final AtomicLong rulesAdded = new AtomicLong();
    private final AtomicLong rulesRemoved = new AtomicLong();

    /**
     * Creates the wiring of one bridge. Nothing is run until the first call.
     *
     * @param ovs command runner
     * @param bridge bridge name
     * @param switchPort the NIC facing the switch
     * @param datapathType {@code system} (kernel module) or {@code netdev} (userspace)
     */
    public OvsSidWiring(OvsCommands ovs, String bridge, String switchPort, String datapathType) {
        this.ovs = ovs;
        this.bridge = interfaceName("bridge", bridge);
        this.switchPort = interfaceName("switch port", switchPort);
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
     * Sends the SID's packets to the pod interface (adding it to the bridge) and
     * the pod's packets back to the switch. Re-wiring a SID to another interface
     * moves it. The wish is kept even if OVS fails, so the next
     * {@link #reconcile} completes it.
     *
     * @param sid replica SID (IPv6 literal)
     * @param podInterface host-side interface of the pod
     * @return what the reconciliation changed
     * @throws IllegalArgumentException for a bad SID or interface name (nothing changed)
     * @throws OvsException if OVS failed (counted)
     */
    public synchronized Reconciled wire(String sid, String podInterface) throws OvsException {
        String s = OpenFlowRule.canonicalIpv6(sid);
        String iface = interfaceName("pod interface", podInterface);
        if (iface.equals(switchPort) || iface.equals(bridge)) {
            throw new IllegalArgumentException("pod interface " + iface + " is the switch port or the bridge");
        }
        wanted.put(s, iface);
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
        return new TreeMap<>(wanted);
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
                "--", "set", "Bridge", bridge, "datapath_type=" + datapathType, "fail_mode=secure",
                "--", "--may-exist", "add-port", bridge, switchPort));
        for (Map.Entry<String, String> w : wanted.entrySet()) {
            tx.addAll(List.of("--", "--may-exist", "add-port", bridge, w.getValue(),
                    "--", "set", "Interface", w.getValue(), "external_ids:" + SID_KEY + "=\"" + w.getKey() + "\""));
        }
        ovs.vsctl(tx);
        Map<String, Iface> ifaces = interfaces();
        // ports the agent added for SIDs no longer wanted
        Set<String> inUse = new LinkedHashSet<>(wanted.values());
        List<String> del = new ArrayList<>();
        for (Iface i : ifaces.values()) {
            if (i.sid != null && !inUse.contains(i.name)) {
                del.addAll(List.of("--", "--if-exists", "del-port", bridge, i.name));
            }
        }
        if (!del.isEmpty()) {
            ovs.vsctl(del);
        }
        Iface nic = ifaces.get(switchPort);
        if (nic == null || nic.ofport <= 0) {
            throw new OvsException("switch port " + switchPort + " has no OpenFlow port on " + bridge + ": "
                    + (nic == null ? "not found" : reason(nic)));
        }
        Set<OpenFlowRule> want = new LinkedHashSet<>();
        Map<String, String> broken = new TreeMap<>();
        Set<Integer> returns = new LinkedHashSet<>();
        for (Map.Entry<String, String> w : wanted.entrySet()) {
            Iface pod = ifaces.get(w.getValue());
            if (pod == null || pod.ofport <= 0) {
                broken.put(w.getValue(), pod == null ? "not found" : reason(pod));
                continue;
            }
            Map<String, String> m = new LinkedHashMap<>();
            m.put("ipv6", "");
            m.put("in_port", Integer.toString(nic.ofport));
            m.put("ipv6_dst", w.getKey());
            want.add(new OpenFlowRule(COOKIE, SID_PRIORITY, m, "output:" + pod.ofport));
            returns.add(pod.ofport);
        }
        for (int port : returns) {
            want.add(new OpenFlowRule(COOKIE, RETURN_PRIORITY, Map.of("in_port", Integer.toString(port)),
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
                        mapValue(row.get(2), SID_KEY), row.get(3).isTextual() ? row.get(3).asText() : null);
                m.put(i.name, i);
            }
        } catch (IOException | RuntimeException e) {
            throw new OvsException("cannot read ovs-vsctl list Interface: " + e.getMessage(), e);
        }
        return m;
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

    /** One row of OVSDB's Interface table. */
    private static final class Iface {
        final String name;
        final int ofport;
        final String sid;
        final String error;

        Iface(String name, int ofport, String sid, String error) {
            this.name = name;
            this.ofport = ofport;
            this.sid = sid;
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
         * Wanted pod interfaces OVS could not use (missing, no OpenFlow port),
         * with OVS's error; their SIDs are not delivered until they appear.
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
