// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.metrics;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A strict reader of the text format for tests: every sample belongs to the family whose HELP and
 * TYPE lines came just before, no series appears twice, counters end in _total; anything else
 * fails with the line.
 */
final class ParsedExposition {

    private static final Pattern SAMPLE = Pattern.compile(
            "([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(?:[a-zA-Z_][a-zA-Z0-9_]*=\"(?:[^\"\\\\\\n]|\\\\[\\\\\"n])*\",?)*\\})? "
                    + "(\\S+)");

    /** Series ("name{labels}") to value, in order. */
    final Map<String, Double> series = new LinkedHashMap<>();
    /** Family to type. */
    final Map<String, String> types = new HashMap<>();

    ParsedExposition(String text) {
        String family = null;
        String helpOf = null;
        for (String line : text.split("\n")) {
            if (line.startsWith("# HELP ")) {
                helpOf = line.split(" ")[2];
                continue;
            }
            if (line.startsWith("# TYPE ")) {
                String[] p = line.split(" ");
                if (!p[2].equals(helpOf) || types.containsKey(p[2])) {
                    throw new AssertionError("TYPE without its HELP or repeated: " + line);
                }
                if (p[3].equals("counter") != p[2].endsWith("_total")) {
                    throw new AssertionError("counter naming: " + line);
                }
                family = p[2];
                types.put(family, p[3]);
                continue;
            }
            Matcher m = SAMPLE.matcher(line);
            if (!m.matches()) {
                throw new AssertionError("not a sample line: " + line);
            }
            if (!m.group(1).equals(family)) {
                throw new AssertionError("sample outside its family " + family + ": " + line);
            }
            String key = m.group(1) + (m.group(2) == null ? "" : m.group(2));
            if (series.put(key, Double.parseDouble(m.group(3).replace("+Inf", "Infinity"))) != null) {
                throw new AssertionError("series twice: " + key);
            }
        }
    }

    /**
     * Returns a series' value.
     *
     * @param key name{labels} exactly as written
     * @return value
     */
    double get(String key) {
        Double v = series.get(key);
        if (v == null) {
            throw new AssertionError("no series " + key + " in " + series.keySet());
        }
        return v;
    }

    /**
     * Counts the series of a family.
     *
     * @param family name
     * @return series
     */
    long count(String family) {
        return series.keySet().stream().filter(k -> k.equals(family) || k.startsWith(family + "{")).count();
    }
}
