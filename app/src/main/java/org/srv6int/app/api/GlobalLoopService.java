package org.srv6int.app.api;

import java.util.List;

/**
 * Read side of the global closed loop (Algorithm 4). Implemented by
 * org.srv6int.app.loop.
 */
public interface GlobalLoopService {

    /**
     * Returns the loop's status.
     *
     * @return status
     */
    LoopStatus status();

    /**
     * Returns the most recent decisions, newest first.
     *
     * @param limit most decisions to return, &gt; 0
     * @return decisions
     */
    List<LoopDecision> decisions(int limit);
}
