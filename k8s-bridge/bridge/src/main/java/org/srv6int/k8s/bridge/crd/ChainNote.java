// SPDX-License-Identifier: Apache-2.0
package org.srv6int.k8s.bridge.crd;

import java.util.Objects;

/**
 * Something that happened to a chain, recorded as a Kubernetes Event on its ServiceFunctionChain
 * and, when it concerns one replica, on that replica's pod too (a scale-out, a drain, a
 * replacement, the chain going down).
 */
public final class ChainNote {

    private final boolean warning;
    private final String reason;
    private final String message;
    private final String replica;

    /**
     * Creates a note.
     *
     * @param warning true for an Event of type Warning, false for Normal
     * @param reason  UpperCamelCase reason, e.g. {@code ScaledOut}
     * @param message what happened, for people
     * @param replica the replica's workload name ({@code sfc-<chain>-vnf<i>-r<j>}, its pod is
     *                {@code <name>-0}) if it concerns one; null otherwise
     */
    public ChainNote(boolean warning, String reason, String message, String replica) {
        this.warning = warning;
        this.reason = Objects.requireNonNull(reason);
        this.message = Objects.requireNonNull(message);
        this.replica = replica;
    }

    /**
     * Returns whether this is a warning.
     *
     * @return true for type Warning
     */
    public boolean warning() {
        return warning;
    }

    /**
     * Returns the reason.
     *
     * @return reason
     */
    public String reason() {
        return reason;
    }

    /**
     * Returns the message.
     *
     * @return message
     */
    public String message() {
        return message;
    }

    /**
     * Returns the replica's workload name.
     *
     * @return name, or null
     */
    public String replica() {
        return replica;
    }

    @Override
    public String toString() {
        return (warning ? "Warning " : "Normal ") + reason + ": " + message;
    }
}
