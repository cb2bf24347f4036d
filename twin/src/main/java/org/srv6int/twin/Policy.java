// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin;

/** Which vertical scaler runs (and whether the global loop runs) in a twin run. */
public enum Policy {
    /** Our system: local loop (Algorithms 1-3) on every worker plus the global loop (Algorithm 4). */
    OURS("ours"),
    /** No vertical scaling and no horizontal scaling: the initial allocation stays. */
    NONE("none"),
    /** Kubernetes-VPA-like CPU requests from usage history (see {@code Vpa}); no global loop. */
    VPA("vpa");

    private final String key;

    Policy(String key) {
        this.key = key;
    }

    /** Name on the command line and in out/. */
    public String key() {
        return key;
    }

    /** Parses ours/none/vpa. */
    public static Policy parse(String s) {
        for (Policy p : values()) {
            if (p.key.equals(s)) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown policy '" + s + "' (ours, none, vpa)");
    }
}
