// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api;

/**
 * A chain or replica operation that cannot be done in the current state,
 * e.g. adding a chain whose id exists or removing an unknown replica.
 * REST maps {@link Reason#NOT_FOUND} to 404 and {@link Reason#CONFLICT} to 409.
 */
public final class SfcException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Why the operation failed. */
    public enum Reason {
        /** The referenced chain, vNF or replica does not exist. */
        NOT_FOUND,
        /** The operation conflicts with existing state. */
        CONFLICT
    }

    private final Reason reason;

    /**
     * Creates the exception.
     *
     * @param reason  reason
     * @param message message naming the object and why
     */
    public SfcException(Reason reason, String message) {
        super(message);
        this.reason = reason;
    }

    /**
     * Returns why the operation failed.
     *
     * @return reason
     */
    public Reason reason() {
        return reason;
    }
}
