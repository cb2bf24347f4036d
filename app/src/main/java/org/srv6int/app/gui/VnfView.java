// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.gui;

import com.google.common.collect.ImmutableList;

import java.util.List;
import java.util.Objects;

/**
 * One vNF of a chain as the overlay draws it: its bound Lmax, its measured tail
 * latency (p95 over the latest window, all replicas together) and its replicas.
 */
public final class VnfView {
    /** Marker for "no latency window yet". */
    public static final long UNKNOWN = -1;

    private final String id;
    private final String type;
    private final long lmaxNs;
    private final long p95Ns;
    private final List<ReplicaView> replicas;

    /**
     * Creates a vNF view.
     *
     * @param id       vNF key ("chain/index")
     * @param type     vNF type (Fwd, Snort, nDPI, ntopng)
     * @param lmaxNs   latency bound Lmax in ns (must be positive)
     * @param p95Ns    95th percentile vNF latency in ns, or {@link #UNKNOWN}
     * @param replicas replicas
     */
    public VnfView(String id, String type, long lmaxNs, long p95Ns, List<ReplicaView> replicas) {
        this.id = Objects.requireNonNull(id, "id");
        this.type = Objects.requireNonNull(type, "type");
        if (lmaxNs <= 0) {
            throw new IllegalArgumentException("Lmax of " + id + " must be positive: " + lmaxNs);
        }
        this.lmaxNs = lmaxNs;
        this.p95Ns = p95Ns < 0 ? UNKNOWN : p95Ns;
        this.replicas = ImmutableList.copyOf(replicas);
    }

    /** @return vNF key */
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

    /** @return 95th percentile latency in ns, or {@link #UNKNOWN} */
    public long p95Ns() {
        return p95Ns;
    }

    /** @return replicas */
    public List<ReplicaView> replicas() {
        return replicas;
    }

    /** @return the slack colour class of this vNF */
    public SlackLevel level() {
        return SlackLevel.of(p95Ns, lmaxNs);
    }
}
