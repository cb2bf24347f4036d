// SPDX-License-Identifier: Apache-2.0
package org.srv6int.bench;

import org.srv6int.app.testing.FakePorts;
import org.srv6int.app.testing.FakeReplicaPlatform;
import org.srv6int.app.loop.LoopCore;
import org.srv6int.app.loop.LoopParams;
import org.srv6int.app.loop.VnfObservation;

import org.srv6int.app.api.model.NodeResources;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.srv6int.app.telemetry.TelemetryEngine;
import org.srv6int.app.api.model.TelemetrySnapshot;
import org.srv6int.app.api.model.VnfWindow;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The collector with the socket taken out, one thread (= one core): decode + telemetry update
 * for every report, and every 2^16 reports the window roll and a loop tick (the loop's
 * bookkeeping is per window, amortised here over the reports of a window).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class InProcessBench {

    private static final int N = 1024;
    private final byte[][] reports = new byte[N][];
    private final int[] lengths = new int[N];
    private TelemetryEngine engine;
    private LoopCore loop;
    private FakePorts.Routing routing;
    private long seq;
    private long fakeNanos;
    private int src;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        engine = BenchSetup.engine(() -> fakeNanos);
        routing = new FakePorts.Routing("r0");
        FakeReplicaPlatform platform = FakeReplicaPlatform.immediate();
        platform.nodes.add(new NodeResources("w1", 4000, 1L << 34));
        // the loop core's round on each window: its observation of the window's one vNF
        loop = LoopCore.builder().clock(new FakePorts.Clock()).platform(platform).routing(routing)
                .params(LoopParams.builder().build()).observations(this::observations).build();
        for (int i = 0; i < N; i++) {
            byte[] p = BenchSetup.report(i);
            reports[i] = p;
            lengths[i] = p.length;
        }
        src = 0x7F000001;
    }

    @Benchmark
    public boolean report() {
        long s = seq++;
        byte[] b = reports[(int) (s & (N - 1))];
        b[4] = (byte) (s >>> 24);
        b[5] = (byte) (s >>> 16);
        b[6] = (byte) (s >>> 8);
        b[7] = (byte) s;
        boolean ok = engine.onReport(b, 0, lengths[(int) (s & (N - 1))], src);
        if ((s & 0xFFFF) == 0xFFFF) {
            fakeNanos += 500_000_000L;
            loop.period(engine.roll());
        }
        return ok;
    }

    private List<VnfObservation> observations(TelemetrySnapshot snap) {
        VnfWindow w = snap.vnfs().get(0);
        return List.of(new VnfObservation(w.vnf(), 600_000, w.ratePps(), w.p95Nanos(), w.samples(),
                                          routing.active(), w.replicaPackets()));
    }
}
