// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.control;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import org.onlab.packet.Ip6Address;
import org.onosproject.net.DeviceId;
import org.srv6int.app.api.model.SegmentList;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.api.model.VnfReplicaId;
import org.srv6int.app.config.Srv6DeviceConfig;
import org.srv6int.app.config.Srv6Devices;
import org.srv6int.app.api.model.CollectorCounters;
import org.srv6int.app.telemetry.CollectorBindings;
import org.srv6int.app.telemetry.TelemetryEngine;
import org.srv6int.app.telemetry.TelemetryManager;
import org.srv6int.app.telemetry.SummaryExchange;
import org.srv6int.app.telemetry.TelemetryShards;
import org.srv6int.app.api.model.TelemetrySnapshot;
import org.srv6int.app.telemetry.UdpCollector;
import org.srv6int.codec.IntMetadata;
import org.srv6int.codec.IntReportEncoder;
import org.srv6int.codec.Srv6IntEncap;
import org.srv6int.codec.Srv6IntPacketView;
import org.srv6int.codec.WireFormat;
import org.srv6int.twin.model.Fabric;
import org.srv6int.twin.model.IntSample;
import org.srv6int.twin.model.VnfInstance;

/**
 * The app's INT collector over a real UDP socket: every INT-sampled packet of the model becomes
 * a report datagram, encoded with the project codec exactly as the egress switch's End.DT.INT
 * clone would carry it (report header, mirrored frame with the SRH of the chain's segment list
 * and one INT metadata entry per SID: Device_ID, In_Time, vNF_Latency, Port_Counter), sent
 * from the egress switch's report address on loopback to the app's {@link UdpCollector}, whose
 * {@link TelemetryEngine} runs on the simulated clock.
 *
 * <p>Determinism: the sender never has more than {@link #maxOutstanding()} datagrams unread in
 * the collector's socket buffer, and {@link #window()} closes a telemetry window only once the
 * engine has counted every datagram sent. A datagram the kernel still drops is waited for at
 * most {@link #LOSS_WAIT_MS} of wall time, then counted as lost ({@link #lostOnSocket()}) and
 * reported in summary.json: such a run is not guaranteed to repeat.
 *
 * <p>Delivery: by default each report's bytes go straight to the master instance's engine, on
 * the caller's thread, through the entry point its {@link UdpCollector} receive thread calls
 * ({@code TelemetryEngine.onReport} with the sender's IPv4 address as that thread passes it): the
 * same reports in the same order, every one counted before a window closes, as over the socket,
 * without a loopback send and a thread wake-up per report (most of a run's system time, docs/twin.md
 * "Keeping the twin fast"). {@code -Dsrv6int.twin.collector=udp} sends them over the loopback
 * socket to the collector's receive thread instead.
 */
public final class TwinCollector implements Fabric.IntSink, AutoCloseable {
    /** Requested SO_RCVBUF of the collector (the kernel caps it at net.core.rmem_max). */
    static final int RECEIVE_BUFFER = 4 << 20;
    /** Kernel memory one small loopback datagram costs in a socket buffer, bytes (conservative). */
    static final int DATAGRAM_TRUESIZE = 2304;
    /** Wall time without progress after which missing datagrams count as lost. */
    public static final long LOSS_WAIT_MS = 2000;
    /** System property: {@code udp} sends the reports over the loopback socket (default: direct). */
    public static final String DELIVERY_PROPERTY = "srv6int.twin.collector";

    private final AppControl control;
    private final List<TelemetryShards> engines = new ArrayList<>();
    private final List<UdpCollector> collectors = new ArrayList<>();
    private final Map<String, byte[]> summaries = new LinkedHashMap<>();
    private final DatagramChannel sender;
    private int master;
    private int leader;
    private final IntReportEncoder encoder;
    private final int maxOutstanding;
    private final Srv6Devices devices;
    private final LongSupplier clockNanos;
    private final Map<SegmentList, PathCodec> codecs = new HashMap<>();
    private final Map<String, int[]> portCounters = new HashMap<>();
    private final byte[] frame = new byte[2048];
    private final byte[] payload = new byte[4096];
    private final ByteBuffer out = ByteBuffer.wrap(payload);
    private final Srv6IntPacketView view = new Srv6IntPacketView();
    private final byte[] inner;
    private long sequence;
    private long sent;
    // datagrams the collector had counted when last asked (never more than it has now)
    private long receivedSeen;
    private final boolean overUdp = "udp".equals(System.getProperty(DELIVERY_PROPERTY, "direct"));
    // the sender's address as the receive thread hands it to the engine (Inet4Address.hashCode())
    private final int senderAddress;
    private long lost;
    private final List<CollectorBindings> binders = new ArrayList<>();

