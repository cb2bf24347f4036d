// SPDX-License-Identifier: Apache-2.0
package org.srv6int.tests.oar;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Minimal parser for OSGi manifest headers such as Import-Package and Export-Package.
 */
final class OsgiHeader {

    /** One package of a header clause with its attributes and directives. */
    static final class Entry {
        final String name;
        final Map<String, String> attributes;

        Entry(String name, Map<String, String> attributes) {
            this.name = name;
            this.attributes = attributes;
        }

        boolean optional() {
            return "optional".equals(attributes.get("resolution:"));
        }

        String version() {
            return attributes.get("version");
        }

        @Override
        public String toString() {
            return name + attributes;
        }
    }

    private OsgiHeader() {
    }

    /** Parses a header value into its package entries; null gives an empty list. */
    static List<Entry> parse(String header) {
        List<Entry> entries = new ArrayList<>();
        if (header == null) {
            return entries;
        }
        for (String clause : split(header, ',')) {
            List<String> parts = split(clause, ';');
            List<String> names = new ArrayList<>();
            Map<String, String> attrs = new LinkedHashMap<>();
            for (String part : parts) {
                String p = part.trim();
                int eq = p.indexOf('=');
                if (eq < 0) {
                    names.add(p);
                    continue;
                }
                // "dir:=v" keeps the colon in the key so directives and attributes differ.
                String key = p.substring(0, eq).trim();
                String value = p.substring(eq + 1).trim();
                if (value.startsWith("\"") && value.endsWith("\"") && value.length() >= 2) {
                    value = value.substring(1, value.length() - 1);
                }
                attrs.put(key, value);
            }
            for (String n : names) {
                if (!n.isEmpty()) {
                    entries.add(new Entry(n, attrs));
                }
            }
        }
        return entries;
    }

    // Splits on a separator that is not inside double quotes.
    private static List<String> split(String s, char sep) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"') {
                quoted = !quoted;
            }
            if (c == sep && !quoted) {
                out.add(cur.toString());
                cur.setLength(0);
            } else {
                cur.append(c);
            }
        }
        out.add(cur.toString());
        return out;
    }

    /** True when an exported version satisfies an import version range (OSGi semantics). */
    static boolean inRange(String range, String exported) {
        int[] v = version(exported == null ? "0.0.0" : exported);
        if (range == null || range.isEmpty()) {
            return true;
        }
        String r = range.trim();
        if (r.startsWith("[") || r.startsWith("(")) {
            boolean lowInclusive = r.charAt(0) == '[';
            boolean highInclusive = r.endsWith("]");
            String[] bounds = r.substring(1, r.length() - 1).split(",");
            int low = compare(v, version(bounds[0]));
            int high = compare(v, version(bounds[1]));
            return (lowInclusive ? low >= 0 : low > 0) && (highInclusive ? high <= 0 : high < 0);
        }
        return compare(v, version(r)) >= 0;
    }

    private static int[] version(String s) {
        String[] parts = s.trim().split("\\.");
        int[] v = new int[3];
        for (int i = 0; i < 3 && i < parts.length; i++) {
            String digits = parts[i].replaceAll("[^0-9].*$", "");
            v[i] = digits.isEmpty() ? 0 : Integer.parseInt(digits);
        }
        return v;
    }

    private static int compare(int[] a, int[] b) {
        for (int i = 0; i < 3; i++) {
            if (a[i] != b[i]) {
                return Integer.compare(a[i], b[i]);
            }
        }
        return 0;
    }
}
