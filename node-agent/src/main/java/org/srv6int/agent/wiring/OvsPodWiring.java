// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.wiring;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.srv6int.agent.AgentConfig;
import org.srv6int.agent.pods.PodWiring;
import org.srv6int.agent.pods.ReplicaPod;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The agent's pods wired through Open vSwitch: a managed pod's SID goes to the host side
 * of its interface ({@link PodInterfaces}: the MAC in its network-status annotation → the
 * host veth whose peer has it, by netlink) on the uplink NIC its switch port is behind
 * ({@link OvsSidWiring}). A repair thread
 * reconciles at a fixed interval, so rules lost to an {@code ovs-vswitchd} restart or a
 * flush come back and rules of pods deleted while the agent was down go.
 *
 * <p>Dry run (recommend mode): the host interface is looked up and what would be wired
 * is kept and logged; OVS is never called.
 */
public final class OvsPodWiring implements PodWiring, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(OvsPodWiring.class);

    private final OvsSidWiring ovs;
    private final PodInterfaces interfaces;
    private final Function<ReplicaPod, String> uplink;
    private final boolean dryRun;
    /** Pod UID → "SID → host interface via uplink", what is wired (or would be). */
    private final Map<String, String> wired = new TreeMap<>();
    /** Pods whose wiring failed (no network status yet, OVS down), by UID. */
    private final Map<String, ReplicaPod> pending = new LinkedHashMap<>();
    /** Pod UID → why its last interface lookup failed; a pod is counted once per reason, not per retry. */
    private final Map<String, PodInterfaces.Failure> lookupFailed = new TreeMap<>();
    /** pending's size, for the metrics scrape (which must not wait for a wire call holding the lock). */
    private volatile int pendingCount;
    private final AtomicLongArray lookupFailures = new AtomicLongArray(PodInterfaces.Failure.values().length);
    private ScheduledExecutorService repair;

    /**
     * Creates the wiring.
     *
     * @param ovs the bridge's SID wiring
     * @param interfaces finds a pod's host-side interface
     * @param uplink the NIC facing a pod's switch port
     * @param dryRun look up and report, never call OVS
     */
    public OvsPodWiring(OvsSidWiring ovs, PodInterfaces interfaces, Function<ReplicaPod, String> uplink,
                        boolean dryRun) {
        this.ovs = ovs;
        this.interfaces = interfaces;
        this.uplink = uplink;
        this.dryRun = dryRun;
    }

    /**
     * The wiring a config asks for: its bridge on the host's OVS (or the configured run
     * directory), pod interfaces looked up by netlink, a dry run in recommend mode.
     *
     * @param c validated config with {@code wiring} set
     * @return the wiring (repair not started)
     */
    public static OvsPodWiring of(AgentConfig c) {
        AgentConfig.Wiring w = c.wiring;
        OvsCommands cmds = new OvsCommands(null, w.ovsRunDir == null ? null : Path.of(w.ovsRunDir),
                Duration.ofSeconds(w.ovsTimeoutS));
        String fallback = w.uplink != null ? w.uplink : c.iface;
        Map<String, String> uplinks = Map.copyOf(w.uplinks);
        return new OvsPodWiring(new OvsSidWiring(cmds, w.bridge, w.datapathType),
                new PodInterfaces(w.podInterface), pod -> {
                    String nic = uplinks.getOrDefault(pod.switchDevice() + "/" + pod.switchPort(), fallback);
                    if (nic == null) {
                        throw new IllegalArgumentException("no uplink NIC for switch port " + pod.switchDevice()
                                + "/" + pod.switchPort() + " (wiring.uplinks)");
                    }
                    return nic;
                }, c.mode == AgentConfig.Mode.RECOMMEND);
    }

    @Override
    public synchronized void wire(ReplicaPod pod) throws IOException {
        pending.put(pod.uid(), pod); // until it succeeds: the repair thread tries again
        pendingCount = pending.size();
        String hostIf;
        try {
            hostIf = interfaces.hostSide(pod.networkStatus());
        } catch (PodInterfaces.LookupException e) {
            if (lookupFailed.put(pod.uid(), e.failure()) != e.failure()) {
                lookupFailures.incrementAndGet(e.failure().ordinal());
            }
            throw e;
        }
        lookupFailed.remove(pod.uid());
        String nic = uplink.apply(pod);
        String what = "SID " + pod.sid() + " -> " + hostIf + " (" + interfaces.podInterface() + " of "
                + pod.namespace() + "/" + pod.name() + ") via " + nic;
        if (dryRun) {
            LOG.info("would wire {} (recommend mode: OVS untouched)", what);
        } else {
            OvsSidWiring.Reconciled r = ovs.wire(pod.sid(), hostIf, nic);
            if (r.broken().containsKey(hostIf) || r.broken().containsKey(nic)) {
                throw new OvsException("wired " + what + " but OVS cannot use " + r.broken());
            }
            LOG.info("wired {} ({})", what, r);
        }
        pending.remove(pod.uid());
        pendingCount = pending.size();
        synchronized (wired) {
            wired.put(pod.uid(), what);
        }
    }

    @Override
    public synchronized void unwire(ReplicaPod pod) throws OvsException {
        pending.remove(pod.uid());
        pendingCount = pending.size();
        lookupFailed.remove(pod.uid());
        try {
            if (dryRun) {
                LOG.info("would unwire SID {} of {}/{} (recommend mode: OVS untouched)", pod.sid(), pod.namespace(),
                        pod.name());
            } else {
                LOG.info("unwired SID {} of {}/{} ({})", pod.sid(), pod.namespace(), pod.name(),
                        ovs.unwire(pod.sid()));
            }
        } finally {
            synchronized (wired) { // the SID is unwanted even if OVS failed: the repair removes its rules
                wired.remove(pod.uid());
            }
        }
    }

    /**
     * What is wired now (or would be, in a dry run).
     *
     * @return pod UID → description
     */
    public Map<String, String> wired() {
        synchronized (wired) {
            return Map.copyOf(wired);
        }
    }

    /**
     * The bridge's wiring (its counters: errors, rules added and removed).
     *
     * @return wiring
     */
    public OvsSidWiring sidWiring() {
        return ovs;
    }

    /**
     * Whether OVS is left untouched.
     *
     * @return true in a dry run
     */
    public boolean dryRun() {
        return dryRun;
    }

    /**
     * Starts reconciling at a fixed interval; call once the pods found at start are wired
     * (a reconciliation before would remove their rules until they are wired again).
     * In a dry run only the interface lookups of pending pods are retried.
     *
     * @param intervalMs interval, ms (0: never)
     */
    public synchronized void startRepair(long intervalMs) {
        if (intervalMs <= 0 || repair != null) {
            return;
        }
        repair = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "ovs-repair");
            t.setDaemon(true);
            return t;
        });
        repair.scheduleWithFixedDelay(this::repair, 0, intervalMs, TimeUnit.MILLISECONDS);
    }

    /**
     * One repair: wires the pods whose wiring failed, then makes OVS hold what is wanted.
     */
    public synchronized void repair() {
        for (ReplicaPod p : List.copyOf(pending.values())) {
            try {
                wire(p);
            } catch (Exception e) {
                LOG.debug("wiring {} still fails: {}", p, e.getMessage());
            }
        }
        if (!dryRun) {
            try {
                OvsSidWiring.Reconciled r = ovs.reconcile();
                if (r.added() + r.removed() + r.portsRemoved() > 0 || !r.broken().isEmpty()) {
                    LOG.warn("OVS repaired: {}", r);
                }
            } catch (OvsException | RuntimeException e) {
                LOG.warn("OVS reconciliation failed: {}", e.getMessage());
            }
        }
    }

    /**
     * Pods whose wiring failed and is retried by each repair.
     *
     * @return count
     */
    public synchronized int pending() {
        return pending.size();
    }

    /**
     * Interface lookups that failed, by reason; each pod counted once per reason (the
     * repair's retries of the same failure are not counted again).
     *
     * @param f reason
     * @return count
     */
    public long lookupFailures(PodInterfaces.Failure f) {
        return lookupFailures.get(f.ordinal());
    }

    @Override
    public void render(StringBuilder sb) {
        sb.append("# HELP srv6int_node_wiring_lookup_failures_total pods whose host-side interface was not found, "
                + "by reason (a pod counted once per reason)\n"
                + "# TYPE srv6int_node_wiring_lookup_failures_total counter\n");
        for (PodInterfaces.Failure f : PodInterfaces.Failure.values()) {
            sb.append("srv6int_node_wiring_lookup_failures_total{reason=\"").append(f.label()).append("\"} ")
                    .append(lookupFailures(f)).append('\n');
        }
        sb.append("# HELP srv6int_node_wiring_pending_pods managed pods not wired yet (retried by the repair)\n"
                + "# TYPE srv6int_node_wiring_pending_pods gauge\n");
        sb.append("srv6int_node_wiring_pending_pods ").append(pendingCount).append('\n');
    }

    @Override
    public synchronized void close() {
        if (repair != null) {
            repair.shutdownNow();
            repair = null;
        }
    }
}
