// SPDX-License-Identifier: Apache-2.0
package org.srv6int.k8s.bridge;

import org.srv6int.k8s.rules.ReplicaRules;

import java.util.TreeMap;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Deterministic names and labels of the objects the bridge owns. A replica is a
 * StatefulSet {@code sfc-<chain>-vnf<idx>-r<replica>} with one pod
 * ({@code <name>-0}); the same request always maps to the same name, which is what
 * makes creation idempotent.
 */
public final class ReplicaNames {

    /** Label: chain identifier. */
    public static final String LABEL_CHAIN = "srv6int.org/chain";
    /** Label: index of the vNF in the chain. */
    public static final String LABEL_VNF = "srv6int.org/vnf";
    /** Label: vNF type (e.g. snort). */
    public static final String LABEL_VNF_TYPE = "srv6int.org/vnf-type";
    /** Label: replica index. */
    public static final String LABEL_REPLICA = "srv6int.org/replica";
    /** Label marking objects the bridge manages. */
    public static final String LABEL_MANAGED_BY = "app.kubernetes.io/managed-by";
    /** Value of {@link #LABEL_MANAGED_BY}. */
    public static final String MANAGER = "srv6int-k8s-bridge";
    /** Annotation: the replica's SID (an IPv6 address), the DA its traffic arrives with. */
    public static final String ANNOTATION_SID = "srv6int.org/sid";
    /** Annotation: ONOS device id of the switch the replica's node is attached to. */
    public static final String ANNOTATION_SWITCH_DEVICE = "srv6int.org/switch-device";
    /** Annotation: the switch port (a number) facing the replica's node. */
    public static final String ANNOTATION_SWITCH_PORT = "srv6int.org/switch-port";
    /** Annotation, optional: NUMA node the replica should run on. */
    public static final String ANNOTATION_NUMA_NODE = "srv6int.org/numa-node";
    /**
     * Annotation, optional: LLC ways one replica of the vNF type needs (its netcfg profile); the
     * node agent holds them for the pod until it manages it.
     */
    public static final String ANNOTATION_LLC_WAYS = "srv6int.org/llc-ways";
    /** Annotation, optional: memory-bandwidth percent one replica needs (its profile), held likewise. */
    public static final String ANNOTATION_MEMORY_BANDWIDTH = "srv6int.org/memory-bandwidth-percent";
    /** Largest {@link #ANNOTATION_LLC_WAYS} (the bits of an L3 capacity bitmask). */
    public static final long MAX_LLC_WAYS = 64;
    /** Largest {@link #ANNOTATION_MEMORY_BANDWIDTH}. */
    public static final long MAX_MEMORY_BANDWIDTH = 100;
    /** Node label used for pinning. */
    public static final String HOSTNAME_LABEL = "kubernetes.io/hostname";

    /*
     * A StatefulSet's pods carry controller-revision-hash=<name>-<10 chars>, a label value
     * limited to 63 characters, so the name is limited to 52.
     */
    static final int MAX_NAME = 52;
    private static final Pattern IP6_CHARS = Pattern.compile("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");

    private ReplicaNames() {
    }

    /**
     * Name of a replica's StatefulSet.
     *
     * @param chainId chain identifier (a DNS label)
     * @param vnfIndex vNF index
     * @param replicaIndex replica index
     * @return the name
     * @throws IllegalArgumentException if the result would not be a valid name
     */
    public static String replicaName(String chainId, int vnfIndex, int replicaIndex) {
        checkChainId(chainId);
        if (vnfIndex < 0 || replicaIndex < 0) {
            throw new IllegalArgumentException("vNF index and replica index must be >= 0, got "
                    + vnfIndex + " and " + replicaIndex);
        }
        String name = "sfc-" + chainId + "-vnf" + vnfIndex + "-r" + replicaIndex;
        if (name.length() > MAX_NAME) {
            throw new IllegalArgumentException("replica name " + name + " is longer than "
                    + MAX_NAME + " characters; use a shorter chain id");
        }
        return name;
    }

    /**
     * Name of the single pod of a replica's StatefulSet.
     *
     * @param replicaName StatefulSet name
     * @return pod name
     */
    public static String podName(String replicaName) {
        return replicaName + "-0";
    }

