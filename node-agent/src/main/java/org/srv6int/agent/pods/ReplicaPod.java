// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.pods;

import java.math.RoundingMode;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.Quantity;
import org.srv6int.agent.AgentConfig;
import org.srv6int.k8s.bridge.ReplicaNames;

import java.io.IOException;
import java.math.BigDecimal;
import java.util.Map;
import java.util.Objects;

/**
 * One replica pod as the agent needs it: identity, the labels and annotations the bridge
 * writes ({@link ReplicaNames}), and the container whose cgroup the agent adjusts (the
 * pod's first container). Immutable; parsed from a fabric8 {@link Pod} by {@link #parse}.
 */
public final class ReplicaPod {

    /**
     * Annotation, optional: Lmax of the replica in ns. Not (yet) written by the bridge; without it
     * the node-level {@code lmaxNs} applies.
     */
    public static final String ANNOTATION_LMAX_NS = "srv6int.org/lmax-ns";
    /** Annotation: {@value #OPT_OUT} here makes the agent leave the pod alone. */
    public static final String ANNOTATION_AGENT = "srv6int.org/node-agent";
    /** Value of {@link #ANNOTATION_AGENT} that opts a pod out. */
    public static final String OPT_OUT = "off";
    /** Annotation Multus writes once the pod's networks are attached: each interface's name and MAC. */
    public static final String ANNOTATION_NETWORK_STATUS = "k8s.v1.cni.cncf.io/network-status";
    /** Its name before Multus 4, read when the current one is absent. */
    public static final String ANNOTATION_NETWORKS_STATUS = "k8s.v1.cni.cncf.io/networks-status";

    private final String namespace;
    private final String name;
    private final String uid;
    private final String replicaName;
    private final String createdAt;
    private final int chainId;
    private final int vnfIndex;
    private final String vnfType;
    private final int replica;
    private final String sid;
    private final String switchDevice;
    private final int switchPort;
    private final int numaNode;
    private final long lmaxNs;
    private final String container;
    private final String containerId;
    private final String qosClass;
    private final long cpuLimitMillis;
    private final long cpuRequestMillis;
    private final long llcWays;
    private final long memoryBandwidthPercent;
    private final String networkStatus;

    private ReplicaPod(Pod pod, Map<String, String> labels, Map<String, String> ann, long lmaxNs,
                       Container c, String containerId) throws IOException {
        this.namespace = pod.getMetadata().getNamespace();
        this.name = pod.getMetadata().getName();
        this.uid = pod.getMetadata().getUid();
        String owner = null;
        if (pod.getMetadata().getOwnerReferences() != null) {
            for (io.fabric8.kubernetes.api.model.OwnerReference o : pod.getMetadata().getOwnerReferences()) {
                if ("StatefulSet".equals(o.getKind())) {
                    owner = o.getName();
                }
            }
        }
        this.replicaName = owner != null ? owner : name;
        this.createdAt = Objects.toString(pod.getMetadata().getCreationTimestamp(), "");
        this.chainId = intValue(labels, ReplicaNames.LABEL_CHAIN, "label", 0, Integer.MAX_VALUE);
        this.vnfIndex = intValue(labels, ReplicaNames.LABEL_VNF, "label", 0, Integer.MAX_VALUE);
        this.replica = intValue(labels, ReplicaNames.LABEL_REPLICA, "label", 0, Integer.MAX_VALUE);
        String type = labels.get(ReplicaNames.LABEL_VNF_TYPE);
        this.vnfType = type == null || type.isEmpty() ? "vnf" : type;
        this.sid = ann.get(ReplicaNames.ANNOTATION_SID);
        if (sid == null) {
            throw new IOException("annotation " + ReplicaNames.ANNOTATION_SID + " missing");
        }
        AgentConfig.parseSid(sid, "annotation " + ReplicaNames.ANNOTATION_SID);
        this.switchDevice = ann.get(ReplicaNames.ANNOTATION_SWITCH_DEVICE);
        if (switchDevice == null || switchDevice.isEmpty()) {
            throw new IOException("annotation " + ReplicaNames.ANNOTATION_SWITCH_DEVICE + " missing");
        }
        this.switchPort = intValue(ann, ReplicaNames.ANNOTATION_SWITCH_PORT, "annotation", 0, Integer.MAX_VALUE);
        this.numaNode = ann.containsKey(ReplicaNames.ANNOTATION_NUMA_NODE)
                ? intValue(ann, ReplicaNames.ANNOTATION_NUMA_NODE, "annotation", 0, 1023) : -1;
        this.lmaxNs = ann.containsKey(ANNOTATION_LMAX_NS)
                ? intValue(ann, ANNOTATION_LMAX_NS, "annotation", 1, Integer.MAX_VALUE) : lmaxNs;
        if (this.lmaxNs <= 0) {
            throw new IOException("no Lmax: annotation " + ANNOTATION_LMAX_NS + " missing and no node lmaxNs set");
        }
        this.container = c.getName();
        this.containerId = containerId;
        this.networkStatus = ann.containsKey(ANNOTATION_NETWORK_STATUS) ? ann.get(ANNOTATION_NETWORK_STATUS)
                : ann.get(ANNOTATION_NETWORKS_STATUS);
        this.qosClass = pod.getStatus() != null && pod.getStatus().getQosClass() != null
                ? pod.getStatus().getQosClass() : "";
        this.cpuLimitMillis = cpuMillis(c.getResources() == null ? null : c.getResources().getLimits());
        this.cpuRequestMillis = cpuMillis(c.getResources() == null ? null : c.getResources().getRequests());
        try { // read as Reservations reads them while the pod starts
            this.llcWays = ReplicaNames.annotationValue(ann, ReplicaNames.ANNOTATION_LLC_WAYS,
                    ReplicaNames.MAX_LLC_WAYS);
            this.memoryBandwidthPercent = ReplicaNames.annotationValue(ann, ReplicaNames.ANNOTATION_MEMORY_BANDWIDTH,
                    ReplicaNames.MAX_MEMORY_BANDWIDTH);
        } catch (IllegalArgumentException e) {
            throw new IOException("annotation " + e.getMessage(), e);
        }
    }

