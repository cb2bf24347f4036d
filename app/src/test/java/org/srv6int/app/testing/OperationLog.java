package org.srv6int.app.testing;

import org.onosproject.net.flow.FlowRuleEvent;
import org.onosproject.net.group.Group;
import org.onosproject.net.group.GroupEvent;
import org.srv6int.testkit.InMemoryFlowRuleService;
import org.srv6int.testkit.InMemoryGroupService;

import java.util.ArrayList;
import java.util.List;

/**
 * The operations the app asked of the switches, in order, as {@link Rules} renders them: heard
 * from the flow rule or group service's events, so a test sees exactly what was requested
 * ("+ rule", "- rule", "+ group", "= group", "- group").
 */
public final class OperationLog {

    private final List<String> lines = new ArrayList<>();

    private OperationLog() {
    }

    /**
     * Logs every flow rule add (or modify) and remove requested of a service.
     *
     * @param flows the flow rule service
     * @return the log
     */
    public static OperationLog of(InMemoryFlowRuleService flows) {
        OperationLog log = new OperationLog();
        flows.addListener(e -> {
            if (e.type() == FlowRuleEvent.Type.RULE_ADD_REQUESTED) {
                log.add("+ " + Rules.describe(e.subject()));
            } else if (e.type() == FlowRuleEvent.Type.RULE_REMOVE_REQUESTED) {
                log.add("- " + Rules.describe(e.subject()));
            }
        });
        return log;
    }

    /**
     * Logs every group added, re-bucketed and removed on a service.
     *
     * @param groups the group service
     * @return the log
     */
    public static OperationLog of(InMemoryGroupService groups) {
        OperationLog log = new OperationLog();
        groups.addListener(e -> {
            Group g = e.subject();
            if (e.type() == GroupEvent.Type.GROUP_ADDED) {
                log.add("+ group " + Rules.describe(g.deviceId(), g.id().id(), g.buckets()));
            } else if (e.type() == GroupEvent.Type.GROUP_UPDATED) {
                log.add("= group " + Rules.describe(g.deviceId(), g.id().id(), g.buckets()));
            } else if (e.type() == GroupEvent.Type.GROUP_REMOVED) {
                log.add("- group " + g.deviceId() + " id=" + g.id().id());
            }
        });
        return log;
    }

    private synchronized void add(String line) {
        lines.add(line);
    }

    /**
     * Returns and clears the operations logged so far.
     *
     * @return operations in order
     */
    public synchronized List<String> drain() {
        List<String> l = new ArrayList<>(lines);
        lines.clear();
        return l;
    }
}
