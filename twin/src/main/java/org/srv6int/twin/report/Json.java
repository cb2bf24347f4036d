// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.report;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.Formatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * summary.json through Jackson: a value made of Map, List, String, Number, Boolean and null
 * becomes a JSON tree, with fractional numbers rounded to at most 3 decimals (as in the CSV
 * files) and NaN or infinities written as null.
 */
public final class Json {
    private static final JsonNodeFactory NODES = JsonNodeFactory.withExactBigDecimals(true);
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN);

    private Json() {
    }

    /**
     * Serialises a value, indented, with a final newline.
     *
     * @param v maps, lists, strings, numbers, booleans and nulls
     * @return JSON text
     */
    public static String write(Object v) {
        try {
            return MAPPER.writeValueAsString(tree(v)) + "\n";
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Converts a value to a JSON tree.
     *
     * @param v maps, lists, strings, numbers, booleans and nulls
     * @return tree
     */
    static JsonNode tree(Object v) {
        if (v == null) {
            return NODES.nullNode();
        } else if (v instanceof Map) {
            ObjectNode o = NODES.objectNode();
            for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                o.set(String.valueOf(e.getKey()), tree(e.getValue()));
            }
            return o;
        } else if (v instanceof List) {
            ArrayNode a = NODES.arrayNode();
            for (Object x : (List<?>) v) {
                a.add(tree(x));
            }
            return a;
        } else if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            return Double.isNaN(d) || Double.isInfinite(d) ? NODES.nullNode()
                    : NODES.numberNode(new BigDecimal(num(d)));
        } else if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return NODES.numberNode(((Number) v).intValue());
        } else if (v instanceof Long) {
            return NODES.numberNode((Long) v);
        } else if (v instanceof Number) {
            return NODES.numberNode(new BigDecimal(v.toString()));
        } else if (v instanceof Boolean) {
            return NODES.booleanNode((Boolean) v);
        }
        return NODES.textNode(v.toString());
    }

    /**
     * A number with at most 3 decimals, no exponent (the CSV files use it too).
     *
     * @param d number
     * @return text
     */
    public static String num(double d) {
        if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            return Long.toString((long) d); // what "%.3f" and the trimming give for a whole number (-0 too)
        }
        // the same digits as String.format("%.3f"), on a formatter kept per thread, trimmed by
        // hand: the CSV files hold a number per chain per 100 ms, and a new formatter and two
        // regular expressions per number were a tenth of a scale run's CPU time
        StringBuilder b = FORMAT_BUFFER.get();
        b.setLength(0);
        FORMATTER.get().format("%.3f", d);
        int end = b.length();
        if (b.indexOf(".") >= 0) {
            while (b.charAt(end - 1) == '0') {
                end--;
            }
            if (b.charAt(end - 1) == '.') {
                end--;
            }
        }
        String s = b.substring(0, end);
        return s.equals("-0") ? "0" : s;
    }

    private static final ThreadLocal<StringBuilder> FORMAT_BUFFER = ThreadLocal.withInitial(StringBuilder::new);
    private static final ThreadLocal<Formatter> FORMATTER =
            ThreadLocal.withInitial(() -> new Formatter(FORMAT_BUFFER.get(), Locale.ROOT));
}