    /**
     * Whether a pod is ready to be managed: scheduled, running, every container ready and
     * the first container's id known (without it there is no cgroup to find).
     *
     * @param pod pod
     * @return true if the agent may start managing it
     */
    public static boolean ready(Pod pod) {
        if (pod.getStatus() == null || !"Running".equals(pod.getStatus().getPhase())
                || pod.getMetadata().getDeletionTimestamp() != null) {
            return false;
        }
        boolean ready = false;
        if (pod.getStatus().getConditions() != null) {
            for (PodCondition c : pod.getStatus().getConditions()) {
                if ("Ready".equals(c.getType())) {
                    ready = "True".equals(c.getStatus());
                }
            }
        }
        return ready && firstContainerId(pod) != null;
    }

    /**
     * Whether a pod opted out ({@link #ANNOTATION_AGENT} = {@value #OPT_OUT}).
     *
     * @param pod pod
     * @return true if the agent must leave it alone
     */
    public static boolean optedOut(Pod pod) {
        Map<String, String> ann = pod.getMetadata().getAnnotations();
        return ann != null && OPT_OUT.equals(ann.get(ANNOTATION_AGENT));
    }

    private static String firstContainerId(Pod pod) {
        if (pod.getSpec() == null || pod.getSpec().getContainers() == null || pod.getSpec().getContainers().isEmpty()
                || pod.getStatus().getContainerStatuses() == null) {
            return null;
        }
        String first = pod.getSpec().getContainers().get(0).getName();
        for (ContainerStatus s : pod.getStatus().getContainerStatuses()) {
            if (first.equals(s.getName()) && s.getContainerID() != null && !s.getContainerID().isEmpty()) {
                return s.getContainerID();
            }
        }
        return null;
    }

    /**
     * Reads a ready replica pod.
     *
     * @param pod pod (see {@link #ready})
     * @param defaultLmaxNs node-level Lmax when the pod has no {@link #ANNOTATION_LMAX_NS}; 0 for none
     * @return the replica
     * @throws IOException naming the first label or annotation that is missing or malformed
     */
    public static ReplicaPod parse(Pod pod, long defaultLmaxNs) throws IOException {
        Map<String, String> labels = pod.getMetadata().getLabels() == null ? Map.of() : pod.getMetadata().getLabels();
        Map<String, String> ann = pod.getMetadata().getAnnotations() == null ? Map.of()
                : pod.getMetadata().getAnnotations();
        String id = firstContainerId(pod);
        if (id == null) {
            throw new IOException("first container has no container id yet");
        }
        return new ReplicaPod(pod, labels, ann, defaultLmaxNs, pod.getSpec().getContainers().get(0), id);
    }

    private static int intValue(Map<String, String> m, String key, String what, int min, int max)
            throws IOException {
        String v = m.get(key);
        if (v == null) {
            throw new IOException(what + " " + key + " missing");
        }
        try {
            long x = Long.parseLong(v.trim());
            if (x < min || x > max) {
                throw new IOException(what + " " + key + "='" + v + "' outside [" + min + ", " + max + "]");
            }
            return (int) x;
        } catch (NumberFormatException e) {
            throw new IOException(what + " " + key + "='" + v + "' is not a number", e);
        }
    }

    /**
     * CPU of a requests/limits map in millicores.
     *
     * @param resources requests or limits, may be null
     * @return millicores, or -1 if no cpu entry
     */
    static long cpuMillis(Map<String, Quantity> resources) {
        if (resources == null || resources.get("cpu") == null) {
            return -1;
        }
        BigDecimal cores = Quantity.getAmountInBytes(resources.get("cpu"));
        return cores.movePointRight(3).setScale(0, RoundingMode.CEILING).longValueExact();
    }

