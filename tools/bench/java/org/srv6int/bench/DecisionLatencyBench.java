// SPDX-License-Identifier: Apache-2.0
package org.srv6int.bench;

import org.srv6int.app.testing.FakePorts;
import org.srv6int.app.testing.FakeReplicaPlatform;
import org.srv6int.app.loop.LoopCore;
import org.srv6int.app.loop.LoopParams;
import org.srv6int.app.loop.VnfObservation;

import org.srv6int.app.api.model.NodeResources;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Time from "the violation has persisted t̂" (the loop core's round that finds it) to "multipath group
 * updated" (ChainRouting.addReplicas returned), with pods Ready at once (pod start-up
 * excluded) and the group kept by the recording routing fake (the app's flow programming is
 * not in this branch). Wall-clock time of that one tick; repeated, p50/p99/max printed.
 */
public final class DecisionLatencyBench {

    private DecisionLatencyBench() {
    }

    public static void main(String[] args) {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 20000;
        int warmup = runs / 4;
        long[] all = new long[runs + warmup];
        runs = all.length;
        Map<String, Long> packets = new HashMap<>();
        for (int i = 0; i < runs; i++) {
            FakePorts.Clock clock = new FakePorts.Clock();
            FakeReplicaPlatform platform = FakeReplicaPlatform.immediate();
            platform.nodes.add(new NodeResources("w1", 4000, 1L << 34));
            platform.nodes.add(new NodeResources("w2", 8000, 1L << 34));
            FakePorts.Routing routing = new FakePorts.Routing("r0");
            // the loop core's rounds, each on the window the bench gives (no collector here)
            List<List<VnfObservation>> window = new ArrayList<>(List.of(List.of()));
            LoopCore loop = LoopCore.builder().clock(clock).platform(platform).routing(routing)
                    .params(LoopParams.builder().build()).observations(s -> window.get(0)).build();
            clock.nanos = 1_000_000_000L;
            window.set(0, List.of(new VnfObservation(BenchSetup.VNF, 600_000, 1000, 400_000, 100, routing.active(),
                                                     packets)));
            loop.period(null);
            for (int w = 0; w < 9; w++) {
                clock.nanos += 500_000_000L;
                window.set(0, List.of(new VnfObservation(BenchSetup.VNF, 600_000, 2000, 700_000, 100,
                                                         routing.active(), packets)));
                loop.period(null);
            }
            clock.nanos += 500_000_000L;
            window.set(0, List.of(new VnfObservation(BenchSetup.VNF, 600_000, 2000, 700_000, 100,
                                                     routing.active(), packets)));
            long t0 = System.nanoTime();
            loop.period(null);
            long t1 = System.nanoTime();
            if (routing.calls.size() != 1) {
                throw new IllegalStateException("expected one group update, got " + routing.calls);
            }
            all[i] = t1 - t0;
        }
        // The first quarter warms the JIT up and is not counted.
        long[] ns = Arrays.copyOfRange(all, warmup, runs);
        runs = ns.length;
        Arrays.sort(ns);
        System.out.printf("violation-persisted -> group-updated (excl. pod start-up): runs=%d p50=%.1fus "
                                  + "p99=%.1fus max=%.1fus (target < 50 ms)%n",
                          runs, ns[runs / 2] / 1e3, ns[runs * 99 / 100] / 1e3, ns[runs - 1] / 1e3);
    }
}
