// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.metrics;

import java.nio.file.StandardCopyOption;
import org.srv6int.app.testing.PaperTestbed;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.TimeUnit;

/**
 * A source for a real Prometheus (tests/ci.d/60-prometheus.sh): one app instance
 * ({@link MetricsTestbed}, real collector, loop and exporter, 500 ms windows, t-hat 2 s) serves
 * its metrics on a plain port and is driven with INT reports in real time: SFC 1 steady at
 * 300 us per vNF; SFC 2's Snort at 300 us, from {@code rampAfter} seconds at 3 x Lmax until the
 * loop has scaled it out, then at 300 us again.
 *
 * <p>Usage: {@code MetricsLoadRunner PORT_FILE SECONDS [RAMP_AFTER_SECONDS]}; writes the plain
 * port to PORT_FILE once serving, stops after SECONDS.
 */
public final class MetricsLoadRunner {

    private MetricsLoadRunner() {
    }

    /**
     * Runs the source.
     *
     * @param args port file, seconds, optional ramp start
     * @throws Exception on a setup failure
     */
    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: MetricsLoadRunner PORT_FILE SECONDS [RAMP_AFTER_SECONDS]");
            System.exit(2);
        }
        Path portFile = Paths.get(args[0]);
        long seconds = Long.parseLong(args[1]);
        long rampAfter = args.length > 2 ? Long.parseLong(args[2]) : 10;
        try (MetricsTestbed bed = new MetricsTestbed(500, 2000)) {
            bed.metrics.apply(new MetricsSettings(MetricsSettings.DEFAULT_MAX_CHAINS, MetricsSettings.DEFAULT_MAX_VNFS,
                                                  MetricsSettings.DEFAULT_MAX_REPLICAS, "127.0.0.1", 0));
            Path tmp = Paths.get(portFile + ".tmp");
            Files.write(tmp, Integer.toString(bed.metrics.plainPort()).getBytes(StandardCharsets.US_ASCII));
            Files.move(tmp, portFile, StandardCopyOption.ATOMIC_MOVE);
            System.out.println("metrics on 127.0.0.1:" + bed.metrics.plainPort());
            long start = System.nanoTime();
            long end = start + TimeUnit.SECONDS.toNanos(seconds);
            boolean scaled = false;
            long sent = 0;
            while (System.nanoTime() < end) {
                long t = System.nanoTime() - start;
                if (!scaled && bed.loop.decisionsEnded(org.srv6int.app.api.model.LoopDecision.Action.SCALE_OUT,
                                                       org.srv6int.app.api.model.LoopDecision.Outcome.SUCCEEDED) > 0) {
                    scaled = true;
                    System.out.println("scaled out at " + TimeUnit.NANOSECONDS.toMillis(t) + " ms");
                }
                boolean high = !scaled && t > TimeUnit.SECONDS.toNanos(rampAfter);
                // 40 reports per chain every 20 ms: 2000 reports/s per chain, 100 packets apart
                bed.send(1, 40, 300_000, 100);
                bed.send(2, 40, high ? 3 * PaperTestbed.LMAX : 300_000, 100);
                sent += 80;
                Thread.sleep(20);
            }
            System.out.println("sent " + sent + " reports; scaled out: " + scaled);
        }
        System.exit(0);
    }
}
