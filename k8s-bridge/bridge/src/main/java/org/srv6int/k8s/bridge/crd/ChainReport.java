// SPDX-License-Identifier: Apache-2.0
package org.srv6int.k8s.bridge.crd;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A chain as the app sees it after a sync: the status to write, the part of it whose change is
 * news (written within a window) as opposed to measurements that merely moved (written at most
 * every {@link ChainController.Settings#measurementInterval}), the replicas' workloads (adopted by
 * the object) and the events to record.
 */
public final class ChainReport {

    private final Map<String, Object> status;
    private final String digest;
    private final Set<String> workloads;
    private final List<ChainNote> notes;

    /**
     * Creates a report.
     *
     * @param status    the status subresource's body (maps, lists, strings, numbers, booleans)
     * @param digest    the status without its measurements (p95s): a change of it is written within
     *                  a window, a change of the measurements alone at most every measurement interval
     * @param workloads the chain's replica workloads (StatefulSet names) in the object's namespace
     * @param notes     events to record, oldest first
     */
    public ChainReport(Map<String, Object> status, String digest, Set<String> workloads, List<ChainNote> notes) {
        this.status = Objects.requireNonNull(status);
        this.digest = Objects.requireNonNull(digest);
        this.workloads = Set.copyOf(workloads);
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
     * Returns the replica workloads.
     *
     * @return StatefulSet names
     */
    public Set<String> workloads() {
        return workloads;
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
