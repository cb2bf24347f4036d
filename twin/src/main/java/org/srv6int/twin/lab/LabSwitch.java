// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.lab;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.pcap4j.core.PcapHandle;
import org.pcap4j.core.PcapNativeException;
import org.pcap4j.core.PcapNetworkInterface;
import org.srv6int.twin.dataplane.Dataplane;
import org.srv6int.twin.dataplane.DropReason;
import org.srv6int.twin.dataplane.EmulatedDataplane;

/**
 * The lab's switch (docs/lab.md): the twin's emulated switch ({@link EmulatedDataplane}, the P4
 * program's tables and behaviours) run as a process that forwards real frames between veths,
 * read and written with libpcap (pcap4j, as the BMv2 fabric does). It plays SW2 of the paper's
 * testbed: End.T.INT.SFC sends each frame to its vNF with the Detection Result stamped and
 * measures the vNF's latency when the frame comes back; the next segment is routed out of the
 * downstream port. It also records, per 100 ms, every vNF's latency samples as the switch
 * measured them (count, p50, p95, max) and the vNF's CPU quota read from its cgroup: the lab's
 * ground truth, independent of the node agent.
 *
 * <pre>
 * LabSwitch --port 1=labsw1 --port 2=labsw2 --port 3=labsw3o/labsw3i --vnf 1=fc00:0:2::f1@3
 *           [--cgroup 1=/sys/fs/cgroup/cpu/...] --csv switch.csv --seconds 60
 * </pre>
 * A port is {@code N=IFACE} or {@code N=TX/RX}: a vNF inline between two interfaces sends its
 * frames back on another veth, which the switch counts as the same port (the P4 program knows a
 * return by its ingress port).
 *
 * <p>The escalation scenario ({@link LabController}) runs it over the paper testbed's four
 * switches, programmed with the app's own rules: ports are then a switch's port each, and the
 * egress switch's report port goes to a sink in the process instead of an interface.
 */
public final class LabSwitch {

    /** SW2 of the paper's testbed. */
    static final DeviceId DEVICE = DeviceId.deviceId("of:0000000000000002");
    static final long BIN_NANOS = 100_000_000L;

    private final EmulatedDataplane dp;
    // the switch whose vNF latency register the bins read
    private final DeviceId vnfDevice;
    private final Map<ConnectPoint, PcapHandle> tx = new LinkedHashMap<>();
    private final Map<ConnectPoint, Consumer<byte[]>> sinks = new LinkedHashMap<>();
    private final List<Rx> rx = new ArrayList<>();
    private final Map<ConnectPoint, Integer> vnfOfPort = new LinkedHashMap<>();
    private final Map<Integer, Path> cgroups = new LinkedHashMap<>();
    private final Map<Integer, Bin> bins = new LinkedHashMap<>();
    private final AtomicBoolean stop = new AtomicBoolean();
    // one receive thread per port sends: counted across threads
    private final AtomicLong txErrors = new AtomicLong();
    private final AtomicLong forwarded = new AtomicLong();

    /** Latency samples of one vNF in the current bin. */
    private static final class Bin {
        long sent;
        long[] samples = new long[1024];
        int n;
        long lostToVnf;

        void add(long v) {
            if (n == samples.length) {
                samples = Arrays.copyOf(samples, n * 2);
            }
            samples[n++] = v;
        }
    }

    private static final class Rx {
        final ConnectPoint port;
        final String iface;
        final PcapHandle handle;

        Rx(ConnectPoint port, String iface, PcapHandle handle) {
            this.port = port;
            this.iface = iface;
            this.handle = handle;
        }
    }

    LabSwitch(EmulatedDataplane dp, DeviceId vnfDevice) {
        this.dp = dp;
        this.vnfDevice = vnfDevice;
    }

    /** A port of a switch: frames to it leave on {@code txIface}, frames from {@code rxIface} enter it. */
    void port(ConnectPoint port, String txIface, String rxIface) throws PcapNativeException {
        tx.put(port, open(txIface));
        rx.add(new Rx(port, rxIface, open(rxIface)));
    }

