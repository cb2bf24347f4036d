// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.telemetry;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.Test;
import org.srv6int.app.api.model.VnfWindow;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.config.Srv6IntAppConfig;
import org.srv6int.app.testing.TestReports;
import org.srv6int.app.testing.PaperTestbed;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * The collector's size limits come from netcfg ({@code collector.maxVnfs} and the others): 200
 * vNFs are refused with the defaults, with an error naming the knob, and collected once the knob
 * is raised.
 */
public class CollectorLimitsTest {

    private static final int SOURCE = 0x7f000001;
    private static final int EGRESS = 4;
    private static final int VNF_SWITCH = 2;

    private final AtomicLong clock = new AtomicLong();

    private static Optional<Srv6IntAppConfig> config(String json) throws Exception {
        Srv6IntAppConfig c = PaperTestbed.appConfig(new ObjectMapper().readTree(json));
        assertTrue(c.isValid());
        return Optional.of(c);
    }

    /** 5 vNFs in each of chains 7..46 (40 chains); vNF 0 of chain 7 at hop 1 of the VNF switch. */
    private static List<HopBinding> twoHundredVnfs() {
        List<HopBinding> all = new ArrayList<>();
        for (int tag = 7; tag < 47; tag++) {
            for (int i = 0; i < 5; i++) {
                all.add(new HopBinding(tag, i + 1, i == 0 ? VNF_SWITCH : 10 + i, VnfKey.of(SfcId.of(tag), i),
                                       "r" + tag + "-" + i));
            }
        }
        return all;
    }

    @Test
    public void twoHundredVnfsAreRefusedByDefaultAndCollectedAfterRaisingMaxVnfs() throws Exception {
        TelemetryEngine.Limits defaults = TelemetryManager.limits(config("{}"));
        assertEquals(TelemetryEngine.Limits.DEFAULT, defaults);
        TelemetryEngine small = new TelemetryEngine(defaults, clock::get);
        try {
            small.setBindings(twoHundredVnfs());
            fail("200 vNFs accepted with the default limits");
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("vNFs 200/128"));
            assertTrue(e.getMessage(), e.getMessage().contains("collector.maxVnfs"));
            assertTrue(e.getMessage(), !e.getMessage().contains("collector.maxChains"));
        }

        TelemetryEngine engine = new TelemetryEngine(
                TelemetryManager.limits(config("{\"collector\": {\"maxVnfs\": 256}}")), clock::get);
        engine.setReporters(Map.of(SOURCE, EGRESS));
        assertEquals(List.of(), engine.setBindings(twoHundredVnfs()));
        TestReports chain7 = new TestReports(7, EGRESS, 3);
        int counter = 0;
        for (int i = 0; i < 21; i++) {
            counter += 10;
            byte[] p = chain7.payload(i, new TestReports.Hop(1, 0, 0, 0, counter),
                                      new TestReports.Hop(VNF_SWITCH, 0, 301_000, 300_000, counter),
                                      new TestReports.Hop(EGRESS, 0, 302_000, 0, counter));
            assertTrue(engine.counters().toString(), engine.onReport(p, 0, p.length, SOURCE));
            if (i == 0) {
                clock.addAndGet(1_000_000_000L);
                engine.roll();
            }
        }
        clock.addAndGet(1_000_000_000L);
        VnfWindow w = engine.roll().vnfs().stream().filter(v -> v.vnf().equals(VnfKey.of(SfcId.of(7), 0)))
                .findFirst().orElseThrow(() -> new AssertionError("no window of vNF 7/0"));
        assertEquals(20, w.samples());
        assertEquals(0, engine.counters().unmappedEntries());
    }

    @Test
    public void tooManyChainsNameTheirKnob() throws Exception {
        TelemetryEngine engine = new TelemetryEngine(
                TelemetryManager.limits(config("{\"collector\": {\"maxChains\": 39, \"maxVnfs\": 256}}")),
                clock::get);
        try {
            engine.setBindings(twoHundredVnfs());
            fail("40 chains accepted with collector.maxChains 39");
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("(raise netcfg collector.maxChains)"));
        }
    }
}
