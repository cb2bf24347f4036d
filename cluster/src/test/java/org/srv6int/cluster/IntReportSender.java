// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import org.onosproject.net.DeviceId;
import org.srv6int.app.config.Srv6DeviceConfig;
import org.srv6int.app.telemetry.HopBinding;
import org.srv6int.app.telemetry.HopBindings;
import org.srv6int.app.testing.AppHarness;
import org.srv6int.app.testing.PaperTestbed;
import org.srv6int.app.testing.TestReports;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.DatagramChannel;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import static org.junit.Assert.assertTrue;

/**
 * The four switches' INT reports of SFC 2, 50 per second each, to the collector of the switch's
 * master as the live members last told (a switch re-pointed when its master moves); counts what it
 * sent to each member, and to each member per switch. Each switch sends from its own address (the
 * collector knows a switch by its report source address, netcfg {@code reportAddress}).
 */
final class IntReportSender extends Thread {
    private final MemberProcesses cluster;
    private final Map<String, InetSocketAddress> collectors;
    private final Map<String, AtomicLong> sent = new ConcurrentHashMap<>();
    // member -> switch -> reports sent
    private final Map<String, Map<DeviceId, AtomicLong>> sentBySwitch = new ConcurrentHashMap<>();
    final Map<DeviceId, String> masters = new ConcurrentHashMap<>();
    private final Map<DeviceId, Long> seqs = new HashMap<>();
    private final Map<DeviceId, DatagramChannel> switches = new HashMap<>();
    private final Map<Integer, HopBinding> hops = new TreeMap<>();
    volatile long latencyNs;
    private volatile boolean running = true;
    // held while the test reads sent and accepted counts together
    private final Object quiet = new Object();
    private final AppHarness local = new AppHarness();

    /**
     * A sender (not started).
     *
     * @param cluster       the members (their views tell the masters)
     * @param collectors    each member's INT collector address
     * @param reportAddress each switch's report source address
     * @param latencyNs     the latency the reports carry at Snort's hop until changed
     * @throws Exception if a switch's socket cannot be bound
     */
    IntReportSender(MemberProcesses cluster, Map<String, InetSocketAddress> collectors,
                    Function<DeviceId, String> reportAddress, long latencyNs) throws Exception {
        super("clo-int-sender");
        setDaemon(true);
        this.cluster = cluster;
        this.collectors = collectors;
        this.latencyNs = latencyNs;
        collectors.keySet().forEach(id -> {
            sent.put(id, new AtomicLong());
            Map<DeviceId, AtomicLong> per = new ConcurrentHashMap<>();
            PaperTestbed.SWITCHES.forEach(d -> per.put(d, new AtomicLong()));
            sentBySwitch.put(id, per);
        });
        // the hop layout of SFC 2 as every member computes it from the same chains and netcfg
        local.deployFig5();
        local.settle();
        for (HopBinding b : HopBindings.of(local.pathManager.getAllPaths().values(), local.inventory::getReplica,
                                           d -> PaperTestbed.devices().get(d).map(Srv6DeviceConfig::intDeviceId))) {
            if (b.chainTag() == PaperTestbed.SFC2.tag()) {
                hops.putIfAbsent(b.hop(), b);
            }
        }
        for (DeviceId d : PaperTestbed.SWITCHES) {
            switches.put(d, DatagramChannel.open().bind(new InetSocketAddress(reportAddress.apply(d), 0)));
        }
        refreshMasters();
    }

    /**
     * Takes the masters from the first live member whose session is connected and that names a
     * master for every device (a member cut off from the majority reads every device masterless);
     * failing that, the known masters of the first connected one.
     */
    void refreshMasters() {
        JsonNode partial = null;
        for (String id : cluster.ids()) {
            if (!cluster.alive(id)) {
                continue;
            }
            JsonNode s = cluster.status(id);
            if (s == null || !s.path("connected").asBoolean(true)) {
                continue;
            }
            boolean complete = s.path("masters").size() > 0;
            for (JsonNode m : s.path("masters")) {
                complete &= m.isTextual();
            }
            if (complete) {
                take(s);
                return;
            }
            partial = partial == null ? s : partial;
        }
        if (partial != null) {
            take(partial);
        }
    }

