// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.program;

import java.util.Arrays;
import org.onlab.packet.IpPrefix;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.PortNumber;
import org.srv6int.app.api.model.FlowClassifier;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfSpec;
import org.srv6int.app.testing.AppHarness;
import org.srv6int.app.testing.PaperTestbed;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.Locale;

/**
 * The flow programming's cost against the number of chains on one ingress switch (issue 22):
 * the app's programming manager over the in-memory switches of the paper's testbed with N chains
 * of two vNFs (Fwd on Worker 1, nDPI on Worker 2), each with its 256 bucket entries at SW1.
 * Per N it times, in thread CPU time: a reconcile pass of the converged fabric (what every event
 * and the periodic pass cost when nothing changed) and a scale-out of one chain's second vNF
 * (a replica added, reconciled until nothing is left to do: SID first, then the moved buckets).
 * Prints one line per N; {@code tools/bench-reconcile} runs it on this tree and on a base
 * commit's app in turn and prints the ratios. Asserts nothing.
 *
 * <p>Usage: {@code ReconcileBench [label] [N ...]} (default 10 20 40 80).
 */
public final class ReconcileBench {

    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    private ReconcileBench() {
    }

    /**
     * Runs the benchmark.
     *
     * @param args label, then chain counts
     */
    public static void main(String[] args) {
        String label = args.length > 0 ? args[0] : "this";
        int[] sizes = args.length > 1 ? Arrays.stream(args, 1, args.length).mapToInt(Integer::parseInt).toArray()
                : new int[] {10, 20, 40, 80};
        // warm-up: the JIT compiles the same paths the timed runs take
        run(10, 3);
        for (int n : sizes) {
            double[] ms = run(n, 5);
            System.out.printf(Locale.ROOT,
                    "reconcile %s chains=%d entries=%d converged_pass_ms=%.3f scale_out_ms=%.3f%n",
                              label, n, (int) ms[2], ms[0], ms[1]);
        }
    }

    /** {converged pass ms (median), scale-out ms (median), flow entries}. */
    private static double[] run(int chains, int rounds) {
        AppHarness app = new AppHarness();
        for (int i = 1; i <= chains; i++) {
            app.sfcs.addSfc(chain(i));
            app.inventory.addReplica(VnfKey.of(SfcId.of(i), 0), "worker1");
            app.inventory.addReplica(VnfKey.of(SfcId.of(i), 1), "worker2");
        }
        app.settle();
        double[] pass = new double[rounds];
        double[] scale = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            long t0 = CPU.getCurrentThreadCpuTime();
            int ops = app.programmer.reconcile();
            pass[r] = (CPU.getCurrentThreadCpuTime() - t0) / 1e6;
            if (ops != 0) {
                throw new IllegalStateException("a converged fabric issued " + ops + " operations");
            }
            // scale-out of one chain's nDPI, round by round on the next chain
            VnfKey vnf = VnfKey.of(SfcId.of(1 + r % chains), 1);
            t0 = CPU.getCurrentThreadCpuTime();
            app.inventory.addReplica(vnf, r % 2 == 0 ? "worker1" : "worker2");
            app.settle();
            scale[r] = (CPU.getCurrentThreadCpuTime() - t0) / 1e6;
        }
        return new double[] {median(pass), median(scale), app.flows.getFlowRuleCount()};
    }

    private static Sfc chain(int i) {
        return Sfc.builder().id(SfcId.of(i)).name("sfc" + i)
                .ingress(new ConnectPoint(PaperTestbed.SW1, PortNumber.portNumber(1)))
                .egress(new ConnectPoint(PaperTestbed.SW4, PortNumber.portNumber(2)))
                .classifier(new FlowClassifier(IpPrefix.valueOf("10.0.1.0/24"), IpPrefix.valueOf("10.0.4.0/24"),
                                               17, 0, 5000 + i))
                .vnfs(List.of(new VnfSpec("fwd", PaperTestbed.LMAX), new VnfSpec("ndpi", PaperTestbed.LMAX)))
                .intSamplingRate(16)
                .build();
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }
}
