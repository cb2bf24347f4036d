package org.srv6int.app.gui;

import com.google.common.collect.ImmutableList;

import java.util.List;
import java.util.Objects;

/**
 * One vNF of a chain as the overlay draws it: its bound Lmax and its replicas.
 */
public final class VnfView {
    private final String id;
    private final String type;
    private final long lmaxNs;
    private final List<ReplicaView> replicas;

    /**
     * Creates a vNF view.
     *
     * @param id       vNF id (e.g. "vnf-1")
     * @param type     vNF type (Fwd, Snort, nDPI, ntopng)
     * @param lmaxNs   latency bound Lmax in ns (must be positive)
     * @param replicas running replicas, first is the original instance
     */
    public VnfView(String id, String type, long lmaxNs, List<ReplicaView> replicas) {
        this.id = Objects.requireNonNull(id, "id");
        this.type = Objects.requireNonNull(type, "type");
        if (lmaxNs <= 0) {
            throw new IllegalArgumentException("Lmax of " + id + " must be positive: " + lmaxNs);
        }
        this.lmaxNs = lmaxNs;
        this.replicas = ImmutableList.copyOf(replicas);
    }

    /** @return vNF id */
    public String id() {
        return id;
    }

    /** @return vNF type */
    public String type() {
        return type;
    }

    /** @return latency bound in ns */
    public long lmaxNs() {
        return lmaxNs;
    }

    /** @return replicas, first is the original instance */
    public List<ReplicaView> replicas() {
        return replicas;
    }

    /**
     * Tail latency of the vNF: the worst p95 over its replicas, since the
     * chain's bound holds only if every replica keeps it.
     *
     * @return worst replica p95 in ns, or {@link ReplicaView#UNKNOWN}
     */
    public long p95Ns() {
        long worst = ReplicaView.UNKNOWN;
        for (ReplicaView r : replicas) {
            worst = Math.max(worst, r.p95Ns());
        }
        return worst;
    }
}
