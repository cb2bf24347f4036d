// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.dataplane;

import java.util.function.Supplier;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.Link;
import org.onosproject.net.PortNumber;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.group.Group;

/**
 * Emulated switches: a Java interpreter of the SRv6-INT P4 program (p4src/) per switch,
 * executing the PI flow rules and groups the app installs — same tables, match kinds,
 * actions and defaults (docs/p4-tables.md), same registers and drop counter — and
 * carrying frames across the topology's links. The SRv6-INT header rewrites are the
 * codec's reference behaviours, the ones the golden vectors come from.
 *
 * <p>Inter-switch links come from the constructor; every other port (hosts, vNF
 * servers, the collector, the CPU as {@link PortNumber#CONTROLLER}) is an edge port
 * where frames leave the fabric. The action selector of {@code srv6_encap} picks a
 * member by weight with a documented hash of the flow ({@link SwitchProgram#mix}) —
 * not BMv2's CRC-16, so a given flow may take another member than on BMv2, but every
 * flow keeps one member and flows spread by weight. Timestamps are the
 * {@code nowNanos} given to {@link #inject}, in ns (BMv2's clock ticks in µs); queues
 * are empty (Q_ID and Q_Length 0). {@code inject} does not log and allocates only the
 * frames it makes. Thread-safe (calls are serialised).
 */
public final class EmulatedDataplane implements Dataplane {

    /** More switch traversals than this for one injected frame is a forwarding loop. */
    static final int MAX_TRAVERSALS = 256;

    private final Map<ConnectPoint, ConnectPoint> links = new HashMap<>();
    private final Map<DeviceId, EmulatedSwitch> switches = new HashMap<>();
    private long loopDrops;

    /**
     * Creates the switches of a topology, with empty tables.
     *
     * @param links directed inter-switch links (both directions of each cable); the devices
     *              at their ends are the switches; more switches appear when programmed
     * @throws IllegalArgumentException if a port has two peers
     */
    public EmulatedDataplane(Collection<Link> links) {
        for (Link l : links) {
            ConnectPoint prev = this.links.put(l.src(), l.dst());
            if (prev != null && !prev.equals(l.dst())) {
                throw new IllegalArgumentException("port " + l.src() + " links to " + prev + " and " + l.dst());
            }
            switches.computeIfAbsent(l.src().deviceId(), EmulatedSwitch::new);
            switches.computeIfAbsent(l.dst().deviceId(), EmulatedSwitch::new);
        }
    }

    @Override
    public synchronized void program(DeviceId device, Collection<FlowRule> rules, Collection<Group> groups) {
        Objects.requireNonNull(device, "device");
        EmulatedSwitch s = switches.computeIfAbsent(device, EmulatedSwitch::new);
        s.program(SwitchProgram.compile(device, rules, groups, s.program()));
    }

    @Override
    public synchronized List<Frame> inject(DeviceId device, PortNumber port, byte[] frame, long nowNanos) {
        EmulatedSwitch first = switches.get(device);
        if (first == null) {
            throw new IllegalArgumentException("no switch " + device + " (not in the topology, never programmed)");
        }
        Router r = new Router();
        r.queue.add(new Pending(first, portOf(port), frame.clone(), frame.length));
        int traversals = 0;
        while (!r.queue.isEmpty()) {
            Pending p = r.queue.poll();
            if (++traversals > MAX_TRAVERSALS) {
                loopDrops += 1 + r.queue.size();
                break;
            }
            r.at = p.sw;
            p.sw.process(p.port, p.frame, p.len, nowNanos, r);
        }
        return r.out;
    }

    private static int portOf(PortNumber port) {
        if (port.equals(PortNumber.CONTROLLER)) {
            return P4Tables.CPU_PORT;
        }
        long n = port.toLong();
        if (n < 0 || n > 511 || n == P4Tables.CPU_PORT) {
            throw new IllegalArgumentException("port " + port + " is not a 9-bit data port of the P4 program");
        }
        return (int) n;
    }