    private void take(JsonNode s) {
        for (Iterator<Map.Entry<String, JsonNode>> it = s.path("masters").fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getValue().isTextual()) {
                masters.put(DeviceId.deviceId(e.getKey()), e.getValue().asText());
            }
        }
    }

    @Override
    public void run() {
        int hopCount = ((TreeMap<Integer, HopBinding>) hops).lastKey() + 2;
        long lastRefresh = 0;
        while (running) {
            try {
                if (System.nanoTime() - lastRefresh > 200_000_000L) {
                    refreshMasters();
                    lastRefresh = System.nanoTime();
                }
                synchronized (quiet) {
                    sendRound(hopCount);
                }
                Thread.sleep(20);
            } catch (InterruptedException | ClosedByInterruptException e) {
                // stopped: an interrupt in the middle of a send closes the channel instead
                return;
            } catch (Exception e) {
                System.out.println("loopfaults: sender: " + e);
            }
        }
    }

    private void sendRound(int hopCount) throws Exception {
        for (DeviceId d : PaperTestbed.SWITCHES) {
            String to = masters.get(d);
            if (to == null) {
                continue;
            }
            int dev = PaperTestbed.devices().get(d).map(Srv6DeviceConfig::intDeviceId).orElseThrow();
            TestReports enc = new TestReports(PaperTestbed.SFC2.tag(), dev, hopCount);
            long seq = seqs.getOrDefault(d, 0L);
            int counter = (int) ((seq * 10) & 0xFFFF);
            TestReports.Hop[] h = new TestReports.Hop[hopCount];
            for (int k = 0; k < hopCount; k++) {
                HopBinding b = hops.get(k);
                long lat = b == null ? 0 : latencyNs;
                int hd = k == 0 ? 1 : b == null ? 4 : b.deviceId();
                h[k] = new TestReports.Hop(hd, 0, 1_000L * k + lat, lat, counter);
            }
            byte[] p = enc.payload(seq, h);
            seqs.put(d, seq + 1);
            switches.get(d).send(ByteBuffer.wrap(p), collectors.get(to));
            sent.get(to).incrementAndGet();
            sentBySwitch.get(to).get(d).incrementAndGet();
        }
    }

    /**
     * Sent and accepted counts per member read together: sending held until the datagrams in
     * flight are counted. A member that does not answer: -1 accepted.
     */
    Map<String, long[]> counts() throws InterruptedException {
        synchronized (quiet) {
            Thread.sleep(300);
            Map<String, long[]> m = new TreeMap<>();
            for (String id : cluster.ids()) {
                m.put(id, new long[] {sent.get(id).get(), cluster.alive(id) ? accepted(cluster, id) : -1});
            }
            return m;
        }
    }

    /** Reports sent so far to a member from one switch. */
    long sent(String id, DeviceId d) {
        return sentBySwitch.get(id).get(d).get();
    }

    /**
     * What each member's collector had accepted, what was sent to it from each switch, and whom
     * each switch was sending to, read together (sending held until the datagrams in flight are
     * counted).
     */
    Window window() throws InterruptedException {
        synchronized (quiet) {
            Thread.sleep(300);
            Window w = new Window(new LinkedHashMap<>(masters));
            for (String id : cluster.ids()) {
                w.accepted.put(id, accepted(cluster, id));
                Map<DeviceId, Long> per = new LinkedHashMap<>();
                sentBySwitch.get(id).forEach((d, n) -> per.put(d, n.get()));
                w.sent.put(id, per);
            }
            return w;
        }
    }

    /**
     * Whether member {@code x} has accepted, since {@code w0}, more reports than were sent to it
     * from the switches it was getting reports of at {@code w0}: then at least one report of a
     * switch re-pointed to it was accepted (its counter is read before the sent counts, so this
     * is never early).
     */
    boolean acceptedBeyondOwn(String x, Window w0) {
        long a = accepted(cluster, x);
        if (a < 0 || w0.accepted.get(x) < 0) {
            return false;
        }
        long own = 0;
        for (Map.Entry<DeviceId, String> e : w0.masters.entrySet()) {
            if (e.getValue().equals(x)) {
                own += sent(x, e.getKey()) - w0.sent.get(x).get(e.getKey());
            }
        }
        return a - w0.accepted.get(x) > own;
    }

    /**
     * Accepted/sent per member between two windows ("-" where a member did not answer), checked:
     * no member accepted more than was sent to it (nothing counted twice), and the members of
     * {@code bounded} together accepted at least {@code minShare} of what they were sent (a
     * liveness bound: reports that reach a new master before it sees itself master are counted
     * {@code notMaster} and dropped, by design).
     */
    static String acceptedOverSent(Window from, Window to, Collection<String> bounded, double minShare) {
        StringBuilder b = new StringBuilder();
        long boundedSent = 0;
        long boundedAccepted = 0;
        for (String id : to.accepted.keySet()) {
            long s = to.sent(id) - from.sent(id);
            long a = to.accepted.get(id) < 0 || from.accepted.get(id) < 0 ? -1
                    : to.accepted.get(id) - from.accepted.get(id);
            b.append(' ').append(id).append(' ').append(a < 0 ? "-" : String.valueOf(a)).append('/').append(s);
            assertTrue(id + " accepted " + a + " of " + s + " sent", a <= s);
            if (bounded.contains(id)) {
                boundedSent += s;
                boundedAccepted += Math.max(a, 0);
            }
        }
        assertTrue(bounded + " accepted " + boundedAccepted + " of " + boundedSent + " sent:" + b,
                   boundedAccepted >= boundedSent * minShare);
        return b.toString().trim();
    }

    /** Counts at one instant: see {@link #window()}. */
    static final class Window {
        final Map<DeviceId, String> masters;
        final Map<String, Long> accepted = new TreeMap<>();
        final Map<String, Map<DeviceId, Long>> sent = new TreeMap<>();

        Window(Map<DeviceId, String> masters) {
            this.masters = masters;
        }

        long sent(String id) {
            return sent.get(id).values().stream().mapToLong(Long::longValue).sum();
        }
    }

    void stopSending() throws Exception {
        running = false;
        interrupt();
        join(5000);
        for (DatagramChannel c : switches.values()) {
            c.close();
        }
    }

    /** Reports a member's collector accepted, -1 if it does not answer. */
    static long accepted(MemberProcesses cluster, String id) {
        JsonNode c = cluster.call(id, "GET", "/collector");
        return c == null ? -1 : c.path("counters").path("reportsAccepted").asLong();
    }
}