    /**
     * Name of the vNF on this node (metrics label, resctrl group): type, chain, vNF index and
     * replica, within {@code [A-Za-z0-9_.-]{1,48}}.
     *
     * @return name
     */
    public String vnfName() {
        String t = vnfType.replaceAll("[^A-Za-z0-9_.-]", "_");
        String suffix = "-c" + chainId + "v" + vnfIndex + "r" + replica;
        return t.substring(0, Math.min(t.length(), 48 - suffix.length())) + suffix;
    }

    /**
     * The replica's name as the app knows it (its inventory and metrics): the pod's
     * StatefulSet, one per replica (docs/k8s-bridge.md); the pod's own name if it has none.
     *
     * @return replica name
     */
    public String replicaName() {
        return replicaName;
    }

    /** @return namespace */
    public String namespace() {
        return namespace;
    }

    /** @return pod name */
    public String name() {
        return name;
    }

    /** @return pod UID */
    public String uid() {
        return uid;
    }

    /** @return creation timestamp text (RFC 3339, sorts by time) */
    public String createdAt() {
        return createdAt;
    }

    /** @return SFC id (SRH tag) */
    public int chainId() {
        return chainId;
    }

    /** @return position of the vNF in its chain */
    public int vnfIndex() {
        return vnfIndex;
    }

    /** @return vNF type */
    public String vnfType() {
        return vnfType;
    }

    /** @return replica index */
    public int replica() {
        return replica;
    }

    /** @return the replica's SID (IPv6 text) */
    public String sid() {
        return sid;
    }

    /** @return ONOS device id of the switch facing the node */
    public String switchDevice() {
        return switchDevice;
    }

    /** @return switch port facing the node */
    public int switchPort() {
        return switchPort;
    }

    /** @return NUMA node asked for, -1 if none */
    public int numaNode() {
        return numaNode;
    }

    /** @return Lmax, ns */
    public long lmaxNs() {
        return lmaxNs;
    }

    /** @return name of the container the agent adjusts */
    public String container() {
        return container;
    }

    /** @return its container id as the API reports it (with runtime scheme) */
    public String containerId() {
        return containerId;
    }

    /** @return the pod's Multus network-status annotation (JSON), null if it has none */
    public String networkStatus() {
        return networkStatus;
    }

    /** @return QoS class (Guaranteed, Burstable, BestEffort; empty if not reported) */
    public String qosClass() {
        return qosClass;
    }

    /** @return the container's CPU limit in the pod spec, millicores, -1 if none */
    public long cpuLimitMillis() {
        return cpuLimitMillis;
    }

    /** @return the container's CPU request in the pod spec, millicores, -1 if none */
    public long cpuRequestMillis() {
        return cpuRequestMillis;
    }

    /** @return LLC ways its vNF type's profile asks for (annotation), 0 if none */
    public long llcWays() {
        return llcWays;
    }

    /** @return memory-bandwidth percent its vNF type's profile asks for (annotation), 0 if none */
    public long memoryBandwidthPercent() {
        return memoryBandwidthPercent;
    }

    /**
     * Whether another view of the same pod differs in what the agent manages it by (a
     * change of SID, container, Lmax, replica identity or network status means stop and start
     * again; the network status names the interface the pod is wired by).
     *
     * @param o the other view
     * @return true if the same managed identity
     */
    public boolean sameIdentity(ReplicaPod o) {
        return uid.equals(o.uid) && sid.equals(o.sid) && containerId.equals(o.containerId)
                && chainId == o.chainId && vnfIndex == o.vnfIndex && replica == o.replica
                && vnfType.equals(o.vnfType) && lmaxNs == o.lmaxNs && numaNode == o.numaNode
                && switchPort == o.switchPort && switchDevice.equals(o.switchDevice)
                && Objects.equals(networkStatus, o.networkStatus);
    }

    @Override
    public String toString() {
        return namespace + "/" + name + " (" + vnfName() + ", sid " + sid + ")";
    }

    /**
     * This pod as a vNF entry of the agent's config (the local loop's view of it).
     *
     * @return a new entry
     */
    public AgentConfig.Vnf toVnf() {
        AgentConfig.Vnf v = new AgentConfig.Vnf();
        v.name = vnfName();
        v.sid = sid();
        v.chainId = chainId();
        v.vnfIndex = vnfIndex();
        v.lmaxNs = lmaxNs();
        v.podUid = uid();
        v.containerId = containerId();
        v.cpuRequestMillis = cpuRequestMillis() >= 0 ? cpuRequestMillis() : null; // kept when cutting to fit
        return v;
    }
}
