package org.srv6int.app.export;

import java.util.Objects;

/** The exports' settings: each export is off while its part is null. */
public final class ExportSettings {

    /** Everything off. */
    public static final ExportSettings OFF = new ExportSettings(null);

    private final KafkaSettings kafka;

    /**
     * Creates settings.
     *
     * @param kafka Kafka export, null for off
     */
    public ExportSettings(KafkaSettings kafka) {
        this.kafka = kafka;
    }

    /** @return Kafka export settings, null if off */
    public KafkaSettings kafka() {
        return kafka;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ExportSettings && Objects.equals(kafka, ((ExportSettings) o).kafka);
    }

    @Override
    public int hashCode() {
        return Objects.hashCode(kafka);
    }

    @Override
    public String toString() {
        return kafka == null ? "kafka off" : kafka.toString();
    }
}