    /**
     * Returns a cell of a switch's drop counter ({@code Srv6IntIngress.drop_reasons}).
     *
     * @param device switch
     * @param reason cell
     * @return packets dropped for that reason since the switch was created
     */
    public synchronized long drops(DeviceId device, DropReason reason) {
        EmulatedSwitch s = switches.get(device);
        return s == null ? 0 : s.drops(reason);
    }

    /**
     * Returns the last vNF latency a switch measured for one of its vNFs (the
     * {@code vnf_latency} register, what it stamps as Detection Result next).
     *
     * @param device switch
     * @param vnfId  vNF id of the my_sid entry
     * @return ns, 0 before the first measurement
     */
    public synchronized long vnfLatency(DeviceId device, int vnfId) {
        EmulatedSwitch s = switches.get(device);
        return s == null ? 0 : s.vnfLatency(vnfId);
    }

    /**
     * Returns how many INT reports a switch has made (its next report's Sequence Number).
     *
     * @param device switch
     * @return reports
     */
    public synchronized long reports(DeviceId device) {
        EmulatedSwitch s = switches.get(device);
        return s == null ? 0 : s.reportsSent();
    }

    /**
     * Returns how many extra passes a switch gave frames of one chain whose next
     * segment was again one of its SIDs ({@code local_sid_recirculations}).
     *
     * @param device   switch
     * @param chainTag SRH Tag of the chain
     * @return passes
     */
    public synchronized long localRecirculations(DeviceId device, int chainTag) {
        EmulatedSwitch s = switches.get(device);
        return s == null ? 0 : s.localRecirculations(chainTag);
    }

    /**
     * Returns the direct counter of a switch's table entry, as the P4Runtime driver reads it with
     * the entry (ONOS's {@code FlowEntry.packets()} and {@code bytes()} after a flow-stats poll).
     * Every table of the P4 program has one; an entry keeps it across reprogramming while the
     * rule stays (a modified action included).
     *
     * @param device switch
     * @param rule   the installed rule (equal: table, match, priority)
     * @return {packets, bytes}, or null if the switch has no such entry
     */
    public synchronized long[] counter(DeviceId device, FlowRule rule) {
        EmulatedSwitch s = switches.get(device);
        return s == null ? null : s.counter(rule);
    }

    /**
     * Runs something whose frames the switches' direct counters do not count: the twin's probe
     * flows ({@code PathTracer}), which stand for no traffic of the network.
     *
     * @param what the probing
     * @param <T>  its result
     * @return its result
     */
    public synchronized <T> T uncounted(Supplier<T> what) {
        switches.values().forEach(s -> s.counting = false);
        try {
            return what.get();
        } finally {
            switches.values().forEach(s -> s.counting = true);
        }
    }

    /**
     * Returns the frames given up because one injection exceeded {@value #MAX_TRAVERSALS}
     * switch traversals (a forwarding loop in the installed rules).
     *
     * @return frames
     */
    public synchronized long loopDrops() {
        return loopDrops;
    }

    @Override
    public void close() {
        // Nothing to release: the switches are plain objects.
    }

    /** Sends what a switch emits over a link to the next switch, or out of the fabric. */
    private final class Router implements EmulatedSwitch.Sink {
        final List<Frame> out = new ArrayList<>(2);
        final ArrayDeque<Pending> queue = new ArrayDeque<>(4);
        EmulatedSwitch at;

        @Override
        public void emit(int egress, byte[] bytes, int len) {
            PortNumber pn = egress == P4Tables.CPU_PORT ? PortNumber.CONTROLLER : PortNumber.portNumber(egress);
            ConnectPoint peer = links.get(new ConnectPoint(at.device, pn));
            if (peer == null) {
                out.add(new Frame(at.device, pn, bytes.length == len ? bytes : Arrays.copyOf(bytes, len)));
            } else {
                queue.add(new Pending(switches.get(peer.deviceId()), portOf(peer.port()), bytes, len));
            }
        }
    }

    /** A frame waiting to enter a switch. */
    private static final class Pending {
        final EmulatedSwitch sw;
        final int port;
        final byte[] frame;
        final int len;

        Pending(EmulatedSwitch sw, int port, byte[] frame, int len) {
            this.sw = sw;
            this.port = port;
            this.frame = frame;
            this.len = len;
        }
    }
}
