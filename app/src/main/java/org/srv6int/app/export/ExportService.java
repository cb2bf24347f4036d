// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.export;

import java.util.List;

/** The exports (Kafka, OTLP) as the metrics see them. */
public interface ExportService {

    /**
     * Returns the settings in force.
     *
     * @return settings (everything off by default)
     */
    ExportSettings settings();

    /**
     * Returns what the exports did with each kind of record since the app started (kept across
     * reconfigurations, so they behave as counters).
     *
     * @return stats by export and kind
     */
    List<ExportStats> stats();
}