    /** A port whose frames go to a consumer in this process (the egress switch's report port). */
    void sink(ConnectPoint port, Consumer<byte[]> sink) {
        sinks.put(port, sink);
    }

    /** A vNF behind a port of {@code vnfDevice}, with its cgroup (null: none). */
    void vnf(ConnectPoint port, int vnfId, Path cgroup) {
        vnfOfPort.put(port, vnfId);
        bins.put(vnfId, new Bin());
        if (cgroup != null) {
            cgroups.put(vnfId, cgroup);
        }
    }

    private static PcapHandle open(String iface) throws PcapNativeException {
        return new PcapHandle.Builder(iface).snaplen(65536)
                .promiscuousMode(PcapNetworkInterface.PromiscuousMode.PROMISCUOUS)
                .timeoutMillis(1).immediateMode(true).bufferSize(8 << 20)
                .direction(PcapHandle.PcapDirection.IN).build();
    }

    private void receive(Rx r) {
        int vnf = vnfOfPort.getOrDefault(r.port, 0);
        PortNumber port = r.port.port();
        while (!stop.get()) {
            byte[] f;
            try {
                f = r.handle.getNextRawPacket();
            } catch (org.pcap4j.core.NotOpenException e) {
                return;
            }
            if (f == null) {
                continue;
            }
            long now = System.nanoTime();
            List<Dataplane.Frame> out;
            long latency;
            synchronized (this) {
                out = dp.inject(r.port.deviceId(), port, f, now);
                latency = vnf != 0 && !out.isEmpty() ? dp.vnfLatency(vnfDevice, vnf) : -1;
                if (latency >= 0) {
                    bins.get(vnf).add(latency);
                }
                for (Dataplane.Frame o : out) {
                    Integer to = vnfOfPort.get(new ConnectPoint(o.device(), o.port()));
                    if (to != null) {
                        bins.get(to).sent++;
                    }
                }
            }
            for (Dataplane.Frame o : out) {
                ConnectPoint at = new ConnectPoint(o.device(), o.port());
                Consumer<byte[]> sink = sinks.get(at);
                if (sink != null) {
                    sink.accept(o.bytes());
                    continue;
                }
                PcapHandle h = tx.get(at);
                try {
                    if (h == null) {
                        throw new PcapNativeException("no such port");
                    }
                    h.sendPacket(o.bytes());
                    forwarded.incrementAndGet();
                } catch (PcapNativeException | org.pcap4j.core.NotOpenException e) {
                    txErrors.incrementAndGet();
                }
            }
        }
    }

    private static double quotaCores(Path cg) {
        try {
            long q = Long.parseLong(Files.readString(cg.resolve("cpu.cfs_quota_us")).trim());
            long p = Long.parseLong(Files.readString(cg.resolve("cpu.cfs_period_us")).trim());
            return q < 0 ? -1 : (double) q / p;
        } catch (IOException | NumberFormatException e) {
            return Double.NaN;
        }
    }

    private void record(PrintWriter csv, long wallMs) {
        for (Map.Entry<Integer, Bin> e : bins.entrySet()) {
            Bin b;
            synchronized (this) {
                b = e.getValue();
                e.setValue(new Bin());
            }
            long[] s = Arrays.copyOf(b.samples, b.n);
            Arrays.sort(s);
            Path cg = cgroups.get(e.getKey());
            csv.printf("%d,%d,%d,%d,%.1f,%.1f,%.1f,%s%n", wallMs, e.getKey(), b.sent, b.n,
                    pct(s, 0.50) / 1e3, pct(s, 0.95) / 1e3, s.length == 0 ? 0 : s[s.length - 1] / 1e3,
                    cg == null ? "" : String.format("%.3f", quotaCores(cg)));
        }
        csv.flush();
    }

