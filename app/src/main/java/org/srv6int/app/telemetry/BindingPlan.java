// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.telemetry;

import org.srv6int.app.api.model.VnfKey;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a new set of hop bindings means for the engine, decided before any slot changes: which
 * chains take their new bindings and which are refused (one (hop, device) key of two different
 * vNFs: their INT metadata cannot be told apart), the vNFs, replicas and keys in use, the
 * replicas bound together because they share a key, and whether the engine's limits hold.
 */
final class BindingPlan {
    /** Per chain tag, the bindings the engine uses from now on. */
    final Map<Integer, List<HopBinding>> use = new LinkedHashMap<>();
    /** One message per refused chain. */
    final List<String> refused = new ArrayList<>();
    /** Bindings in use by (tag, hop, device) key. */
    final Map<Long, List<HopBinding>> byKey = new LinkedHashMap<>();
    /** vNFs in use. */
    final Map<VnfKey, Boolean> vnfs = new LinkedHashMap<>();
    /** Replicas in use ({@link #replicaKey}) to their vNF. */
    final Map<String, VnfKey> replicas = new LinkedHashMap<>();
    // union-find parent of a replica key; a root is its group's smallest key
    private final Map<String, String> parent = new HashMap<>();

    /**
     * Plans the bindings.
     *
     * @param all     every binding of every chain
     * @param applied the bindings in use now, per chain tag (a refused chain keeps them)
     * @param limits  the engine's limits
     * @throws IllegalArgumentException if a limit would be exceeded
     */
    BindingPlan(Collection<HopBinding> all, Map<Integer, List<HopBinding>> applied, TelemetryEngine.Limits limits) {
        Map<Integer, List<HopBinding>> byChain = new LinkedHashMap<>();
        for (HopBinding b : all) {
            byChain.computeIfAbsent(b.chainTag(), k -> new ArrayList<>()).add(b);
        }
        for (Map.Entry<Integer, List<HopBinding>> e : byChain.entrySet()) {
            String problem = conflict(e.getValue());
            if (problem == null) {
                use.put(e.getKey(), e.getValue());
                continue;
            }
            List<HopBinding> old = applied.get(e.getKey());
            refused.add("chain " + e.getKey() + ": " + problem + (old == null ? "; the chain stays unbound"
                    : "; the chain keeps its previous bindings"));
            if (old != null) {
                use.put(e.getKey(), old);
            }
        }
        for (List<HopBinding> l : use.values()) {
            for (HopBinding b : l) {
                byKey.computeIfAbsent(b.key(), k -> new ArrayList<>()).add(b);
                vnfs.put(b.vnf(), Boolean.TRUE);
                replicas.put(replicaKey(b), b.vnf());
            }
        }
        if (vnfs.size() > limits.maxVnfs || replicas.size() > limits.maxReplicas || use.size() > limits.maxChains) {
            throw new IllegalArgumentException("telemetry limits exceeded: vNFs " + vnfs.size() + "/" + limits.maxVnfs
                                                       + ", replicas " + replicas.size() + "/" + limits.maxReplicas
                                                       + ", chains " + use.size() + "/" + limits.maxChains
                                                       + " (raise netcfg " + raise(limits) + ")");
        }
        group();
    }

    /** A replica's key in {@link #replicas}: vNF and replica id. */
    static String replicaKey(HopBinding b) {
        return b.vnf() + "|" + b.replicaId();
    }

    /**
     * Returns the replica whose slot a replica's group counts in: the smallest key of the
     * replicas it shares a (chain, hop, device) key with, transitively (itself if none).
     *
     * @param replicaKey a key of {@link #replicas}
     * @return its group's representative
     */
    String representative(String replicaKey) {
        String r = replicaKey;
        for (String p = parent.get(r); p != null; p = parent.get(r)) {
            r = p;
        }
        return r;
    }

    private void group() {
        for (List<HopBinding> l : byKey.values()) {
            String first = representative(replicaKey(l.get(0)));
            for (int i = 1; i < l.size(); i++) {
                String other = representative(replicaKey(l.get(i)));
                if (!other.equals(first)) {
                    // The smaller key is the root, so the root is the group's representative.
                    if (other.compareTo(first) < 0) {
                        parent.put(first, other);
                        first = other;
                    } else {
                        parent.put(other, first);
                    }
                }
            }
        }
    }

    // The netcfg knobs to raise for these counts.
    private String raise(TelemetryEngine.Limits limits) {
        List<String> knobs = new ArrayList<>();
        if (vnfs.size() > limits.maxVnfs) {
            knobs.add("collector.maxVnfs");
        }
        if (replicas.size() > limits.maxReplicas) {
            knobs.add("collector.maxReplicas");
        }
        if (use.size() > limits.maxChains) {
            knobs.add("collector.maxChains");
        }
        return String.join(", ", knobs);
    }

    // Why a chain's bindings cannot be used: one (hop, device) of two different vNFs; null if fine.
    private static String conflict(List<HopBinding> chain) {
        Map<Long, HopBinding> byKey = new HashMap<>();
        for (HopBinding b : chain) {
            HopBinding prev = byKey.putIfAbsent(b.key(), b);
            if (prev != null && !prev.vnf().equals(b.vnf())) {
                return "INT metadata of " + prev.vnf() + "/" + prev.replicaId() + " and " + b.vnf() + "/"
                        + b.replicaId() + " cannot be told apart: different vNFs at hop " + b.hop()
                        + " of device " + b.deviceId();
            }
        }
        return null;
    }
}
