// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.bench;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;
import org.srv6int.agent.loop.Decision;
import org.srv6int.agent.loop.LocalLoop;
import org.srv6int.agent.loop.LoopListener;
import org.srv6int.agent.loop.RaisePolicy;
import org.srv6int.agent.loop.ResourceActuator;
import org.srv6int.agent.loop.ResourcePool;
import org.srv6int.agent.loop.ResourceType;
import org.srv6int.agent.loop.SlackPolicy;
import org.srv6int.agent.window.LatencyWindow;
import org.srv6int.agent.window.Selection;

import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * Hot path of the node agent: latency samples through the per-vNF windows
 * and Algorithms 1-3 (decisions included, applied to in-memory actuators so
 * the figure is the loop's, not the kernel's), and L95 of a 1500-sample
 * window by selection against a full sort.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class AgentBenchmark {

    /** Samples per benchmark invocation. */
    public static final int BATCH = 1 << 16;
    private static final int VNFS = 8;

    private LocalLoop loop;
    private int[] vnf;
    private long[] latency;
    private long[] window;
    private long[] scratch;
    private long decisions;

    /** Accepts writes and keeps nothing: the loop's own cost is what is measured. */
    static final class NullActuator implements ResourceActuator {
        private final ResourceType type;

        NullActuator(ResourceType type) {
            this.type = type;
        }

        @Override
        public ResourceType type() {
            return type;
        }

        @Override
        public long read(int v) {
            return 0;
        }

        @Override
        public void write(int v, long value, long[] allocations) {
        }
    }

    /** Builds the loop and a stream where half the vNFs run over their bound and half have slack. */
    @Setup(Level.Trial)
    public void setUp() {
        long[] lmax = new long[VNFS];
        Arrays.fill(lmax, 1_000_000);
        ResourcePool[] pools = new ResourcePool[4];
        for (ResourceType t : ResourceType.all()) {
            long[] floor = new long[VNFS];
            long[] ceil = new long[VNFS];
            long[] init = new long[VNFS];
            Arrays.fill(floor, 1);
            Arrays.fill(ceil, 1_000_000_000L);
            Arrays.fill(init, 500);
            pools[t.ordinal()] = new ResourcePool(new NullActuator(t), 1, 100L * VNFS * 1000, floor, ceil, init);
        }
        LoopListener counting = new LoopListener() {
            @Override
            public void onWindow(int v, long l95Ns, long slackNs) {
            }

            @Override
            public void onDecision(Decision d) {
                decisions++;
            }

            @Override
            public void onEscalation(int v, long l95Ns, long lmaxNs, int triedMask) {
            }
        };
        loop = new LocalLoop(lmax, LatencyWindow.DEFAULT_N, pools, ResourceType.CPU_QUOTA, counting,
                System::nanoTime, 2_000_000_000L, 1_000_000_000L, 1_000_000_000L, SlackPolicy.DEFAULT,
                RaisePolicy.DEFAULT); // the shipped agent's: the time-cap check on every 8th sample included
        Random rnd = new Random(3);
        vnf = new int[BATCH];
        latency = new long[BATCH];
        for (int i = 0; i < BATCH; i++) {
            vnf[i] = rnd.nextInt(VNFS);
            long level = vnf[i] % 2 == 0 ? 1_500_000 : 300_000;
            latency[i] = (long) (level * Math.exp(rnd.nextGaussian() * 0.3));
        }
        window = new long[LatencyWindow.DEFAULT_N];
        for (int i = 0; i < window.length; i++) {
            window[i] = (long) (300_000 * Math.exp(rnd.nextGaussian() * 0.5));
        }
        scratch = new long[window.length];
    }

    /**
     * Samples ingested per second: window + L95 every N + Algorithm 1-3 decisions.
     *
     * @return decisions so far (keeps the work alive)
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long ingest() {
        LocalLoop l = loop;
        int[] v = vnf;
        long[] lat = latency;
        for (int i = 0; i < BATCH; i++) {
            l.onSample(v[i], lat[i]);
        }
        return decisions;
    }

    /**
     * L95 of 1500 samples by quickselect (copy included).
     *
     * @param bh sink
     */
    @Benchmark
    public void p95Select(Blackhole bh) {
        System.arraycopy(window, 0, scratch, 0, window.length);
        bh.consume(Selection.select(scratch, scratch.length, LatencyWindow.percentileIndex(scratch.length, 95)));
    }

    /**
     * L95 of 1500 samples by a full sort (copy included): the baseline.
     *
     * @param bh sink
     */
    @Benchmark
    public void p95Sort(Blackhole bh) {
        System.arraycopy(window, 0, scratch, 0, window.length);
        Arrays.sort(scratch);
        bh.consume(scratch[LatencyWindow.percentileIndex(scratch.length, 95)]);
    }
}
