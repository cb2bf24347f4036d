// SPDX-License-Identifier: Apache-2.0
package org.srv6int.k8s.bridge;

import org.srv6int.k8s.rules.ReplicaRules;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One vNF replica the global loop wants: which chain and vNF, which replica,
 * on which node, with which image and resources. Immutable; validated on build.
 */
public final class ReplicaRequest {
    private final String chainId;
    private final int vnfIndex;
    private final String vnfType;
    private final int replicaIndex;
    private final String nodeName;
    private final String image;
    private final Map<String, String> requests;
    private final Map<String, String> limits;
    private final Map<String, String> annotations;
    private final Set<String> capabilities;

    private ReplicaRequest(Builder b) {
        this.chainId = b.chainId;
        this.vnfIndex = b.vnfIndex;
        this.vnfType = b.vnfType;
        this.replicaIndex = b.replicaIndex;
        this.nodeName = b.nodeName;
        this.image = b.image;
        this.requests = Collections.unmodifiableMap(new TreeMap<>(b.requests));
        this.limits = Collections.unmodifiableMap(new TreeMap<>(b.limits));
        this.annotations = Collections.unmodifiableMap(new TreeMap<>(b.annotations));
        this.capabilities = Collections.unmodifiableSet(new TreeSet<>(b.capabilities));
    }

    /**
     * Starts a builder.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Returns the chain identifier.
     *
     * @return chain id
     */
    public String chainId() {
        return chainId;
    }

    /**
     * Returns the index of the vNF in the chain.
     *
     * @return vNF index
     */
    public int vnfIndex() {
        return vnfIndex;
    }

    /**
     * Returns the vNF type (e.g. snort).
     *
     * @return vNF type
     */
    public String vnfType() {
        return vnfType;
    }

    /**
     * Returns the replica index.
     *
     * @return replica index
     */
    public int replicaIndex() {
        return replicaIndex;
    }

    /**
     * Returns the node the replica is pinned to.
     *
     * @return node name
     */
    public String nodeName() {
        return nodeName;
    }

    /**
     * Returns the container image.
     *
     * @return image
     */
    public String image() {
        return image;
    }

    /**
     * Returns the resource requests (resource name to quantity, e.g. cpu to 2).
     *
     * @return requests
     */
    public Map<String, String> requests() {
        return requests;
    }

    /**
     * Returns the resource limits.
     *
     * @return limits
     */
    public Map<String, String> limits() {
        return limits;
    }

    /**
     * Returns the replica's identity annotations ({@link ReplicaNames#ANNOTATION_SID} and the
     * others), which the node agent reads to wire and manage the pod; empty when no identity was
     * set.
     *
     * @return annotation name to value
     */
    public Map<String, String> annotations() {
        return annotations;
    }

    /**
     * Returns the Linux capabilities the vNF type's container needs (NET_RAW, NET_ADMIN,
     * NET_BIND_SERVICE); empty for most types, whose pods pass Pod Security restricted.
     *
     * @return capability names, sorted
     */
    public Set<String> capabilities() {
        return capabilities;
    }