    /**
     * Checks a chain identifier: a DNS label (lower-case letters, digits, '-').
     *
     * @param chainId chain identifier
     * @throws IllegalArgumentException if it is not one
     */
    public static void checkChainId(String chainId) {
        if (chainId == null || chainId.length() > 63 || !isDnsLabel(chainId)) {
            throw new IllegalArgumentException("chain id must be a DNS label "
                    + "([a-z0-9]([-a-z0-9]*[a-z0-9])?, at most 63 characters), got '" + chainId + "'");
        }
    }

    /** Whether a name has the characters of a DNS label (its length is the caller's to check). */
    static boolean isDnsLabel(String s) {
        return ReplicaRules.isDnsLabel(s);
    }

    /**
     * Checks identity annotations: a SID that is an IPv6 address, a non-empty switch device id,
     * a switch port in 0..2^32-1, a NUMA node &gt;= 0, LLC ways in 0..64 and a memory-bandwidth
     * percent in 0..100, each when present.
     *
     * @param annotations annotation name to value
     * @throws IllegalArgumentException naming the first invalid one
     */
    public static void checkIdentity(Map<String, String> annotations) {
        String sid = annotations.get(ANNOTATION_SID);
        if (sid != null && !isIp6(sid)) {
            throw new IllegalArgumentException(ANNOTATION_SID + " must be an IPv6 address, got '" + sid + "'");
        }
        String dev = annotations.get(ANNOTATION_SWITCH_DEVICE);
        if (dev != null && dev.isBlank()) {
            throw new IllegalArgumentException(ANNOTATION_SWITCH_DEVICE + " must not be empty");
        }
        checkRange(annotations, ANNOTATION_SWITCH_PORT, 0xFFFF_FFFFL);
        checkRange(annotations, ANNOTATION_NUMA_NODE, Integer.MAX_VALUE);
        checkRange(annotations, ANNOTATION_LLC_WAYS, MAX_LLC_WAYS);
        checkRange(annotations, ANNOTATION_MEMORY_BANDWIDTH, MAX_MEMORY_BANDWIDTH);
    }

    /**
     * The annotations of a vNF type's profile as the bridge writes them on a replica's pods: each
     * only when given (above 0).
     *
     * @param llcWays LLC ways
     * @param memoryBandwidthPercent memory-bandwidth percent
     * @return annotation name to value
     */
    public static Map<String, String> profileAnnotations(long llcWays, long memoryBandwidthPercent) {
        Map<String, String> m = new TreeMap<>();
        if (llcWays > 0) {
            m.put(ANNOTATION_LLC_WAYS, Long.toString(llcWays));
        }
        if (memoryBandwidthPercent > 0) {
            m.put(ANNOTATION_MEMORY_BANDWIDTH, Long.toString(memoryBandwidthPercent));
        }
        return m;
    }

    /**
     * Reads a numeric annotation as {@link #checkIdentity} checks it.
     *
     * @param annotations annotation name to value (null: none)
     * @param key annotation
     * @param max largest value
     * @return the value, 0 when absent
     * @throws IllegalArgumentException naming the annotation and its value when it is not a number in 0..max
     */
    public static long annotationValue(Map<String, String> annotations, String key, long max) {
        if (annotations == null || annotations.get(key) == null) {
            return 0;
        }
        checkRange(annotations, key, max);
        return Long.parseLong(annotations.get(key));
    }

    private static void checkRange(Map<String, String> annotations, String key, long max) {
        String v = annotations.get(key);
        if (v == null) {
            return;
        }
        long n;
        try {
            n = Long.parseLong(v);
        } catch (NumberFormatException e) {
            n = -1;
        }
        if (n < 0 || n > max) {
            throw new IllegalArgumentException(key + " must be a number in 0.." + max + ", got '" + v + "'");
        }
    }

    // A literal check only: InetAddress would resolve names.
    private static boolean isIp6(String s) {
        if (!IP6_CHARS.matcher(s).matches()) {
            return false;
        }
        try {
            return InetAddress.getByName(s) instanceof Inet6Address;
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /**
     * Checks a Kubernetes label value.
     *
     * @param what what the value is, for the message
     * @param value value
     * @throws IllegalArgumentException if it is not a valid label value
     */
    static void checkLabelValue(String what, String value) {
        ReplicaRules.checkLabelValue(what, value);
    }
}