    /** Per segment list: the encapsulation and each hop's Device_ID and Port_Counter key. */
    private static final class PathCodec {
        final Srv6IntEncap encap;
        final int[] device;
        final String[] counterKey;

        PathCodec(Srv6IntEncap encap, int[] device, String[] counterKey) {
            this.encap = encap;
            this.device = device;
            this.counterKey = counterKey;
        }
    }

    /**
     * Binds the collector on 127.0.0.1 and the egress switch's sender on its report address.
     *
     * @param control    the app core (chains, segment lists, replicas, netcfg)
     * @param clockNanos the simulated clock, ns
     * @throws UncheckedIOException if a socket cannot be opened
     */
    public TwinCollector(AppControl control, LongSupplier clockNanos) {
        this(control, clockNanos, 1);
    }

    /**
     * Binds one collector per ONOS instance on 127.0.0.1 and the egress switch's sender on its
     * report address; the switch reports to its master's collector (instance 0 at first).
     *
     * @param control    the app core (chains, segment lists, replicas, netcfg)
     * @param clockNanos the simulated clock, ns
     * @param instances  ONOS instances, each with its own collector
     * @throws UncheckedIOException if a socket cannot be opened
     */
    public TwinCollector(AppControl control, LongSupplier clockNanos, int instances) {
        this.control = control;
        this.devices = control.app().config.devices();
        this.clockNanos = clockNanos;
        for (int i = 0; i < instances; i++) {
            engines.add(new TelemetryShards(1, TelemetryManager.limits(control.app().config.appConfig()), clockNanos));
            binders.add(new CollectorBindings());
        }
        Srv6DeviceConfig egress = device(control.topology().egress().deviceId());
        this.encoder = IntReportEncoder.builder().reporterDeviceId(egress.intDeviceId())
                .maxMirrorLength(control.app().config.appConfig().orElseThrow().truncateBytes()).build();
        inner = new byte[28];
        inner[0] = 0x45;
        inner[3] = 28;
        inner[8] = 64;
        inner[9] = 17;
        try {
            for (TelemetryShards e : engines) {
                collectors.add(new UdpCollector(e, 1, new InetSocketAddress("127.0.0.1", 0), RECEIVE_BUFFER));
            }
            DatagramChannel ch = DatagramChannel.open(StandardProtocolFamily.INET);
            try {
                String from = egress.reportAddress().orElseThrow(
                        () -> new IllegalStateException("egress switch has no reportAddress")).toString();
                ch.bind(new InetSocketAddress(from, 0));
            } catch (IOException | RuntimeException e) {
                ch.close();
                collectors.forEach(UdpCollector::close);
                throw e;
            }
            sender = ch;
            senderAddress = ((InetSocketAddress) ch.getLocalAddress()).getAddress().hashCode();
            maxOutstanding = outstandingLimit();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the collector's loopback sockets", e);
        }
        control.onProgrammed(this::rebind);
        rebind();
    }

    /** How many datagrams fit the collector's socket buffer as the kernel granted it. */
    private static int outstandingLimit() throws IOException {
        try (DatagramChannel probe = DatagramChannel.open(StandardProtocolFamily.INET)) {
            probe.setOption(StandardSocketOptions.SO_RCVBUF, RECEIVE_BUFFER);
            int granted = probe.getOption(StandardSocketOptions.SO_RCVBUF);
            return Math.max(8, Math.min(4096, granted / DATAGRAM_TRUESIZE / 2));
        }
    }

    private Srv6DeviceConfig device(DeviceId d) {
        return devices.get(d).orElseThrow(() -> new IllegalStateException(d + " has no srv6int netcfg"));
    }

    /** Datagrams the sender lets be in flight before it waits for the collector. */
    public int maxOutstanding() {
        return maxOutstanding;
    }

    /** Report datagrams sent. */
    public long sent() {
        return sent;
    }

    /** Datagrams sent that the collector never received (counted after {@link #LOSS_WAIT_MS}). */
    public long lostOnSocket() {
        return lost;
    }

