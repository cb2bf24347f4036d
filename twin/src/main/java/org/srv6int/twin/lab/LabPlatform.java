// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.lab;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import org.srv6int.app.api.ReplicaPlatform;
import org.srv6int.app.api.model.NodeResources;
import org.srv6int.app.api.model.ReplicaInfo;
import org.srv6int.app.api.model.VnfKey;

/**
 * The lab's replica platform: no Kubernetes runs here, so a replica request is recorded (when,
 * which vNF, which node) and left pending, as a pod that has not started yet; Worker 2 offers
 * two cores. The global loop's request is the scenario's outcome; the lab checks it arrives once.
 */
final class LabPlatform implements ReplicaPlatform {

    /** One replica request. */
    static final class Request {
        final long timeMs;
        final VnfKey vnf;
        final String node;
        final String requestId;

        Request(long timeMs, VnfKey vnf, String node, String requestId) {
            this.timeMs = timeMs;
            this.vnf = vnf;
            this.node = node;
            this.requestId = requestId;
        }
    }

    private final List<Request> requests = new ArrayList<>();

    @Override
    public List<NodeResources> nodeFreeResources() {
        return List.of(new NodeResources("worker2", 2000, 4L << 30));
    }

    @Override
    public synchronized CompletionStage<ReplicaInfo> createReplica(VnfKey vnf, String node, String requestId) {
        requests.add(new Request(System.currentTimeMillis(), vnf, node, requestId));
        System.err.println("lab platform: replica requested for " + vnf + " on " + node + " (" + requestId + ")");
        return new CompletableFuture<>();
    }

    @Override
    public CompletionStage<Void> deleteReplica(VnfKey vnf, String replicaId) {
        return CompletableFuture.completedFuture(null);
    }

    synchronized List<Request> requests() {
        return new ArrayList<>(requests);
    }
}
