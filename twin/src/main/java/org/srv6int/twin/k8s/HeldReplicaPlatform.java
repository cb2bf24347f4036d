// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.k8s;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.NodeResources;
import org.srv6int.app.api.model.ReplicaInfo;
import org.srv6int.app.api.ReplicaPlatform;
import org.srv6int.twin.control.SimulatedTime;

/**
 * A {@link ReplicaPlatform} that works in wall time (a real control plane) seen from the
 * twin's simulated time. While a create or delete is in flight, {@link #advanceTo} sleeps so
 * that simulated time never runs ahead of the wall time since the operation began: a pod that
 * takes 3 s of wall time to become Ready then takes (at least) 3 s of simulated time too.
 * With nothing in flight there is no pacing and the twin runs as fast as it can. Overlapping
 * operations share one held period, from the first one's start until none is left. Results
 * are handed over on the thread that calls {@link #advanceTo} (the twin's runner), at a tick:
 * the control plane's client threads never run the loop or touch the model.
 *
 * <p>Also translates node names: the twin's workers ({@code model.Host} names) to the
 * control plane's nodes and back; nodes that stand for no worker of the current experiment
 * are not reported.
 */
final class HeldReplicaPlatform implements ReplicaPlatform, SimulatedTime {

    private final ReplicaPlatform inner;
    private final Object lock = new Object();
    private volatile Map<String, String> hostToNode;
    private volatile Map<String, String> nodeToHost;
    // Guarded by lock.
    private double simNowS;
    private int inFlight;
    private long heldSinceNanos;
    private double heldSinceSimS;
    private long sleptNanos;
    private final List<Runnable> arrived = new ArrayList<>();

    /**
     * Wraps a platform.
     *
     * @param inner      the platform working in wall time
     * @param hostToNode twin worker name to node name
     */
    HeldReplicaPlatform(ReplicaPlatform inner, Map<String, String> hostToNode) {
        this.inner = inner;
        useHosts(hostToNode);
    }

    /** Sets the workers of the current experiment (twin name to node name). */
    void useHosts(Map<String, String> hosts) {
        Map<String, String> back = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : hosts.entrySet()) {
            if (back.put(e.getValue(), e.getKey()) != null) {
                throw new IllegalArgumentException("two workers map to node " + e.getValue() + ": " + hosts);
            }
        }
        hostToNode = new LinkedHashMap<>(hosts);
        nodeToHost = back;
    }

    /** Workers of the current experiment. */
    Collection<String> hosts() {
        return hostToNode.keySet();
    }

    /** Wall time {@link #advanceTo} has spent holding simulated time back so far, seconds. */
    double heldSeconds() {
        synchronized (lock) {
            return sleptNanos / 1e9;
        }
    }

    /** Simulated time of the last {@link #advanceTo}, seconds. */
    double simNowS() {
        synchronized (lock) {
            return simNowS;
        }
    }

    @Override
    public void advanceTo(double nowS) {
        hold(nowS);
        List<Runnable> ready;
        synchronized (lock) {
            ready = new ArrayList<>(arrived);
            arrived.clear();
        }
        // outside the lock: the loop's callbacks may start the next operation
        ready.forEach(Runnable::run);
    }

    private void hold(double nowS) {
        synchronized (lock) {
            simNowS = nowS;
            while (inFlight > 0) {
                long ahead = Math.round((nowS - heldSinceSimS) * 1e9) - (System.nanoTime() - heldSinceNanos);
                if (ahead <= 0) {
                    return;
                }
                long t0 = System.nanoTime();
                try {
                    // Woken early when the last operation completes: from then on no pacing.
                    lock.wait(ahead / 1_000_000, (int) (ahead % 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                } finally {
                    sleptNanos += System.nanoTime() - t0;
                }
            }
        }
    }

    private <T> CompletionStage<T> held(Supplier<CompletionStage<T>> op) {
        synchronized (lock) {
            if (inFlight++ == 0) {
                heldSinceNanos = System.nanoTime();
                heldSinceSimS = simNowS;
            }
        }
        CompletionStage<T> s;
        try {
            s = op.get();
        } catch (RuntimeException e) {
            done();
            return CompletableFuture.failedFuture(e);
        }
        // The result waits for the runner's next tick (advanceTo hands it over there), so the
        // hold ends exactly when the caller sees it and never on a client thread.
        CompletableFuture<T> out = new CompletableFuture<>();
        s.whenComplete((v, e) -> {
            // one step: a result the runner can see is never still counted in flight
            synchronized (lock) {
                arrived.add(() -> {
                    if (e != null) {
                        out.completeExceptionally(e);
                    } else {
                        out.complete(v);
                    }
                });
                inFlight--;
                lock.notifyAll();
            }
        });
        return out;
    }

    private void done() {
        synchronized (lock) {
            inFlight--;
            lock.notifyAll();
        }
    }

    private String node(String host) {
        String n = hostToNode.get(host);
        if (n == null) {
            throw new IllegalArgumentException("no Kubernetes node stands for worker '" + host + "' (workers: "
                    + hostToNode.keySet() + ")");
        }
        return n;
    }

    private String host(String node) {
        String h = nodeToHost.get(node);
        return h == null ? node : h;
    }

    @Override
    public List<NodeResources> nodeFreeResources() {
        List<NodeResources> out = new ArrayList<>();
        for (NodeResources r : inner.nodeFreeResources()) {
            String h = nodeToHost.get(r.node());
            if (h != null) {
                out.add(new NodeResources(h, r.freeCpuMillis(), r.freeMemoryBytes()));
            }
        }
        return out;
    }

    @Override
    public CompletionStage<ReplicaInfo> createReplica(VnfKey vnf, String host, String requestId) {
        String node;
        try {
            node = node(host);
        } catch (IllegalArgumentException e) {
            return CompletableFuture.failedFuture(e);
        }
        return held(() -> inner.createReplica(vnf, node, requestId)
                .thenApply(r -> new ReplicaInfo(r.id(), host(r.node()), r.podIp())));
    }

    @Override
    public CompletionStage<Void> deleteReplica(VnfKey vnf, String replicaId) {
        return held(() -> inner.deleteReplica(vnf, replicaId));
    }
}
