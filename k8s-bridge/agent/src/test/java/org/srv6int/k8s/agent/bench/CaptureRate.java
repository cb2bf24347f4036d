package org.srv6int.k8s.agent.bench;

import org.srv6int.k8s.agent.AgentConfig;
import org.srv6int.k8s.agent.FakeHost;
import org.srv6int.k8s.agent.NodeAgent;
import org.srv6int.k8s.agent.ReplayFixture;
import org.srv6int.k8s.agent.capture.PcapLatencySource;
import org.srv6int.k8s.agent.obs.AgentMetrics.Packet;
import org.pcap4j.core.BpfProgram.BpfCompileMode;
import org.pcap4j.core.PcapHandle;
import org.pcap4j.core.PcapNetworkInterface.PromiscuousMode;
import org.pcap4j.core.Pcaps;

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
 * WARMUP SECONDS} runs the whole agent ({@link NodeAgent}: pcap4j live capture,
 * BPF filter, codec view, SID match, windows and Algorithms 1-3 on a fake
 * worker tree) on IFACE and prints the Detection Results it matched in the
 * last SECONDS, in the same format as the C baseline {@code pcap-sink}.
 * {@code pcap4j IFACE WARMUP SECONDS} only reads frames through pcap4j, opened
 * as the agent opens them, and decodes nothing: it splits the agent's cost
 * into pcap4j's and the agent's own.
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
        if (args.length != 4 || !("agent".equals(args[0]) || "pcap4j".equals(args[0]))) {
            System.err.println("usage: CaptureRate frames FILE | agent|pcap4j IFACE WARMUP SECONDS");
            System.exit(2);
        }
        double warmup = Double.parseDouble(args[2]);
        double seconds = Double.parseDouble(args[3]);
        if ("pcap4j".equals(args[0])) {
            System.out.println("frames " + pcap4jOnly(args[1], warmup, seconds) + " seconds " + args[3] + " read");
            System.exit(0);
        }
        Path dir = Files.createTempDirectory("capture-rate");
        FakeHost.worker(dir.resolve("host"));
        AgentConfig c = new AgentConfig();
        c.node = "bench";
        c.iface = args[1];
        c.hostRoot = dir.resolve("host").toString();
        c.metricsAddress = "127.0.0.1:0";
        c.decisionLog = "";
        c.vnfs.add(vnf("fwd", SID_A, 1, FakeHost.UID_A, FakeHost.ID_A, "2-3"));
        c.vnfs.add(vnf("snort", SID_B, 2, FakeHost.UID_B, FakeHost.ID_B, "4-5"));
        c.validate();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        long counted;
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
            long t0 = System.nanoTime();
            Thread.sleep((long) (seconds * 1000));
            counted = agent.metrics().packets(Packet.MATCHED) - from;
            double measured = (System.nanoTime() - t0) / 1e9;
            counted = Math.round(counted * seconds / measured); // the sleep may overshoot a little
            agent.close();
            t.join(5000);
        }
        if (failure.get() != null) {
            throw new IllegalStateException("capture failed", failure.get());
        }
        System.out.println("frames " + counted + " seconds " + args[3] + " matched");
        System.exit(0);
    }

    /** Frames read by pcap4j alone in the window, the handle opened as PcapLatencySource.live opens it. */
    private static long pcap4jOnly(String iface, double warmup, double seconds) throws Exception {
        try (PcapHandle h = Pcaps.getDevByName(iface).openLive(512, PromiscuousMode.NONPROMISCUOUS,
                PcapLatencySource.LIVE_TIMEOUT_MS)) {
            h.setFilter(PcapLatencySource.FILTER, BpfCompileMode.OPTIMIZE);
            long start = System.nanoTime();
            long from = start + (long) (warmup * 1e9);
            long end = from + (long) (seconds * 1e9);
            long counted = 0;
            long sum = 0;
            for (long t = start; t < end; t = System.nanoTime()) {
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
            return sum == Long.MIN_VALUE ? -1 : counted; // sum keeps the reads from being optimised away
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
