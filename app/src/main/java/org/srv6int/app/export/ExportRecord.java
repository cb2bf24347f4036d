// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.export;

import java.util.Locale;

/**
 * One record handed to an export: its kind (which selects the topic), a key (the chain, so a
 * chain's records stay in order on one partition) and a JSON value.
 */
public final class ExportRecord {

    /** Kinds of records, one topic each. */
    public enum Kind {
        /** Per-period summary of one chain. */
        CHAIN_SUMMARY("chain-summary"),
        /** Per-period summary of one vNF. */
        VNF_SUMMARY("vnf-summary"),
        /** One sampled decoded INT report. */
        INT_REPORT("int-report"),
        /** One push of every metric (OTLP; no topic). */
        METRICS("metrics");

        private final String topicSuffix;

        Kind(String topicSuffix) {
            this.topicSuffix = topicSuffix;
        }

        /** @return suffix of the kind's topic */
        public String topicSuffix() {
            return topicSuffix;
        }

        /** @return label value in metrics */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final Kind kind;
    private final String key;
    private final String value;

    /**
     * Creates a record.
     *
     * @param kind  kind
     * @param key   key
     * @param value JSON value
     */
    public ExportRecord(Kind kind, String key, String value) {
        this.kind = kind;
        this.key = key;
        this.value = value;
    }

    /** @return kind */
    public Kind kind() {
        return kind;
    }

    /** @return key */
    public String key() {
        return key;
    }

    /** @return JSON value */
    public String value() {
        return value;
    }
}
