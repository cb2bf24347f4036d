// SPDX-License-Identifier: Apache-2.0
package org.srv6int.k8s.rules;

import io.fabric8.kubernetes.api.model.Quantity;

import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * What the bridge accepts in a replica's template: vNF type, image, resource quantities, and the
 * namespace it works in. The bridge's {@code ReplicaRequest.Builder#build()} checks a request with
 * these rules, and the app's netcfg checks its {@code kubernetes} section with the same ones, so a
 * template netcfg accepts is one the bridge can create. Kubernetes' own naming and quantity rules,
 * apart from the bridge (no client here): the app's config package may depend on them without
 * depending on the adapter (docs/architecture.md, "Package dependencies").
 */
public final class ReplicaRules {
    /** Capabilities a vNF type may add: those a network function plausibly needs. */
    public static final Set<String> ALLOWED_CAPABILITIES = Set.of("NET_BIND_SERVICE", "NET_RAW", "NET_ADMIN");


    // RFC 1123 label (a namespace, a chain id in names)
    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    // Kubernetes label value: empty, or at most 63 of [A-Za-z0-9-_.], alphanumeric at both ends
    private static final Pattern LABEL_VALUE = Pattern.compile("([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?");

    private ReplicaRules() {
    }

    /**
     * Checks a vNF type: a non-empty Kubernetes label value (it labels the replica).
     *
     * @param vnfType vNF type
     * @throws IllegalArgumentException if it is not one
     */
    public static void checkVnfType(String vnfType) {
        checkLabelValue("vNF type", vnfType);
        if (vnfType.isEmpty()) {
            throw new IllegalArgumentException("vNF type must not be empty");
        }
    }

    /**
     * Checks a container image reference: not empty.
     *
     * @param image image
     * @throws IllegalArgumentException if it is empty
     */
    public static void checkImage(String image) {
        if (image == null || image.isBlank()) {
            throw new IllegalArgumentException("image must not be empty");
        }
    }

    /**
     * Checks a capability a vNF type asks for: only those a network function plausibly needs.
     *
     * @param name capability name, without CAP_
     * @throws IllegalArgumentException naming the capability and the allowed ones
     */
    public static void checkCapability(String name) {
        if (!ALLOWED_CAPABILITIES.contains(name)) {
            throw new IllegalArgumentException("capability '" + name + "' is not one a vNF may add; allowed: "
                    + new TreeSet<>(ALLOWED_CAPABILITIES));
        }
    }

    /**
     * Checks a resource quantity (e.g. 2, 500m, 4Gi) as Kubernetes parses it.
     *
     * @param what     "request" or "limit", for the message
     * @param resource resource name (cpu, memory, ...)
     * @param quantity quantity
     * @throws IllegalArgumentException if it is not a quantity
     */
    public static void checkQuantity(String what, String resource, String quantity) {
        try {
            Quantity.getAmountInBytes(new Quantity(quantity));
        } catch (RuntimeException ex) {
            throw new IllegalArgumentException("invalid " + what + " quantity for " + resource + ": '" + quantity
                    + "'", ex);
        }
    }

    /**
     * Checks a namespace name: a DNS label.
     *
     * @param namespace namespace
     * @throws IllegalArgumentException if it is not one
     */
    public static void checkNamespace(String namespace) {
        if (namespace == null || namespace.length() > 63 || !isDnsLabel(namespace)) {
            throw new IllegalArgumentException("namespace must be a DNS label ([a-z0-9]([-a-z0-9]*[a-z0-9])?, at "
                    + "most 63 characters), got '" + namespace + "'");
        }
    }

    /**
     * Returns whether a string is an RFC 1123 label's characters ([a-z0-9]([-a-z0-9]*[a-z0-9])?;
     * the caller checks the length).
     *
     * @param s string
     * @return true if so
     */
    public static boolean isDnsLabel(String s) {
        return DNS_LABEL.matcher(s).matches();
    }

    /**
     * Checks a Kubernetes label value.
     *
     * @param what  what the value is, for the message
     * @param value value
     * @throws IllegalArgumentException if it is not one
     */
    public static void checkLabelValue(String what, String value) {
        if (value == null || !LABEL_VALUE.matcher(value).matches()) {
            throw new IllegalArgumentException(what + " must be a Kubernetes label value "
                    + "(at most 63 of [A-Za-z0-9-_.], alphanumeric at both ends), got '" + value + "'");
        }
    }
}
