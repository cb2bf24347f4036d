// SPDX-License-Identifier: Apache-2.0
package org.srv6int.k8s.bridge.crd;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A chain as the app sees it after a sync: the status to write, the part of it whose change is
 * news (written within a window) as opposed to measurements that merely moved (written at most
 * every {@link ChainController.Settings#measurementInterval}) and the events to record.
 */
public final class ChainReport {

    private final Map<String, Object> status;
    private final String digest;
    private final List<ChainNote> notes;

    /**
     * Creates a report.
     *
     * @param status    the status subresource's body (maps, lists, strings, numbers, booleans)
     * @param digest    the status without its measurements (p95s): a change of it is written within
     *                  a window, a change of the measurements alone at most every measurement interval
     * @param notes     events to record, oldest first
     */
    public ChainReport(Map<String, Object> status, String digest, List<ChainNote> notes) {
        this.status = Objects.requireNonNull(status);
        this.digest = Objects.requireNonNull(digest);
        this.notes = List.copyOf(notes);
    }

    /**
     * Returns the status.
     *
     * @return status body
     */
    public Map<String, Object> status() {
        return status;
    }

    /**
     * Returns the digest.
     *
     * @return status without measurements, as text
     */
    public String digest() {
        return digest;
    }

    /**
     * Returns the events to record.
     *
     * @return notes
     */
    public List<ChainNote> notes() {
        return notes;
    }
}
