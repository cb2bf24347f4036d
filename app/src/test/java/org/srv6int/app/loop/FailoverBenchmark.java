// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import org.junit.Assume;
import org.junit.Test;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.PortNumber;
import org.srv6int.app.testing.PaperTestbed;

import java.util.Arrays;
import java.util.Map;

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;

/**
 * Time from a replica failure's detection to the ingress group moved, and from a port-down event
 * to the chain re-routed, on the fakes of {@link FailureHandlingTest} (the app's real inventory,
 * placement and flow programming; switches are the fake flow rule and group services), against a
 * baseline in the same run: a window without failure plus the reconcile passes it needs. Prints,
 * asserts no time. Skipped unless {@code -Dsrv6int.bench=true}.
 */
public class FailoverBenchmark {

    private static final int RUNS = 30;

    private static long median(long[] v) {
        long[] c = v.clone();
        Arrays.sort(c);
        return c[c.length / 2];
    }

    private static long p90(long[] v) {
        long[] c = v.clone();
        Arrays.sort(c);
        return c[(int) (c.length * 0.9)];
    }

    @Test
    public void detectionToBucketsMoved() throws Exception {
        Assume.assumeTrue("benchmark: run with -Dsrv6int.bench=true", Boolean.getBoolean("srv6int.bench"));
        long[] baseline = new long[RUNS];
        long[] pod = new long[RUNS];
        long[] port = new long[RUNS];
        for (int i = -5; i < RUNS; i++) {
            FailureHandlingTest f = new FailureHandlingTest();
            f.setUp();
            try {
                f.healthyWindow();
                f.healthyWindow();
                long t0 = System.nanoTime();
                f.healthyWindow();
                f.settleCheckingEachPass();
                long base = System.nanoTime() - t0;
                var before = f.groupSids(PaperTestbed.sfc2());
                t0 = System.nanoTime();
                f.platform.setReadiness(FailureHandlingTest.SNORT, Map.of("w2", false));
                f.settleCheckingEachPass();
                long moved = System.nanoTime() - t0;
                assertNotEquals(before, f.groupSids(PaperTestbed.sfc2()));
                f.portsDown.add(new ConnectPoint(PaperTestbed.SW2, PortNumber.portNumber(3)));
                t0 = System.nanoTime();
                f.manager.topologyChanged("port of:0000000000000002/3 down");
                f.settleCheckingEachPass();
                long rerouted = System.nanoTime() - t0;
                // Nothing behind SW2's port 3 is left in Snort's group (r0 and the first replacement).
                assertFalse(f.groupSids(PaperTestbed.sfc2()).stream().anyMatch(a
                        -> a.toString().startsWith("fc00:0:2:")));
                if (i >= 0) {
                    baseline[i] = base;
                    pod[i] = moved;
                    port[i] = rerouted;
                }
            } finally {
                f.tearDown();
            }
        }
        System.out.printf("failover benchmark, %d runs after 5 warm-up, wall ms median / p90 (ratio of medians to"
                          + " the baseline)%n", RUNS);
        System.out.printf("  baseline window + reconcile, no failure: %.2f / %.2f%n", median(baseline) / 1e6,
                          p90(baseline) / 1e6);
        System.out.printf("  pod not Ready pushed -> replica dead -> group moved: %.2f / %.2f (%.2fx)%n",
                          median(pod) / 1e6, p90(pod) / 1e6, (double) median(pod) / median(baseline));
        System.out.printf("  port down event -> replicas dead -> group moved: %.2f / %.2f (%.2fx)%n",
                          median(port) / 1e6, p90(port) / 1e6, (double) median(port) / median(baseline));
    }
}
