// SPDX-License-Identifier: Apache-2.0
package org.srv6int.k8s.bridge;

/**
 * A Kubernetes operation of the bridge failed: the API refused it, or it kept
 * failing until the retry budget was spent. The message says which operation, on
 * which object, after how many attempts and why.
 */
public class BridgeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int attempts;
    private final int httpCode;

    /**
     * Creates the exception.
     *
     * @param message what failed
     * @param attempts attempts made
     * @param httpCode last HTTP status, 0 if none (transport error or timeout)
     * @param cause last error
     */
    public BridgeException(String message, int attempts, int httpCode, Throwable cause) {
        super(message, cause);
        this.attempts = attempts;
        this.httpCode = httpCode;
    }

    /**
     * Returns the number of attempts made.
     *
     * @return attempts
     */
    public int attempts() {
        return attempts;
    }

    /**
     * Returns the last HTTP status code, 0 when there was none.
     *
     * @return HTTP status or 0
     */
    public int httpCode() {
        return httpCode;
    }
}
