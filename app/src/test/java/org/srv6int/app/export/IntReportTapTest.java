// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.export;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.Test;
import org.srv6int.app.api.model.SampledReport;

import java.util.ArrayList;
import java.util.List;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

/**
 * The collector's per-report hook on the real engine (reports encoded by the codec): one accepted
 * report in sampleEvery is copied, at most the rate cap per second of the engine's clock; a full
 * queue drops and counts; the hook off samples nothing; a record decodes to what was sent.
 */
public class IntReportTapTest {

    private static List<SampledReport> drain(IntReportTap tap) {
        List<SampledReport> out = new ArrayList<>();
        for (SampledReport r; (r = tap.poll()) != null;) {
            out.add(r);
        }
        return out;
    }

    @Test
    public void oneInSampleEveryIsCopiedAndDecodesToWhatWasSent() throws Exception {
        Windows w = new Windows();
        ExportCounters counters = new ExportCounters();
        IntReportTap tap = new IntReportTap(new IntReportSettings(10, 100_000, 1000), counters);
        w.engine().setReportTap(tap, 100_000);
        w.next(200, 150_000);
        List<SampledReport> got = drain(tap);
        assertEquals(20, got.size());
        for (int i = 0; i < got.size(); i++) {
            SampledReport r = got.get(i);
            assertEquals(10L * i + 9, r.sequence()); // the 10th, 20th, ... accepted report
            assertEquals(Windows.CHAIN, r.chainTag());
            assertEquals(4, r.reporterDeviceId());
            assertEquals(3, r.hops());
            assertEquals(2, r.deviceId(1));
            assertEquals(150_000, r.vnfLatency(1));
            assertEquals(1_000 + 150_000, r.inTime(1));
            assertEquals(0, r.vnfLatency(2));
        }
        JsonNode n = new ObjectMapper().readTree(IntReportTap.record(got.get(0), "onos-1", 42, 10).value());
        assertEquals("onos-1", n.get("instance").asText());
        assertEquals(42, n.get("timestampMillis").asLong());
        assertEquals(10, n.get("sampleEvery").asInt());
        assertEquals(Windows.CHAIN, n.get("chain").asInt());
        assertEquals(4, n.get("reporter").asInt());
        assertEquals(9, n.get("sequence").asLong());
        assertEquals(3, n.get("hops").size());
        assertEquals(2, n.get("hops").get(1).get("device").asInt());
        assertEquals(150_000, n.get("hops").get(1).get("vnfLatencyNanos").asLong());
        assertEquals(got.get(0).portCounter(1), n.get("hops").get(1).get("portCounter").asInt());
        assertEquals(0, counters.get(ExportRecord.Kind.INT_REPORT, ExportCounters.Result.DROPPED_QUEUE_FULL));
    }

    @Test
    public void theRateCapHoldsPerSecondOfTheCollectorClock() {
        Windows w = new Windows();
        IntReportTap tap = new IntReportTap(new IntReportSettings(1, 50, 1000), new ExportCounters());
        w.engine().setReportTap(tap, 50);
        // the engine's clock stands still within a window and moves 1 s between windows: a burst
        // of a tenth of the rate, then the rate's worth per second up to that burst
        w.next(200, 100_000);
        assertEquals(5, drain(tap).size());
        w.next(200, 100_000);
        assertEquals(5, drain(tap).size());
    }

    @Test
    public void aFullQueueDropsAndCountsAndTheHookOffTakesNothing() {
        Windows w = new Windows();
        ExportCounters counters = new ExportCounters();
        IntReportTap tap = new IntReportTap(new IntReportSettings(1, 100_000, 8), counters);
        w.engine().setReportTap(tap, 100_000);
        w.next(200, 100_000);
        assertEquals(8, tap.queued());
        assertEquals(192, counters.get(ExportRecord.Kind.INT_REPORT, ExportCounters.Result.DROPPED_QUEUE_FULL));
        drain(tap);
        w.engine().setReportTap(null, 0);
        w.next(200, 100_000);
        assertNull(tap.poll());
        assertEquals(192, counters.get(ExportRecord.Kind.INT_REPORT, ExportCounters.Result.DROPPED_QUEUE_FULL));
        w.engine().setReportTap(tap, 100_000);
        tap.close();
        w.next(10, 100_000);
        assertNull(tap.poll());
        assertTrue(counters.get(ExportRecord.Kind.INT_REPORT, ExportCounters.Result.DROPPED_AT_CLOSE) >= 10);
    }
}