    /** Nearest-rank percentile of sorted samples (the agent's L95 rank), 0 if none. */
    static double pct(long[] sorted, double q) {
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length, rank) - 1)];
    }

    /** Stops forwarding. */
    void stop() {
        stop.set(true);
    }

    /** Forwards for {@code seconds} (or until {@link #stop()}), recording the bins to a CSV file. */
    void run(Path csvFile, double seconds) throws Exception {
        for (Rx r : rx) {
            Thread t = new Thread(() -> receive(r), "rx-" + r.iface);
            t.setDaemon(true);
            t.start();
        }
        System.err.println("lab switch: emulated switch (twin EmulatedSwitch, P4 program's tables) forwarding real"
                + " frames with libpcap; ports " + tx.keySet() + ", vNFs by port " + vnfOfPort);
        long end = System.nanoTime() + (long) (seconds * 1e9);
        try (PrintWriter csv = new PrintWriter(Files.newBufferedWriter(csvFile, StandardCharsets.UTF_8))) {
            csv.println("t_ms,vnf,sent_to_vnf,returned,p50_us,p95_us,max_us,quota_cores");
            long next = System.nanoTime() + BIN_NANOS;
            while (System.nanoTime() < end && !stop.get()) {
                long sleep = next - System.nanoTime();
                if (sleep > 0) {
                    Thread.sleep(sleep / 1_000_000, (int) (sleep % 1_000_000));
                }
                next += BIN_NANOS;
                record(csv, System.currentTimeMillis());
            }
        }
        stop.set(true);
        Thread.sleep(50);
        StringBuilder drops = new StringBuilder();
        synchronized (this) {
            for (DropReason r : DropReason.values()) {
                long d = dp.drops(vnfDevice, r);
                if (d > 0) {
                    drops.append(' ').append(r).append('=').append(d);
                }
            }
        }
        System.err.println("lab switch: stopped; frames sent " + forwarded.get() + ", send errors " + txErrors.get()
                + ", drops" + (drops.length() == 0 ? " none" : drops));
    }

    /**
     * Runs the lab switch.
     *
     * @param args see the class comment
     * @throws Exception on bad arguments or interfaces that cannot be opened
     */
    public static void main(String[] args) throws Exception {
        LabSwitch s = new LabSwitch(new EmulatedDataplane(List.of()), DEVICE);
        Map<Integer, String> vnfSids = new LinkedHashMap<>();
        Path csv = Path.of("switch.csv");
        double seconds = 60;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            String v = i + 1 < args.length ? args[i + 1] : null;
            if (v == null) {
                throw new IllegalArgumentException(a + " needs a value");
            }
            i++;
            switch (a) {
                case "--port": {
                    ConnectPoint port = new ConnectPoint(DEVICE,
                            PortNumber.portNumber(Integer.parseInt(v.substring(0, v.indexOf('=')))));
                    String[] io = v.substring(v.indexOf('=') + 1).split("/");
                    s.port(port, io[0], io.length > 1 ? io[1] : io[0]);
                    break;
                }
                case "--vnf": {
                    int id = Integer.parseInt(v.substring(0, v.indexOf('=')));
                    String sid = v.substring(v.indexOf('=') + 1, v.indexOf('@'));
                    int port = Integer.parseInt(v.substring(v.indexOf('@') + 1));
                    vnfSids.put(id, sid + "@" + port);
                    s.vnf(new ConnectPoint(DEVICE, PortNumber.portNumber(port)), id, null);
                    break;
                }
                case "--cgroup":
                    s.cgroups.put(Integer.parseInt(v.substring(0, v.indexOf('='))),
                            Path.of(v.substring(v.indexOf('=') + 1)));
                    break;
                case "--csv":
                    csv = Path.of(v);
                    break;
                case "--seconds":
                    seconds = Double.parseDouble(v);
                    break;
                default:
                    throw new IllegalArgumentException("unknown option " + a);
            }
        }
        LabProgram.Entries e = LabProgram.sw2(vnfSids);
        s.dp.program(DEVICE, e.rules, e.groups);
        s.run(csv, seconds);
        System.exit(0);
    }
}
