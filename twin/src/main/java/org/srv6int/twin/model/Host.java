// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A Kubernetes worker: the NIC's NUMA node (10 cores, 11 LLC ways, the MBA and frequency
 * budgets of {@link Resource}) and the vNF pods on it. Pods start with the allocation the
 * scheduler gives them; afterwards an allocation changes only when the worker's kernel files
 * change ({@link org.srv6int.twin.host.SimulatedWorker#readBack()}).
 */
public final class Host {
    /** Busy cores of a type-1.0-aggressive neighbour that give full Table III interference. */
    static final double FULL_PRESSURE_CORES = 8.0;

    private final String name;
    private final String attachedSwitch;
    private final Map<String, VnfInstance> instances = new LinkedHashMap<>();

    /**
     * Creates a host.
     *
     * @param name node name (worker1)
     * @param attachedSwitch switch the server hangs off (sw2)
     */
    public Host(String name, String attachedSwitch) {
        this.name = name;
        this.attachedSwitch = attachedSwitch;
    }

    /** Node name. */
    public String name() {
        return name;
    }

    /** Switch this server hangs off. */
    public String attachedSwitch() {
        return attachedSwitch;
    }

    /**
     * Starts a pod; its allocation is what it asks for, clamped to what the pools have free (at
     * least a resource's minimum; the node agent fits the node's budgets when it restarts).
     */
    public VnfInstance addInstance(String vnf, VnfType type, Allocation wanted, double readyAtS) {
        Allocation a = wanted.copy();
        for (Resource r : Resource.values()) {
            a.set(r, Math.min(a.get(r), Math.max(r.min(), free(r))));
        }
        String id = vnf + "@" + name;
        for (int n = 2; instances.containsKey(id); n++) {
            id = vnf + "@" + name + "#" + n;
        }
        VnfInstance inst = new VnfInstance(id, vnf, type, this, a, wanted, readyAtS);
        instances.put(id, inst);
        return inst;
    }

    /**
     * Deletes a pod (its replica was scaled in); its resources return to the pools.
     *
     * @param id pod id
     * @return true if it existed
     */
    public boolean removeInstance(String id) {
        return instances.remove(id) != null;
    }

    /** Pods on this host, in creation order. */
    public List<VnfInstance> instances() {
        return Collections.unmodifiableList(new ArrayList<>(instances.values()));
    }

    /** Number of pods on this host (no copy: the node agent asks for every Detection Result). */
    public int instanceCount() {
        return instances.size();
    }

    /** A pod by id, or null. */
    public VnfInstance instance(String id) {
        return instances.get(id);
    }

    /** Amount of a resource not held by any pod. */
    public double free(Resource r) {
        double used = 0;
        for (VnfInstance i : instances.values()) {
            used += i.allocation().get(r);
        }
        return r.pool() - used;
    }

    /** Advances every pod by one tick; arrival rates must be set first. */
    void tick(double dtS, double nowS) {
        for (VnfInstance i : instances.values()) {
            i.prepare(nowS);
        }
        for (VnfInstance i : instances.values()) {
            double pressure = 0;
            for (VnfInstance j : instances.values()) {
                if (j != i) {
                    pressure += j.type().aggressiveness() * j.busyCores() / FULL_PRESSURE_CORES;
                }
            }
            i.advance(pressure, dtS, nowS);
        }
    }
}
