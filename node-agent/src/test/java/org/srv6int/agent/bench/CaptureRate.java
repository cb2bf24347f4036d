// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.bench;

import java.io.IOException;
import java.util.Locale;
import org.srv6int.agent.AgentConfig;
import org.srv6int.agent.FakeHost;
import org.srv6int.agent.NodeAgent;
import org.srv6int.agent.ReplayFixture;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import org.srv6int.agent.capture.DetectionResultReader;
import org.srv6int.agent.capture.PcapLatencySource;
import org.srv6int.agent.loop.LocalLoop;
import org.srv6int.agent.obs.AgentMetrics.Packet;
import org.pcap4j.core.BpfProgram.BpfCompileMode;
import org.pcap4j.core.PcapHandle;
import org.pcap4j.core.PcapNetworkInterface.PromiscuousMode;
import org.pcap4j.core.Pcaps;

import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The agent's side of the live capture benchmark ({@code tools/bench-capture},
 * issue 16 item 6). {@code frames FILE} writes the traffic: 1,024 SRv6-INT
 * frames (the codec's H.Encaps.INT and End.T.INT departure encoders) to two
 * local vNFs, Detection Results around 0.5 ms and 2 ms. {@code agent IFACE
 * WARMUP SECONDS} runs the whole agent ({@link NodeAgent}: its live capture —
 * libpcap through a direct JNA mapping, {@link PcapLatencySource} — BPF filter,
 * codec view, SID match, windows and Algorithms 1-3 on a fake worker tree) on
 * IFACE and prints the Detection Results it matched in the last SECONDS and the
 * process's CPU seconds meanwhile, in the same format as the C baseline
 * {@code pcap-sink}.
 * {@code pcap4j IFACE WARMUP SECONDS} only reads frames through pcap4j (the
 * agent's capture before it moved to the direct mapping) and decodes nothing:
 * the old frame source's cost alone. {@code direct IFACE WARMUP SECONDS} is the
 * agent's reader and loop fed by a minimal direct-mapped {@code pcap_next_ex}
 * loop written here (no non-blocking poll, no {@link NodeAgent}): it tells the
 * agent's capture loop and wrapper from the direct mapping's own cost.
 */
public final class CaptureRate {

    private static final String SID_A = "fc00:2::10";
    private static final String SID_B = "fc00:2::20";

    private CaptureRate() {
    }

    /**
     * Entry point.
     *
     * @param args {@code frames FILE} or {@code agent IFACE WARMUP SECONDS}
     * @throws Exception on a failure
     */
    public static void main(String[] args) throws Exception {
        if (args.length == 2 && "frames".equals(args[0])) {
            List<byte[]> frames = new ArrayList<>();
            byte[] a = InetAddress.getByName(SID_A).getAddress();
            byte[] b = InetAddress.getByName(SID_B).getAddress();
            for (int k = 0; k < 512; k++) {
                frames.add(ReplayFixture.frame(a, 1, true, 500_000 + k * 100L));
                frames.add(ReplayFixture.frame(b, 2, true, 2_000_000 + k * 100L));
            }
            ReplayFixture.writePcap(Path.of(args[1]), frames);
            return;
        }
        if (args.length != 4 || !List.of("agent", "pcap4j", "direct").contains(args[0])) {
            System.err.println("usage: CaptureRate frames FILE | agent|pcap4j|direct IFACE WARMUP SECONDS");
            System.exit(2);
        }
        double warmup = Double.parseDouble(args[2]);
        double seconds = Double.parseDouble(args[3]);
        if ("pcap4j".equals(args[0]) || "direct".equals(args[0])) {
            long[] counted = "pcap4j".equals(args[0]) ? pcap4jOnly(args[1], warmup, seconds)
                    : direct(args[1], warmup, seconds);
            report(null, counted[0], args[3], counted[1]);
        }
        AgentConfig c = config(args[1], Files.createTempDirectory("capture-rate"));
        AtomicReference<Throwable> failure = new AtomicReference<>();
        long counted;
        long cpu;
        try (NodeAgent agent = new NodeAgent(c)) {
            Thread t = new Thread(() -> {
                try {
                    agent.run(null);
                } catch (Throwable e) {
                    failure.set(e);
                }
            }, "capture");
            t.start();
            Thread.sleep((long) (warmup * 1000));
            long from = agent.metrics().packets(Packet.MATCHED);
            long cpu0 = cpuNanos();
            long t0 = System.nanoTime();
            Thread.sleep((long) (seconds * 1000));
            counted = agent.metrics().packets(Packet.MATCHED) - from;
            cpu = cpuNanos() - cpu0;
            double measured = (System.nanoTime() - t0) / 1e9;
            counted = Math.round(counted * seconds / measured); // the sleep may overshoot a little
            agent.close();
            t.join(5000);
        }
        report(failure.get(), counted, args[3], cpu);
    }

    /** CPU time of the whole process (capture, JIT, GC threads), ns. */
    private static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static void report(Throwable failure, long counted, String seconds, long cpuNs) {
        if (failure != null) {
            throw new IllegalStateException("capture failed", failure);
        }
        System.out.printf(Locale.ROOT, "frames %d seconds %s cpu %.3f matched%n", counted, seconds,
                cpuNs / 1e9);
        System.exit(0);
    }

    private static AgentConfig config(String iface, Path dir) throws IOException {
        FakeHost.worker(dir.resolve("host"));
        AgentConfig c = new AgentConfig();
        c.node = "bench";
        c.iface = iface;
        c.hostRoot = dir.resolve("host").toString();
        c.metricsAddress = "127.0.0.1:0";
        c.decisionLog = "";
        c.vnfs.add(vnf("fwd", SID_A, 1, FakeHost.UID_A, FakeHost.ID_A, "2-3"));
        c.vnfs.add(vnf("snort", SID_B, 2, FakeHost.UID_B, FakeHost.ID_B, "4-5"));
        c.validate();
        return c;
    }

    /** The agent's reader and loop fed through a direct JNA mapping of libpcap; Detection Results matched. */
    private static long[] direct(String iface, double warmup, double seconds) throws Exception {
        try (NodeAgent agent = new NodeAgent(config(iface, Files.createTempDirectory("capture-rate")))) {
            LocalLoop loop = agent.loop();
            DetectionResultReader reader = new DetectionResultReader(
                    List.of(InetAddress.getByName(SID_A).getAddress(), InetAddress.getByName(SID_B).getAddress()),
                    agent.metrics());
            byte[] err = new byte[256];
            Pointer p = DirectPcap.pcap_open_live(iface, 512, 0, PcapLatencySource.LIVE_TIMEOUT_MS, err);
            if (p == null) {
                throw new IllegalStateException(Native.toString(err));
            }
            Memory prog = new Memory(16);
            if (DirectPcap.pcap_compile(p, prog, PcapLatencySource.FILTER, 1, -1) != 0
                    || DirectPcap.pcap_setfilter(p, prog) != 0) {
                throw new IllegalStateException("filter");
            }
            Memory hdrRef = new Memory(Native.POINTER_SIZE);
            Memory dataRef = new Memory(Native.POINTER_SIZE);
            byte[] frame = new byte[512];
            long start = System.nanoTime();
            long from = start + (long) (warmup * 1e9);
            long end = from + (long) (seconds * 1e9);
            long frames = 0;
            long before = -1;
            long cpu0 = 0;
            for (long t = start; t < end; t = System.nanoTime()) {
                if (before < 0 && t >= from) {
                    before = agent.metrics().packets(Packet.MATCHED);
                    cpu0 = cpuNanos();
                }
                int r = DirectPcap.pcap_next_ex(p, hdrRef, dataRef);
                if (r != 1) {
                    loop.tick();
                    continue;
                }
                int caplen = hdrRef.getPointer(0).getInt(16); // struct pcap_pkthdr: timeval (16), caplen
                dataRef.getPointer(0).read(0, frame, 0, caplen);
                if (reader.read(frame, caplen)) {
                    loop.onSample(reader.vnf(), reader.latencyNs());
                }
                if ((++frames & 0x3FF) == 0) {
                    loop.tick();
                }
            }
            long cpu = cpuNanos() - cpu0;
            DirectPcap.pcap_close(p);
            return new long[] {agent.metrics().packets(Packet.MATCHED) - Math.max(before, 0), cpu};
        }
    }

    /** libpcap through JNA's direct mapping (no per-call allocation). */
    @SuppressWarnings("MethodName")
    private static final class DirectPcap {
        static {
            Native.register(NativeLibrary.getInstance("pcap"));
        }

        static native Pointer pcap_open_live(String dev, int snaplen, int promisc, int toMs, byte[] errbuf);

        static native int pcap_compile(Pointer p, Pointer prog, String filter, int optimize, int netmask);

        static native int pcap_setfilter(Pointer p, Pointer prog);

        static native int pcap_next_ex(Pointer p, Pointer hdr, Pointer data);

        static native void pcap_close(Pointer p);
    }

    /** Frames read by pcap4j alone in the window, the handle opened as PcapLatencySource.live opens it. */
    private static long[] pcap4jOnly(String iface, double warmup, double seconds) throws Exception {
        try (PcapHandle h = Pcaps.getDevByName(iface).openLive(512, PromiscuousMode.NONPROMISCUOUS,
                PcapLatencySource.LIVE_TIMEOUT_MS)) {
            h.setFilter(PcapLatencySource.FILTER, BpfCompileMode.OPTIMIZE);
            long start = System.nanoTime();
            long from = start + (long) (warmup * 1e9);
            long end = from + (long) (seconds * 1e9);
            long counted = 0;
            long sum = 0;
            long cpu0 = -1;
            for (long t = start; t < end; t = System.nanoTime()) {
                if (cpu0 < 0 && t >= from) {
                    cpu0 = cpuNanos();
                }
                byte[] f;
                try {
                    f = h.getNextRawPacketEx();
                } catch (TimeoutException e) {
                    continue;
                }
                sum += f[f.length - 1];
                if (t >= from) {
                    counted++;
                }
            }
            // sum keeps the reads from being optimised away
            return new long[] {sum == Long.MIN_VALUE ? -1 : counted, cpuNanos() - cpu0};
        }
    }

    private static AgentConfig.Vnf vnf(String name, String sid, int chain, String uid, String id, String cpus) {
        AgentConfig.Vnf v = new AgentConfig.Vnf();
        v.name = name;
        v.sid = sid;
        v.chainId = chain;
        v.lmaxNs = 1_000_000;
        v.podUid = uid;
        v.containerId = id;
        v.cpus = cpus;
        return v;
    }
}