    /** The collectors' counters, all instances. */
    public CollectorCounters counters() {
        List<CollectorCounters> all = new ArrayList<>();
        for (TelemetryShards e : engines) {
            all.add(e.counters());
        }
        return CollectorCounters.sum(all);
    }

    /**
     * Returns one instance's collector counters.
     *
     * @param instance index
     * @return counters
     */
    public CollectorCounters counters(int instance) {
        return engines.get(instance).counters();
    }

    /**
     * Moves the egress switch's mastership: its report configuration names the new master's
     * collector from the next report on; the old master counts late reports as notMaster.
     *
     * @param instance the new master
     */
    public void moveMastership(int instance) {
        drain();
        master = instance;
        rebind();
    }

    /**
     * Moves the loop's leadership: {@link #window()} returns the new leader's (cluster) window.
     *
     * @param instance the new leader
     */
    public void moveLeadership(int instance) {
        leader = instance;
    }

    private static String node(int i) {
        return "onos-" + (i + 1);
    }

    /**
     * Allow-list and hop bindings from the netcfg and the app's current segment lists, through
     * the app's own {@link CollectorBindings} (as its TelemetryManager binds): every switch's
     * reports are the master instance's, the others drop them (notMaster).
     */
    private void rebind() {
        drain();
        codecs.clear();
        List<String> refusedAll = List.of();
        for (int i = 0; i < engines.size(); i++) {
            boolean local = i == master;
            refusedAll = binders.get(i).apply(engines.get(i), devices, d -> !local,
                                              control.app().pathManager.getAllPaths().values(),
                                              control.app().inventory::getReplica);
        }
        for (String refused : refusedAll) {
            control.events().add(String.format(Locale.ROOT, "%.1f s: collector refuses the hop "
                    + "bindings of %s", clockNanos.getAsLong() / 1e9, refused));
        }
    }

    @Override
    public void onIntSample(IntSample s) {
        SegmentList sl = control.segmentList(s.chain(), hops(s));
        if (sl == null) {
            throw new IllegalStateException("INT sample of " + s.chain() + " on a path without segment list");
        }
        PathCodec pc = codecs.computeIfAbsent(sl, this::codec);
        int hops = pc.device.length;
        int step = control.fabric().intSampling();
        long t0 = s.ingressNs();
        int len = pc.encap.encapsulate(inner, 0, inner.length, 0x0000000000fe0001L, 0x0000000000fe0002L, true,
                pc.device[0], 0, 0, t0, counter(pc.counterKey[0], step), frame, 0);
        if (len < 0 || !view.wrap(frame, 0, len).isOk()) {
            throw new IllegalStateException("codec rejects the twin's report frame");
        }
        // As the path leaves it: every endpoint wrote its entry, the egress consumed the last SID.
        frame[view.srhOffset() + 3] = 0;
        long vnfTotal = 0;
        for (int k = 0; k < s.hopCount(); k++) {
            vnfTotal += s.vnfLatencyNs(k);
        }
        // Network time spread evenly over the links between the SIDs.
        long netPerLeg = Math.max(0, (s.e2eNs() - vnfTotal) / (hops - 1));
        long t = t0;
        for (int h = 1; h < hops; h++) {
            long vnf = h - 1 < s.hopCount() ? s.vnfLatencyNs(h - 1) : 0;
            t += netPerLeg + vnf;
            long inTime = h == hops - 1 ? t0 + s.e2eNs() : t;
            IntMetadata.write(frame, view.metadataOffset(h), WireFormat.MAP_ALL, pc.device[h], 0, 0, inTime,
                    IntMetadata.saturate32(vnf), counter(pc.counterKey[h], step));
        }
        int n = encoder.encodePayload(sequence++, t0 + s.e2eNs(), frame, 0, len, payload, 0);
        if (n < 0) {
            throw new IllegalStateException("report encoding failed");
        }
        if (!overUdp) {
            engines.get(master).shard(0).onReport(payload, 0, n, senderAddress);
            sent++;
            return;
        }
        out.clear().limit(n);
        try {
            sender.send(out, collectors.get(master).localAddress());
        } catch (IOException e) {
            throw new UncheckedIOException("sending a report to the collector failed", e);
        }
        sent++;
        // the collector's count only grows: ask it again only when the last answer says full
        if (sent - receivedSeen >= maxOutstanding) {
            receivedSeen = received();
            if (sent - receivedSeen >= maxOutstanding) {
                drain();
            }
        }
    }

