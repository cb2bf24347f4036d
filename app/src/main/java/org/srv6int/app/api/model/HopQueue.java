// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api.model;

/**
 * Queue depth seen at one switch (hop) in INT metadata: the latest Q_Length and the window's
 * largest.
 */
public final class HopQueue {

    private final int deviceId;
    private final int lastDepth;
    private final int maxDepth;

    public HopQueue(int deviceId, int lastDepth, int maxDepth) {
        this.deviceId = deviceId;
        this.lastDepth = lastDepth;
        this.maxDepth = maxDepth;
    }

    /** @return switch Device_ID */
    public int deviceId() {
        return deviceId;
    }

    /** @return latest Q_Length, packets */
    public int lastDepth() {
        return lastDepth;
    }

    /** @return largest Q_Length in the window, packets */
    public int maxDepth() {
        return maxDepth;
    }

    @Override
    public String toString() {
        return "dev" + deviceId + " q=" + lastDepth + " max=" + maxDepth;
    }
}
