// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.gui;

import java.util.Objects;

/**
 * One decision of the global loop (Algorithm 4) as the overlay lists it.
 */
public final class LoopDecisionView {
    private final long timeMillis;
    private final String vnfId;
    private final String action;
    private final String detail;

    /**
     * Creates a decision view.
     *
     * @param timeMillis when the loop decided (epoch ms)
     * @param vnfId      vNF the decision is about
     * @param action     what the loop did (e.g. SCALE_OUT, NONE)
     * @param detail     short human-readable reason
     */
    public LoopDecisionView(long timeMillis, String vnfId, String action, String detail) {
        this.timeMillis = timeMillis;
        this.vnfId = Objects.requireNonNull(vnfId, "vnfId");
        this.action = Objects.requireNonNull(action, "action");
        this.detail = detail == null ? "" : detail;
    }

    /** @return epoch ms of the decision */
    public long timeMillis() {
        return timeMillis;
    }

    /** @return vNF id */
    public String vnfId() {
        return vnfId;
    }

    /** @return action taken */
    public String action() {
        return action;
    }

    /** @return reason */
    public String detail() {
        return detail;
    }
}
