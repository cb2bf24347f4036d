package org.srv6int.app.testing;

import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.DefaultFlowEntry;
import org.onosproject.net.flow.FlowEntry;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.FlowRuleOperation;
import org.onosproject.net.flow.FlowRuleOperations;
import org.onosproject.net.flow.FlowRuleServiceAdapter;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Flow rule service that keeps the flow table of each device the way ONOS's
 * store does: a rule equal to an existing one (same device, table, match,
 * priority) replaces it (a modify); batches run stage by stage. Entries are
 * ADDED at once, or PENDING_ADD until {@link #confirmAll()} when
 * {@link #holdConfirmations} is set (a switch that has not acknowledged yet).
 * Every operation is logged in order.
 */
public class FakeFlowRuleService extends FlowRuleServiceAdapter {

    private final List<FlowEntry> entries = new ArrayList<>();
    private final List<String> log = new ArrayList<>();
    /** When true new entries stay PENDING_ADD until {@link #confirmAll()}. */
    public boolean holdConfirmations;

    @Override
    public synchronized void apply(FlowRuleOperations ops) {
        for (Set<FlowRuleOperation> stage : ops.stages()) {
            for (FlowRuleOperation op : stage) {
                FlowRule r = op.rule();
                switch (op.type()) {
                    case ADD:
                    case MODIFY:
                        entries.removeIf(e -> e.equals(r));
                        entries.add(new DefaultFlowEntry(r, holdConfirmations ? FlowEntry.FlowEntryState.PENDING_ADD
                                : FlowEntry.FlowEntryState.ADDED));
                        log.add("+ " + Rules.describe(r));
                        break;
                    case REMOVE:
                        entries.removeIf(e -> e.equals(r));
                        log.add("- " + Rules.describe(r));
                        break;
                    default:
                        throw new IllegalStateException(op.type().toString());
                }
            }
        }
    }

    @Override
    public void applyFlowRules(FlowRule... rules) {
        FlowRuleOperations.Builder b = FlowRuleOperations.builder();
        for (FlowRule r : rules) {
            b.add(r);
        }
        apply(b.build());
    }

    @Override
    public void removeFlowRules(FlowRule... rules) {
        FlowRuleOperations.Builder b = FlowRuleOperations.builder();
        for (FlowRule r : rules) {
            b.remove(r);
        }
        apply(b.build());
    }

    /**
     * Sets the packet counter of every installed entry the test picks, as a switch's direct
     * counter read with the table entries would (the counter survives a modify of the entry).
     *
     * @param which   entries to set
     * @param packets packets counted
     * @return how many entries were set
     */
    public synchronized int setPackets(java.util.function.Predicate<FlowEntry> which, long packets) {
        int n = 0;
        for (int i = 0; i < entries.size(); i++) {
            FlowEntry e = entries.get(i);
            if (which.test(e)) {
                entries.set(i, new DefaultFlowEntry(e, e.state(), e.life(), packets, packets * 100));
                n++;
            }
        }
        return n;
    }

    /** Marks every pending entry ADDED (the switches acknowledged). */
    public synchronized void confirmAll() {
        List<FlowEntry> next = entries.stream()
                .map(e -> e.state() == FlowEntry.FlowEntryState.PENDING_ADD
                        ? new DefaultFlowEntry(e, FlowEntry.FlowEntryState.ADDED) : e)
                .collect(Collectors.toList());
        entries.clear();
        entries.addAll(next);
    }

    @Override
    public synchronized Iterable<FlowEntry> getFlowEntries(DeviceId deviceId) {
        return entries.stream().filter(e -> e.deviceId().equals(deviceId)).collect(Collectors.toList());
    }

    @Override
    public synchronized Iterable<FlowEntry> getFlowEntriesById(ApplicationId id) {
        return entries.stream().filter(e -> e.appId() == id.id()).collect(Collectors.toList());
    }

    @Override
    public synchronized int getFlowRuleCount() {
        return entries.size();
    }

    /**
     * Returns every entry.
     *
     * @return entries
     */
    public synchronized List<FlowEntry> entries() {
        return new ArrayList<>(entries);
    }

    /**
     * Returns and clears the operation log.
     *
     * @return operations, "+ rule" or "- rule"
     */
    public synchronized List<String> drainLog() {
        List<String> l = new ArrayList<>(log);
        log.clear();
        return l;
    }
}
