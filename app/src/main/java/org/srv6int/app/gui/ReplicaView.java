package org.srv6int.app.gui;

import org.onosproject.net.DeviceId;

import java.util.Objects;

/**
 * One running replica of a vNF as the overlay draws it: the switch its worker
 * hangs off (where the switch measures its latency) and its measured tail latency.
 */
public final class ReplicaView {
    /** Marker for "no latency window yet". */
    public static final long UNKNOWN = -1;

    private final String name;
    private final String worker;
    private final DeviceId attachment;
    private final long p95Ns;

    /**
     * Creates a replica view.
     *
     * @param name       replica (pod) name
     * @param worker     Kubernetes worker the replica runs on
     * @param attachment switch the worker hangs off
     * @param p95Ns      95th percentile vNF latency in ns, or {@link #UNKNOWN}
     */
    public ReplicaView(String name, String worker, DeviceId attachment, long p95Ns) {
        this.name = Objects.requireNonNull(name, "name");
        this.worker = Objects.requireNonNull(worker, "worker");
        this.attachment = Objects.requireNonNull(attachment, "attachment");
        this.p95Ns = p95Ns < 0 ? UNKNOWN : p95Ns;
    }

    /** @return replica (pod) name */
    public String name() {
        return name;
    }

    /** @return worker node name */
    public String worker() {
        return worker;
    }

    /** @return switch the worker hangs off */
    public DeviceId attachment() {
        return attachment;
    }

    /** @return 95th percentile latency in ns, or {@link #UNKNOWN} */
    public long p95Ns() {
        return p95Ns;
    }
}
