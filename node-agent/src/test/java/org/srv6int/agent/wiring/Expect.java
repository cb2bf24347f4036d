// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.wiring;

import static org.junit.Assert.fail;

/** JUnit 4.12 has no assertThrows: this is it, for the wiring tests. */
final class Expect {

    /** A call that may throw anything. */
    interface Call {
        /**
         * Runs it.
         *
         * @throws Exception anything
         */
        void run() throws Exception;
    }

    private Expect() {
    }

    /**
     * Runs the call and returns what it threw.
     *
     * @param type the exception expected
     * @param call the call
     * @param <T> its type
     * @return the exception
     */
    static <T extends Throwable> T thrown(Class<T> type, Call call) {
        try {
            call.run();
        } catch (Throwable e) {
            if (type.isInstance(e)) {
                return type.cast(e);
            }
            throw new AssertionError("expected " + type.getSimpleName() + ", got " + e, e);
        }
        fail("expected " + type.getSimpleName() + ", nothing thrown");
        return null;
    }
}
