package org.srv6int.twin.control;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.srv6int.twin.model.Allocation;
import org.srv6int.twin.model.Chain;
import org.srv6int.twin.model.Fabric;
import org.srv6int.twin.model.Host;
import org.srv6int.twin.model.Resource;
import org.srv6int.twin.model.VnfInstance;

/**
 * Stand-in for placement + replica manager + flow programming: puts new replicas on the worker
 * with the most free CPU on its NIC's NUMA node (the paper's "most available IT resources"),
 * starts their pods with a start-up delay (what KWOK stages give the real control plane), and
 * once a pod is ready re-routes every chain through it with equal-weight multipath.
 */
public final class Orchestrator {
    /** Pod start-up delay of a new replica (scheduling, image present, container start). */
    public static final double POD_STARTUP_S = 3.0;

    private final Fabric fabric;
    private final Map<String, Allocation> replicaTemplate = new LinkedHashMap<>();
    private final List<String> events = new ArrayList<>();
    private final List<VnfInstance> pending = new ArrayList<>();

    /** Orchestrates a fabric. */
    public Orchestrator(Fabric fabric) {
        this.fabric = fabric;
    }

    /** Allocation a new replica of a vNF asks for. */
    public void setReplicaTemplate(String vnf, Allocation a) {
        replicaTemplate.put(vnf, a.copy());
    }

    /** Replicas of a logical vNF (ready or starting). */
    public List<VnfInstance> replicas(String vnf) {
        List<VnfInstance> out = new ArrayList<>();
        for (VnfInstance i : fabric.instances()) {
            if (i.vnf().equals(vnf)) {
                out.add(i);
            }
        }
        return out;
    }

    /** Ready replicas of a logical vNF. */
    public int readyReplicas(String vnf, double nowS) {
        int n = 0;
        for (VnfInstance i : replicas(vnf)) {
            if (i.ready(nowS)) {
                n++;
            }
        }
        return n;
    }

    /** Log lines (time, what). */
    public List<String> events() {
        return List.copyOf(events);
    }

    /** Scales a vNF to n replicas (never down). Returns the replicas started. */
    public List<VnfInstance> scaleTo(String vnf, int n, double nowS) {
        List<VnfInstance> have = replicas(vnf);
        List<VnfInstance> started = new ArrayList<>();
        if (have.isEmpty()) {
            return started;
        }
        VnfInstance proto = have.get(0);
        for (int k = have.size(); k < n; k++) {
            Host best = null;
            for (Host h : fabric.hosts()) {
                if (best == null || h.free(Resource.CPU_QUOTA) > best.free(Resource.CPU_QUOTA)) {
                    best = h;
                }
            }
            Allocation want = replicaTemplate.getOrDefault(vnf, proto.allocation());
            VnfInstance inst = best.addInstance(vnf, proto.type(), want, nowS + POD_STARTUP_S);
            pending.add(inst);
            started.add(inst);
            events.add(String.format(java.util.Locale.ROOT, "%.1f s: start %s on %s", nowS, inst.id(),
                    best.name()));
        }
        return started;
    }

    /** Called every tick: re-routes chains when a pending replica becomes ready. */
    public void tick(double nowS) {
        boolean changed = false;
        for (int k = pending.size() - 1; k >= 0; k--) {
            if (pending.get(k).ready(nowS)) {
                events.add(String.format(java.util.Locale.ROOT, "%.1f s: %s ready, re-route", nowS,
                        pending.get(k).id()));
                pending.remove(k);
                changed = true;
            }
        }
        if (changed) {
            routeAll(nowS);
        }
    }

    /** Routes every chain over all ready replicas of its vNFs, evenly (weighted multipath). */
    public void routeAll(double nowS) {
        for (Chain c : fabric.chains()) {
            List<List<VnfInstance>> perVnf = new ArrayList<>();
            for (String v : c.vnfs()) {
                List<VnfInstance> ready = new ArrayList<>();
                for (VnfInstance i : replicas(v)) {
                    if (i.ready(nowS)) {
                        ready.add(i);
                    }
                }
                perVnf.add(ready);
            }
            List<Chain.Path> paths = new ArrayList<>();
            expand(perVnf, 0, new ArrayList<>(), 1.0, paths);
            c.setPaths(paths);
        }
    }

    private static void expand(List<List<VnfInstance>> perVnf, int k, List<VnfInstance> prefix, double w,
                               List<Chain.Path> out) {
        if (k == perVnf.size()) {
            out.add(new Chain.Path(w, prefix));
            return;
        }
        List<VnfInstance> opts = perVnf.get(k);
        for (VnfInstance i : opts) {
            List<VnfInstance> next = new ArrayList<>(prefix);
            next.add(i);
            expand(perVnf, k + 1, next, w / opts.size(), out);
        }
    }
}
