// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.metrics;

import org.srv6int.app.api.AppMetricsService;

import java.util.regex.Pattern;

/**
 * Writes the Prometheus text exposition format 0.0.4: one {@code # HELP} and {@code # TYPE} line
 * per family, then its samples. Label values are escaped; names are checked, so a typo fails the
 * first render (and its test), never a scrape's parser.
 */
final class TextExposition {

    /** Content type of the format. */
    static final String CONTENT_TYPE = AppMetricsService.CONTENT_TYPE;

    private static final Pattern NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Pattern LABEL = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");

    private final StringBuilder sb = new StringBuilder(16 * 1024);
    private String family;

    /**
     * Starts a family.
     *
     * @param name metric name
     * @param type counter or gauge
     * @param help one-line help
     * @return this
     */
    TextExposition family(String name, String type, String help) {
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("bad metric name " + name);
        }
        if (!"counter".equals(type) && !"gauge".equals(type)) {
            throw new IllegalArgumentException("unsupported type " + type);
        }
        if ("counter".equals(type) != name.endsWith("_total")) {
            throw new IllegalArgumentException("counter names end with _total, gauges' do not: " + name);
        }
        family = name;
        sb.append("# HELP ").append(name).append(' ')
                .append(help.replace("\\", "\\\\").replace("\n", "\\n")).append('\n');
        sb.append("# TYPE ").append(name).append(' ').append(type).append('\n');
        return this;
    }

    /**
     * Writes a sample of the current family.
     *
     * @param value  value
     * @param labels label names and values, alternating
     * @return this
     */
    TextExposition sample(double value, String... labels) {
        if (family == null) {
            throw new IllegalStateException("sample before family");
        }
        if (labels.length % 2 != 0) {
            throw new IllegalArgumentException("labels come in name/value pairs");
        }
        sb.append(family);
        if (labels.length > 0) {
            sb.append('{');
            for (int i = 0; i < labels.length; i += 2) {
                if (!LABEL.matcher(labels[i]).matches()) {
                    throw new IllegalArgumentException("bad label name " + labels[i]);
                }
                if (i > 0) {
                    sb.append(',');
                }
                sb.append(labels[i]).append("=\"").append(escape(labels[i + 1])).append('"');
            }
            sb.append('}');
        }
        sb.append(' ').append(format(value)).append('\n');
        return this;
    }

    static String escape(String v) {
        return v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    static String format(double v) {
        if (Double.isNaN(v)) {
            return "NaN";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "+Inf" : "-Inf";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return Double.toString(v); // shortest exact form; Prometheus parses 1.5E-5
    }

    @Override
    public String toString() {
        return sb.toString();
    }
}
