// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.export;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the app's Prometheus text exposition (format 0.0.4, as the metrics endpoint serves it)
 * back into families, so that the OTLP push carries exactly what a scrape shows: the same names,
 * label sets and values.
 */
final class ExpositionText {

    /** One family: its name, {@code counter} or {@code gauge}, help and samples. */
    static final class Family {
        final String name;
        final String type;
        final String help;
        final List<Sample> samples = new ArrayList<>();

        Family(String name, String type, String help) {
            this.name = name;
            this.type = type;
            this.help = help;
        }
    }

    /** One sample: labels in their order, and value. */
    static final class Sample {
        final Map<String, String> labels;
        final double value;

        Sample(Map<String, String> labels, double value) {
            this.labels = labels;
            this.value = value;
        }
    }

    private ExpositionText() {
    }

    /**
     * Parses an exposition.
     *
     * @param text the text
     * @return families in their order
     * @throws IllegalArgumentException on a line that is not of the format
     */
    static List<Family> parse(String text) {
        Map<String, Family> families = new LinkedHashMap<>();
        Map<String, String> help = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            if (line.isEmpty()) {
                continue;
            }
            if (line.startsWith("# HELP ")) {
                int sp = line.indexOf(' ', 7);
                String name = sp < 0 ? line.substring(7) : line.substring(7, sp);
                help.put(name, sp < 0 ? "" : unescape(line.substring(sp + 1)));
            } else if (line.startsWith("# TYPE ")) {
                String[] p = line.substring(7).split(" ");
                if (p.length != 2) {
                    throw new IllegalArgumentException("bad TYPE line: " + line);
                }
                families.put(p[0], new Family(p[0], p[1], help.getOrDefault(p[0], "")));
            } else if (!line.startsWith("#")) {
                sample(line, families);
            }
        }
        return new ArrayList<>(families.values());
    }

    private static void sample(String line, Map<String, Family> families) {
        int brace = line.indexOf('{');
        int sp = line.indexOf(' ');
        Map<String, String> labels = new LinkedHashMap<>();
        String name;
        int rest;
        if (brace >= 0 && (sp < 0 || brace < sp)) {
            name = line.substring(0, brace);
            rest = labels(line, brace + 1, labels);
        } else {
            if (sp < 0) {
                throw new IllegalArgumentException("sample without value: " + line);
            }
            name = line.substring(0, sp);
            rest = sp;
        }
        Family f = families.get(name);
        if (f == null) {
            throw new IllegalArgumentException("sample of undeclared family: " + line);
        }
        String[] v = line.substring(rest).trim().split(" ");
        f.samples.add(new Sample(labels, value(v[0])));
    }

    /** Reads {@code a="x",b="y"}} from {@code i}; returns the index after the closing brace. */
    private static int labels(String line, int i, Map<String, String> out) {
        while (i < line.length() && line.charAt(i) != '}') {
            int eq = line.indexOf("=\"", i);
            if (eq < 0) {
                throw new IllegalArgumentException("bad labels: " + line);
            }
            String name = line.substring(i, eq);
            StringBuilder v = new StringBuilder();
            int j = eq + 2;
            for (; j < line.length() && line.charAt(j) != '"'; j++) {
                char c = line.charAt(j);
                if (c == '\\' && j + 1 < line.length()) {
                    char n = line.charAt(++j);
                    v.append(n == 'n' ? '\n' : n);
                } else {
                    v.append(c);
                }
            }
            if (j >= line.length()) {
                throw new IllegalArgumentException("unterminated label value: " + line);
            }
            out.put(name, v.toString());
            i = j + 1;
            if (i < line.length() && line.charAt(i) == ',') {
                i++;
            }
        }
        if (i >= line.length()) {
            throw new IllegalArgumentException("unterminated labels: " + line);
        }
        return i + 1;
    }

    /** Help text escapes backslash and line feed only. */
    private static String unescape(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                char n = s.charAt(++i);
                b.append(n == 'n' ? '\n' : n);
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    private static double value(String v) {
        switch (v) {
            case "NaN":
                return Double.NaN;
            case "+Inf":
                return Double.POSITIVE_INFINITY;
            case "-Inf":
                return Double.NEGATIVE_INFINITY;
            default:
                return Double.parseDouble(v);
        }
    }
}
