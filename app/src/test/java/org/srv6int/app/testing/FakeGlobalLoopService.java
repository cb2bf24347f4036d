package org.srv6int.app.testing;

import org.srv6int.app.api.GlobalLoopService;
import org.srv6int.app.api.LoopDecision;
import org.srv6int.app.api.LoopStatus;

import java.util.ArrayList;
import java.util.List;

/**
 * Global loop service returning a status and history a test sets (stands for
 * the loop component).
 */
public class FakeGlobalLoopService implements GlobalLoopService {

    /** Status to return. */
    public LoopStatus status = new LoopStatus(true, true, "node1", 4000, 0, List.of());
    /** Decisions, newest first. */
    public final List<LoopDecision> decisions = new ArrayList<>();

    @Override
    public LoopStatus status() {
        return status;
    }

    @Override
    public List<LoopDecision> decisions(int limit) {
        return decisions.subList(0, Math.min(limit, decisions.size()));
    }
}
