// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.export;

import java.util.Objects;

/** The exports' settings: each export is off while its part is null. */
public final class ExportSettings {

    /** Everything off. */
    public static final ExportSettings OFF = new ExportSettings(null, null);

    private final KafkaSettings kafka;
    private final OtlpSettings otlp;

    /**
     * Creates settings.
     *
     * @param kafka Kafka export, null for off
     * @param otlp  OTLP push of the metrics, null for off
     */
    public ExportSettings(KafkaSettings kafka, OtlpSettings otlp) {
        this.kafka = kafka;
        this.otlp = otlp;
    }

    /** @return Kafka export settings, null if off */
    public KafkaSettings kafka() {
        return kafka;
    }

    /** @return OTLP push settings, null if off */
    public OtlpSettings otlp() {
        return otlp;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ExportSettings && Objects.equals(kafka, ((ExportSettings) o).kafka)
                && Objects.equals(otlp, ((ExportSettings) o).otlp);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kafka, otlp);
    }

    @Override
    public String toString() {
        return (kafka == null ? "kafka off" : kafka.toString()) + ", " + (otlp == null ? "otlp off" : otlp.toString());
    }
}
