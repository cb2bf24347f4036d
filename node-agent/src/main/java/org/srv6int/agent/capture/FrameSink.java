// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.capture;

/**
 * Where a packet source hands its frames, on its one thread: the agent decodes each frame
 * and feeds the loop; {@link #tick} runs its timers (trial time-outs, pod changes,
 * overwrite checks) when the capture is idle and every 1,024 frames.
 */
public interface FrameSink {

    /**
     * One captured frame (after the BPF filter).
     *
     * @param frame bytes, valid during the call only
     * @param len length
     */
    void frame(byte[] frame, int len);

    /** Timers. */
    void tick();
}
