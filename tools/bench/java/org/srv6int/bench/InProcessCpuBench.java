// SPDX-License-Identifier: Apache-2.0
package org.srv6int.bench;

import org.srv6int.app.testing.FakePorts;
import org.srv6int.app.testing.FakeReplicaPlatform;
import org.srv6int.app.loop.LoopCore;
import org.srv6int.app.loop.LoopParams;
import org.srv6int.app.loop.VnfObservation;

import org.srv6int.app.api.model.NodeResources;
import org.srv6int.app.telemetry.TelemetryEngine;
import org.srv6int.app.api.model.VnfWindow;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;

/**
 * The same work as {@link InProcessBench}, timed by the thread's CPU time rather than the wall
 * clock, so that the per-core rate stays meaningful on a machine shared with other builds.
 * Usage: InProcessCpuBench [reports per round (default 20M)] [rounds (default 5)]
 */
public final class InProcessCpuBench {

    private InProcessCpuBench() {
    }

    public static void main(String[] args) throws Exception {
        long n = args.length > 0 ? Long.parseLong(args[0]) : 20_000_000L;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        long[] fake = {0};
        TelemetryEngine engine = BenchSetup.engine(() -> fake[0]);
        FakePorts.Routing routing = new FakePorts.Routing("r0");
        FakeReplicaPlatform platform = FakeReplicaPlatform.immediate();
        platform.nodes.add(new NodeResources("w1", 4000, 1L << 34));
        // the loop core's round on each window: its observation of the window's one vNF
        LoopCore loop = LoopCore.builder().clock(new FakePorts.Clock()).platform(platform).routing(routing)
                .params(LoopParams.builder().build()).observations(snap -> {
                    VnfWindow w = snap.vnfs().get(0);
                    return List.of(new VnfObservation(w.vnf(), 600_000, w.ratePps(), w.p95Nanos(), w.samples(),
                                                      routing.active(), w.replicaPackets()));
                }).build();
        int size = 1024;
        byte[][] reports = new byte[size][];
        int[] lengths = new int[size];
        for (int i = 0; i < size; i++) {
            byte[] p = BenchSetup.report(i);
            reports[i] = p;
            lengths[i] = p.length;
        }
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long seq = 0;
        double best = 0;
        for (int r = 0; r < rounds; r++) {
            long accepted = 0;
            long c0 = mx.getCurrentThreadCpuTime();
            long w0 = System.nanoTime();
            for (long i = 0; i < n; i++) {
                long s = seq++;
                byte[] b = reports[(int) (s & (size - 1))];
                b[4] = (byte) (s >>> 24);
                b[5] = (byte) (s >>> 16);
                b[6] = (byte) (s >>> 8);
                b[7] = (byte) s;
                if (engine.onReport(b, 0, lengths[(int) (s & (size - 1))], 0x7F000001)) {
                    accepted++;
                }
                if ((s & 0xFFFF) == 0xFFFF) {
                    fake[0] += 500_000_000L;
                    loop.period(engine.roll());
                }
            }
            long cpu = mx.getCurrentThreadCpuTime() - c0;
            long wall = System.nanoTime() - w0;
            double perCpuSec = accepted / (cpu / 1e9);
            best = Math.max(best, perCpuSec);
            System.out.printf("round %d: %d reports, %.1f ns CPU/report, %.0f reports per CPU-second "
                                      + "(wall %.0f/s)%n", r, accepted, cpu / (double) n, perCpuSec,
                              accepted / (wall / 1e9));
        }
        System.out.printf("in-process per core: best %.0f reports per CPU-second (target >= 5000000)%n", best);
    }
}
