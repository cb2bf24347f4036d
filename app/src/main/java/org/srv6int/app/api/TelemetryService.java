// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api;

import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.SfcTelemetry;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfTelemetry;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Read side of the INT collector: per-chain and per-vNF figures and the
 * collector's counters. Implemented by org.srv6int.app.telemetry.
 */
public interface TelemetryService {

    /** Counter name: INT reports received. */
    String REPORTS_RECEIVED = "reportsReceived";
    /** Counter name: reports that failed to decode. */
    String REPORTS_MALFORMED = "reportsMalformed";
    /** Counter name: reports missing according to the reporters' sequence numbers. */
    String REPORTS_LOST = "reportsLost";
    /** Counter name: reports whose SRH Tag names no known chain. */
    String REPORTS_UNKNOWN_CHAIN = "reportsUnknownChain";

    /**
     * Returns what is known about a chain.
     *
     * @param sfcId chain id
     * @return snapshot, or empty if no report for it arrived yet
     */
    Optional<SfcTelemetry> sfcTelemetry(SfcId sfcId);

    /**
     * Returns what is known about each vNF of a chain.
     *
     * @param sfcId chain id
     * @return snapshots in vNF order; vNFs without samples are left out
     */
    List<VnfTelemetry> vnfTelemetry(SfcId sfcId);

    /**
     * Returns what is known about one vNF.
     *
     * @param vnf vNF key
     * @return snapshot, or empty if no sample arrived yet
     */
    Optional<VnfTelemetry> vnfTelemetry(VnfKey vnf);

    /**
     * Returns the collector's counters; at least the names defined in this
     * interface, maybe more.
     *
     * @return counter name to value
     */
    Map<String, Long> counters();
}
