// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.wiring;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.srv6int.agent.pods.ReplicaPod;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Finds the host side of a pod's network interface by netlink, from the host's network
 * namespace, with {@code CAP_NET_ADMIN} only: the pod's interface MAC is the one Multus
 * writes in the pod's {@code k8s.v1.cni.cncf.io/network-status} annotation; the host veths
 * ({@code RTM_GETLINK} dump) whose peer lives in another namespace name it by nsid and
 * ifindex ({@code IFLA_LINK_NETNSID}, {@code IFLA_LINK}); the kernel is asked for each such
 * peer's name and MAC inside its namespace ({@code IFLA_TARGET_NETNSID}); the host veth
 * whose peer has the pod interface's name and MAC is the one. No host PIDs, no
 * {@code /proc/<pid>/root}, no {@code CAP_SYS_PTRACE}; measured in docs/security.md.
 *
 * <p>Works for every CNI that gives the pod a veth with its peer on the host (bridge, ptp,
 * Calico, Cilium in veth mode, ovs-cni; a Multus secondary network by its pod-side name,
 * e.g. {@code net1}); not for interfaces moved into the pod (SR-IOV VFs, macvlan, ipvlan),
 * which have no host side to wire. The kernel gives a peer namespace an nsid when a veth
 * between the two is made or moved, and at the latest when a dump reports the link
 * ({@code rtnl_fill_link_netnsid} allocates it), so a pod's veth always carries one here.
 */
public final class PodInterfaces {

    /** Why a lookup failed (the metric's {@code reason} label). */
    public enum Failure {
        /** No network-status annotation, or it names no MAC for the pod interface. */
        NO_NETWORK_STATUS,
        /** No host veth whose peer is the pod interface with that MAC. */
        NO_PEER,
        /** More than one (the same MAC on two pods' interfaces). */
        AMBIGUOUS,
        /** The kernel refused or netlink failed (EACCES without CAP_NET_ADMIN). */
        NETLINK;

        /**
         * The metric label.
         *
         * @return lower-case name
         */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** A failed lookup, with its reason. */
    public static final class LookupException extends IOException {
        private static final long serialVersionUID = 1L;
        private final Failure failure;

        LookupException(Failure failure, String message, Throwable cause) {
            super(message, cause);
            this.failure = failure;
        }

        /**
         * Why.
         *
         * @return reason
         */
        public Failure failure() {
            return failure;
        }
    }

    private static final String ANN = ReplicaPod.ANNOTATION_NETWORK_STATUS;
    private static final Pattern IFNAME = Pattern.compile("[A-Za-z0-9_.-]{1,15}");
    private static final Pattern MAC = Pattern.compile("[0-9a-f]{2}(:[0-9a-f]{2}){5}");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String podInterface;

    /**
     * Creates a finder.
     *
     * @param podInterface the replica's interface name inside the pod ({@code eth0}, or a
     *     secondary network's name)
     */
    public PodInterfaces(String podInterface) {
        if (podInterface == null || !IFNAME.matcher(podInterface).matches()) {
            throw new IllegalArgumentException("pod interface is not an interface name: " + podInterface);
        }
        this.podInterface = podInterface;
    }

    /**
     * The pod-side interface name looked for.
     *
     * @return name
     */
    public String podInterface() {
        return podInterface;
    }

    /**
     * The MAC of the pod interface in a network-status annotation.
     *
     * @param networkStatus the annotation's value (null if the pod has none)
     * @return MAC, lower case
     * @throws LookupException ({@link Failure#NO_NETWORK_STATUS}) if absent, malformed or
     *     without this interface
     */
    public String mac(String networkStatus) throws LookupException {
        if (networkStatus == null || networkStatus.isBlank()) {
            throw new LookupException(Failure.NO_NETWORK_STATUS, "annotation " + ANN + " missing: the MAC of the "
                    + "pod's " + podInterface + " is unknown (Multus writes it when it attaches the pod's networks)",
                    null);
        }
        JsonNode list;
        try {
            list = JSON.readTree(networkStatus);
        } catch (JsonProcessingException e) {
            throw new LookupException(Failure.NO_NETWORK_STATUS, "annotation " + ANN
                    + " is not JSON: " + e.getOriginalMessage(), e);
        }
        if (list == null || !list.isArray()) {
            throw new LookupException(Failure.NO_NETWORK_STATUS, "annotation " + ANN
                    + " is not a list of networks", null);
        }
        for (JsonNode n : list) {
            if (podInterface.equals(n.path("interface").asText(null))) {
                String mac = n.path("mac").asText("").toLowerCase(Locale.ROOT);
                if (!MAC.matcher(mac).matches()) {
                    throw new LookupException(Failure.NO_NETWORK_STATUS, "annotation " + ANN + ": "
                            + podInterface + " has no MAC ('" + n.path("mac").asText("") + "')", null);
                }
                return mac;
            }
        }
        throw new LookupException(Failure.NO_NETWORK_STATUS, "annotation " + ANN + " names no interface "
                + podInterface + " (the pod's networks: " + interfaces(list) + ")", null);
    }

    private static List<String> interfaces(JsonNode list) {
        List<String> out = new ArrayList<>();
        list.forEach(n -> out.add(n.path("interface").asText("?")));
        return out;
    }

    /**
     * The host-side interface of a pod.
     *
     * @param networkStatus the pod's network-status annotation (null if none)
     * @return host interface name
     * @throws LookupException if the annotation does not give the MAC, no host veth or more
     *     than one is peered with that interface, or netlink fails (message says which)
     */
    public String hostSide(String networkStatus) throws LookupException {
        String mac = mac(networkStatus);
        List<String> found = new ArrayList<>();
        int veths = 0;
        try (RtNetlink nl = RtNetlink.open()) {
            for (RtNetlink.Link h : nl.links()) {
                if (!"veth".equals(h.kind()) || h.peerNetnsid() == null) {
                    continue; // not a veth, or its peer is in the host's namespace: no pod's
                }
                veths++;
                RtNetlink.Link p = nl.link(h.peerNetnsid(), h.peerIndex());
                if (p != null && podInterface.equals(p.name()) && mac.equals(p.mac())) {
                    found.add(h.name());
                }
            }
        } catch (IOException e) {
            throw new LookupException(Failure.NETLINK, "looking up the host side of " + podInterface + " " + mac
                    + " by netlink: " + e.getMessage(), e);
        }
        if (found.isEmpty()) {
            throw new LookupException(Failure.NO_PEER, "no host veth is peered with a " + podInterface + " of MAC "
                    + mac + " (" + veths + " host veths with a peer in another namespace): the pod's interface is "
                    + "not a veth with its peer in the agent's network namespace", null);
        }
        if (found.size() > 1) {
            throw new LookupException(Failure.AMBIGUOUS, "host veths " + found + " are all peered with a "
                    + podInterface + " of MAC " + mac + ": not wired", null);
        }
        return found.get(0);
    }
}