    private static VnfInstance[] hops(IntSample s) {
        VnfInstance[] h = new VnfInstance[s.hopCount()];
        for (int k = 0; k < h.length; k++) {
            h[k] = s.hop(k);
        }
        return h;
    }

    /**
     * Port_Counter of a hop: packets of the chain this switch saw at this hop, mod 2^16 (two
     * replicas behind one switch at one hop share it, as on the switch). Each INT sample stands
     * for {@link Fabric#INT_SAMPLING} packets of its path (the chain samples 1 in that).
     */
    private int counter(String key, int step) {
        int[] c = portCounters.computeIfAbsent(key, k -> new int[1]);
        c[0] = (c[0] + step) & 0xFFFF;
        return c[0];
    }

    private PathCodec codec(SegmentList sl) {
        List<Ip6Address> segs = sl.segments();
        List<byte[]> path = new ArrayList<>();
        for (int i = 1; i < segs.size(); i++) {
            path.add(segs.get(i).toOctets());
        }
        Sfc sfc = control.app().sfcs.getSfc(sl.replicas().get(0).vnf().sfcId()).orElseThrow();
        Srv6IntEncap encap = Srv6IntEncap.builder().ingressSid(segs.get(0).toOctets()).path(path)
                .tag(sfc.id().tag()).sfcMode(true).mapInfo(WireFormat.MAP_ALL).build();
        int[] dev = new int[segs.size()];
        String[] key = new String[segs.size()];
        dev[0] = device(sfc.ingress().deviceId()).intDeviceId();
        key[0] = sfc.id() + "/in";
        dev[segs.size() - 1] = device(sfc.egress().deviceId()).intDeviceId();
        key[segs.size() - 1] = sfc.id() + "/out";
        for (VnfReplicaId id : sl.replicas()) {
            VnfReplica r = control.app().inventory.getReplica(id).orElseThrow();
            int h = segs.indexOf(r.sid());
            dev[h] = device(r.deviceId()).intDeviceId();
            // The switch counts the chain's packets it sees at that hop, whichever replica served them.
            key[h] = sfc.id() + "/" + h + "/" + dev[h];
        }
        return new PathCodec(encap, dev, key);
    }

    private long received() {
        long n = 0;
        for (TelemetryShards e : engines) {
            n += e.counters().datagrams();
        }
        return n;
    }

    /** Waits until the collector has counted every datagram sent (or gives the rest up as lost). */
    public void drain() {
        long seen = received();
        long lastProgress = System.nanoTime();
        int spins = 0;
        while (seen + lost < sent) {
            if (++spins < 200) {
                Thread.onSpinWait();
            } else {
                LockSupport.parkNanos(20_000);
            }
            long now = received();
            if (now != seen) {
                seen = now;
                lastProgress = System.nanoTime();
            } else if (System.nanoTime() - lastProgress > TimeUnit.MILLISECONDS.toNanos(LOSS_WAIT_MS)) {
                lost = sent - seen;
            }
        }
    }

    /**
     * Closes the current telemetry window once every report sent has been counted.
     *
     * @return the window
     */
    public TelemetrySnapshot window() {
        drain();
        if (engines.size() == 1) {
            return engines.get(0).roll();
        }
        // Every instance closes its window and publishes its summary; the leader's, closed last,
        // holds the whole cluster's (as each instance's TelemetryManager does in ONOS).
        TelemetrySnapshot out = null;
        for (int k = 1; k <= engines.size(); k++) {
            int i = (leader + k) % engines.size();
            TelemetrySnapshot s = engines.get(i).roll(exchange(i));
            if (i == leader) {
                out = s;
            }
        }
        return out;
    }

    private SummaryExchange exchange(int instance) {
        return new SummaryExchange() {
            @Override
            public String localNode() {
                return node(instance);
            }

            @Override
            public long nowMillis() {
                return clockNanos.getAsLong() / 1_000_000;
            }

            @Override
            public long staleAfterMillis() {
                return 3 * control.app().config.appConfig().orElseThrow().evaluationPeriodMillis();
            }

            @Override
            public List<byte[]> exchange(byte[] local) {
                summaries.put(node(instance), local);
                return new ArrayList<>(summaries.values());
            }
        };
    }

    @Override
    public void close() {
        try {
            sender.close();
        } catch (IOException e) {
            // Nothing left to send; the collector closes below either way.
        }
        collectors.forEach(UdpCollector::close);
    }
}
