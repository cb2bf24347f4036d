// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.wiring;

import java.io.IOException;

/** Open vSwitch could not be reached or refused a command; the message says which and why. */
public final class OvsException extends IOException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what failed, with OVS's own words
     */
    public OvsException(String message) {
        super(message);
    }

    /**
     * Creates the exception with a cause.
     *
     * @param message what failed
     * @param cause underlying failure
     */
    public OvsException(String message, Throwable cause) {
        super(message, cause);
    }
}
