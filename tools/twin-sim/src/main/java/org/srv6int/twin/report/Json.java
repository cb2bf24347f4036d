package org.srv6int.twin.report;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/** A tiny JSON writer for summary.json (maps, lists, strings, numbers, null for NaN). */
public final class Json {
    private Json() {
    }

    /** Serialises a value made of Map, List, String, Number, Boolean and null, indented. */
    public static String write(Object v) {
        StringBuilder sb = new StringBuilder();
        write(sb, v, 0);
        sb.append('\n');
        return sb.toString();
    }

    private static void write(StringBuilder sb, Object v, int ind) {
        if (v == null) {
            sb.append("null");
        } else if (v instanceof Map) {
            Map<?, ?> m = (Map<?, ?>) v;
            if (m.isEmpty()) {
                sb.append("{}");
                return;
            }
            sb.append("{\n");
            int k = 0;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                indent(sb, ind + 1);
                string(sb, String.valueOf(e.getKey()));
                sb.append(": ");
                write(sb, e.getValue(), ind + 1);
                sb.append(++k < m.size() ? ",\n" : "\n");
            }
            indent(sb, ind);
            sb.append('}');
        } else if (v instanceof List) {
            List<?> l = (List<?>) v;
            boolean flat = l.stream().allMatch(x -> x == null || x instanceof Number || x instanceof List);
            sb.append('[');
            for (int i = 0; i < l.size(); i++) {
                if (!flat) {
                    sb.append('\n');
                    indent(sb, ind + 1);
                }
                write(sb, l.get(i), ind + 1);
                if (i + 1 < l.size()) {
                    sb.append(flat ? ", " : ",");
                }
            }
            if (!flat && !l.isEmpty()) {
                sb.append('\n');
                indent(sb, ind);
            }
            sb.append(']');
        } else if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            sb.append(Double.isNaN(d) || Double.isInfinite(d) ? "null" : num(d));
        } else if (v instanceof Number || v instanceof Boolean) {
            sb.append(v);
        } else {
            string(sb, v.toString());
        }
    }

    /**
     * A number with at most 3 decimals, no exponent.
     *
     * @param d value
     * @return text
     */
    public static String num(double d) {
        String s = String.format(Locale.ROOT, "%.3f", d);
        if (s.contains(".")) {
            s = s.replaceAll("0+$", "").replaceAll("\\.$", "");
        }
        return s.equals("-0") ? "0" : s;
    }

    private static void string(StringBuilder sb, String s) {
        sb.append('"');
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c < 0x20) {
                sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        sb.append('"');
    }

    private static void indent(StringBuilder sb, int n) {
        for (int i = 0; i < n; i++) {
            sb.append("  ");
        }
    }
}