    /**
     * Returns the deterministic name of this replica.
     *
     * @return StatefulSet name
     */
    public String name() {
        return ReplicaNames.replicaName(chainId, vnfIndex, replicaIndex);
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof ReplicaRequest)) {
            return false;
        }
        ReplicaRequest r = (ReplicaRequest) o;
        return vnfIndex == r.vnfIndex && replicaIndex == r.replicaIndex && chainId.equals(r.chainId)
                && vnfType.equals(r.vnfType) && nodeName.equals(r.nodeName) && image.equals(r.image)
                && requests.equals(r.requests) && limits.equals(r.limits)
                && annotations.equals(r.annotations) && capabilities.equals(r.capabilities);
    }

    @Override
    public int hashCode() {
        return Objects.hash(chainId, vnfIndex, vnfType, replicaIndex, nodeName, image, requests, limits, annotations,
                capabilities);
    }

    @Override
    public String toString() {
        return "ReplicaRequest{" + chainId + "/vnf" + vnfIndex + "(" + vnfType + ")/r" + replicaIndex
                + " on " + nodeName + ", image=" + image + ", requests=" + requests
                + ", limits=" + limits + (annotations.isEmpty() ? "" : ", annotations=" + annotations)
                + (capabilities.isEmpty() ? "" : ", capabilities=" + capabilities) + "}";
    }

    /** Builder of {@link ReplicaRequest}. */
    public static final class Builder {
        private String chainId;
        private int vnfIndex = -1;
        private String vnfType;
        private int replicaIndex = -1;
        private String nodeName;
        private String image;
        private final Map<String, String> requests = new TreeMap<>();
        private final Map<String, String> limits = new TreeMap<>();
        private final Map<String, String> annotations = new TreeMap<>();
        private final Set<String> capabilities = new TreeSet<>();

        private Builder() {
        }

        /**
         * Sets the replica's identity on the data plane: the SID its traffic arrives with and
         * the switch port its node hangs off. Written as pod annotations.
         *
         * @param sid          the replica's SID, an IPv6 address
         * @param switchDevice ONOS device id of the switch
         * @param switchPort   switch port number facing the node
         * @return this builder
         */
        public Builder identity(String sid, String switchDevice, long switchPort) {
            annotations.put(ReplicaNames.ANNOTATION_SID, sid);
            annotations.put(ReplicaNames.ANNOTATION_SWITCH_DEVICE, switchDevice);
            annotations.put(ReplicaNames.ANNOTATION_SWITCH_PORT, Long.toString(switchPort));
            return this;
        }

        /**
         * Sets the NUMA node the replica should run on.
         *
         * @param numaNode NUMA node, &gt;= 0
         * @return this builder
         */
        public Builder numaNode(int numaNode) {
            annotations.put(ReplicaNames.ANNOTATION_NUMA_NODE, Integer.toString(numaNode));
            return this;
        }

        /**
         * Sets what one replica of the vNF type needs besides CPU (its netcfg profile), written as
         * pod annotations the node agent holds for the pod until it manages it; 0 writes nothing.
         *
         * @param llcWays LLC ways, 0..64
         * @param memoryBandwidthPercent memory-bandwidth percent, 0..100
         * @return this builder
         */
        public Builder profile(long llcWays, long memoryBandwidthPercent) {
            annotations.putAll(ReplicaNames.profileAnnotations(llcWays, memoryBandwidthPercent));
            return this;
        }

        /**
         * Sets the chain identifier (a DNS label).
         *
         * @param v chain id
         * @return this builder
         */
        public Builder chainId(String v) {
            this.chainId = v;
            return this;
        }

        /**
         * Sets the vNF index.
         *
         * @param v vNF index
         * @return this builder
         */
        public Builder vnfIndex(int v) {
            this.vnfIndex = v;
            return this;
        }

        /**
         * Sets the vNF type.
         *
         * @param v vNF type
         * @return this builder
         */
        public Builder vnfType(String v) {
            this.vnfType = v;
            return this;
        }

        /**
         * Sets the replica index.
         *
         * @param v replica index
         * @return this builder
         */
        public Builder replicaIndex(int v) {
            this.replicaIndex = v;
            return this;
        }

        /**
         * Sets the node to pin the replica to.
         *
         * @param v node name
         * @return this builder
         */
        public Builder nodeName(String v) {
            this.nodeName = v;
            return this;
        }

        /**
         * Sets the container image.
         *
         * @param v image
         * @return this builder
         */
        public Builder image(String v) {
            this.image = v;
            return this;
        }

        /**
         * Adds a resource request.
         *
         * @param resource resource name (cpu, memory, ...)
         * @param quantity quantity (e.g. 2, 500m, 4Gi)
         * @return this builder
         */
        public Builder request(String resource, String quantity) {
            requests.put(resource, quantity);
            return this;
        }

        /**
         * Adds a resource limit.
         *
         * @param resource resource name (cpu, memory, ...)
         * @param quantity quantity (e.g. 2, 500m, 4Gi)
         * @return this builder
         */
        public Builder limit(String resource, String quantity) {
            limits.put(resource, quantity);
            return this;
        }

        /**
         * Adds a Linux capability the vNF type's container needs (NET_RAW, NET_ADMIN or
         * NET_BIND_SERVICE); every other capability is dropped.
         *
         * @param name capability name, without CAP_
         * @return this builder
         */
        public Builder capability(String name) {
            capabilities.add(name);
            return this;
        }

        /**
         * Validates and builds the request.
         *
         * @return the request
         * @throws IllegalArgumentException naming the first invalid field
         */
        public ReplicaRequest build() {
            ReplicaNames.replicaName(chainId, vnfIndex, replicaIndex);
            ReplicaRules.checkVnfType(vnfType);
            ReplicaNames.checkLabelValue("node name", nodeName);
            if (nodeName.isEmpty()) {
                throw new IllegalArgumentException("node name must not be empty");
            }
            ReplicaRules.checkImage(image);
            requests.forEach((r, q) -> ReplicaRules.checkQuantity("request", r, q));
            limits.forEach((r, q) -> ReplicaRules.checkQuantity("limit", r, q));
            ReplicaNames.checkIdentity(annotations);
            capabilities.forEach(ReplicaRules::checkCapability);
            return new ReplicaRequest(this);
        }
    }
}
