// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api;

import org.srv6int.app.api.model.SampledReport;

/**
 * Where the collector hands sampled decoded INT reports (the per-report export). Each receive
 * thread samples on its own: one accepted report in {@link #sampleEvery()}, at most its share of
 * {@link #maxPerSecond()}; only a sampled report is copied out of the codec's view. {@link #offer}
 * runs on a receive thread: it must not block, log or throw.
 */
public interface ReportTap {

    /** @return sample one accepted report in this many (1: every one) */
    int sampleEvery();

    /** @return cap on sampled reports per second, over all receive threads */
    int maxPerSecond();

    /**
     * Takes a sampled report; never blocks (a full queue drops it and counts it).
     *
     * @param report the report, owned by the tap from now on
     */
    void offer(SampledReport report);
}
