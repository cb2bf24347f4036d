// SPDX-License-Identifier: Apache-2.0
package org.srv6int.k8s.bridge;

import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSecurityContextBuilder;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.SecurityContextBuilder;

import org.srv6int.k8s.rules.ReplicaRules;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The security context of a replica pod, from its vNF type's capabilities (netcfg
 * {@code kubernetes.vnfTypes.<type>.capabilities}; docs/security.md, "Replica pods").
 *
 * <p>A type that asks for none (or only NET_BIND_SERVICE) passes Pod Security {@code restricted}:
 * non-root, seccomp RuntimeDefault, no privilege escalation, every capability dropped. A type that
 * asks for NET_RAW or NET_ADMIN (a vNF reading its interface through AF_PACKET, or setting it
 * promiscuous) keeps the rest of that profile but cannot be non-root: Kubernetes gives a non-root
 * container no effective capabilities (no ambient set, and no_new_privs blocks file capabilities),
 * so it runs as its image's user with exactly those capabilities added. Pod Security admits an
 * explicitly added NET_RAW or NET_ADMIN only at level {@code privileged}.
 */
final class ReplicaSecurity {
    /** Capabilities a vNF type may ask for; anything else is refused when the request is built. */
    static final Set<String> ALLOWED = ReplicaRules.ALLOWED_CAPABILITIES;
    /** The one capability Pod Security {@code restricted} lets a container add. */
    static final String RESTRICTED_ADD = "NET_BIND_SERVICE";

    private ReplicaSecurity() {
    }

    /**
     * Whether a replica with these capabilities passes Pod Security {@code restricted}.
     *
     * @param capabilities the vNF type's capabilities
     * @return true when it asks for nothing beyond NET_BIND_SERVICE
     */
    static boolean restricted(Set<String> capabilities) {
        return capabilities.stream().allMatch(RESTRICTED_ADD::equals);
    }

    /**
     * The pod-level security context.
     *
     * @param r replica request
     * @return seccomp RuntimeDefault, and non-root when the type is restricted
     */
    static PodSecurityContext pod(ReplicaRequest r) {
        PodSecurityContextBuilder b = new PodSecurityContextBuilder()
                .withNewSeccompProfile().withType("RuntimeDefault").endSeccompProfile();
        if (restricted(r.capabilities())) {
            b.withRunAsNonRoot(true);
        }
        return b.build();
    }

    /**
     * The vNF container's security context.
     *
     * @param r replica request
     * @return no privilege escalation, every capability dropped but the type's own
     */
    static SecurityContext container(ReplicaRequest r) {
        List<String> add = new ArrayList<>(r.capabilities());
        return new SecurityContextBuilder()
                .withAllowPrivilegeEscalation(false)
                .withPrivileged(false)
                .withNewCapabilities().withDrop("ALL").withAdd(add).endCapabilities()
                .build();
    }
}
