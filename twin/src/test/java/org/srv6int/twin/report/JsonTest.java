// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.report;

import java.util.Locale;
import java.util.SplittableRandom;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/** summary.json's writer: what it writes reads back as the same values, rounded as the CSVs are. */
public class JsonTest {

    @Test
    public void writesWhatReadsBack() throws Exception {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("p95", 1234.56789);
        m.put("big", 1.0e7);
        m.put("nan", Double.NaN);
        m.put("inf", Double.POSITIVE_INFINITY);
        m.put("count", 42L);
        m.put("ok", true);
        m.put("name", "sfc \"2\"\n\\");
        m.put("series", List.of(0.1, -0.0004, 2));
        m.put("none", null);
        String text = Json.write(m);
        assertTrue(text.endsWith("}\n"));
        assertTrue("no exponent: " + text, text.contains("10000000") && !text.contains("E+"));
        JsonNode n = new ObjectMapper().readTree(text);
        List<String> names = new ArrayList<>();
        n.fieldNames().forEachRemaining(names::add);
        assertEquals(List.of("p95", "big", "nan", "inf", "count", "ok", "name", "series", "none"), names);
        assertEquals("1234.568", n.get("p95").asText());
        assertTrue(n.get("nan").isNull());
        assertTrue(n.get("inf").isNull());
        assertEquals(42, n.get("count").asLong());
        assertTrue(n.get("ok").asBoolean());
        assertEquals("sfc \"2\"\n\\", n.get("name").asText());
        assertEquals("[0.1,0,2]", n.get("series").toString());
        assertTrue(n.get("none").isNull());
    }

    /** num's fast paths write what String.format("%.3f") with its zeros and point trimmed writes. */
    @Test
    public void numWritesWhatTheFormatWrites() {
        SplittableRandom r = new SplittableRandom(7);
        List<Double> values = new ArrayList<>(List.of(0.0, -0.0, 1.0, -1.0, 0.0005, -0.0004, 1.0005, 2.5, 1500.0,
                0.1, 0.75, 1e7, 123456789.0, 999999999999999.0, 1e15, 1e16, -1e16, 1e300, Double.MIN_VALUE,
                Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY));
        for (int i = 0; i < 10_000; i++) {
            values.add((r.nextDouble() - 0.5) * Math.pow(10, r.nextInt(-4, 12)));
            values.add((double) r.nextInt(-100_000, 100_000) / (1 << r.nextInt(0, 12)));
        }
        for (double d : values) {
            String s = String.format(Locale.ROOT, "%.3f", d);
            if (s.contains(".")) {
                s = s.replaceAll("0+$", "").replaceAll("\\.$", "");
            }
            assertEquals(String.valueOf(d), s.equals("-0") ? "0" : s, Json.num(d));
        }
    }
}
