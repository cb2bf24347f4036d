// SPDX-License-Identifier: Apache-2.0
package org.srv6int.testkit;

import java.util.function.Function;
import java.util.function.Predicate;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.DefaultFlowEntry;
import org.onosproject.net.flow.FlowEntry;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.FlowRuleEvent;
import org.onosproject.net.flow.FlowRuleListener;
import org.onosproject.net.flow.FlowRuleOperation;
import org.onosproject.net.flow.FlowRuleOperations;
import org.onosproject.net.flow.FlowRuleService;
import org.onosproject.net.flow.TableStatisticsEntry;
import org.osgi.service.component.annotations.Component;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Flow rule service that keeps each device's flow table the way ONOS's store does: a rule
 * equal to a stored one (same device, table, match, priority) replaces it; batches run stage
 * by stage and their context hears {@code onSuccess}. Listeners hear RULE_ADD_REQUESTED then
 * RULE_ADDED (RULE_UPDATED for a replacement), RULE_REMOVE_REQUESTED then RULE_REMOVED.
 * With {@link #holdConfirmations(boolean)} new entries stay PENDING_ADD (a switch that has
 * not acknowledged yet) until {@link #confirmAll()}.
 */
@Component(immediate = true, service = FlowRuleService.class)
public class InMemoryFlowRuleService implements FlowRuleService {

    private final Map<DeviceId, Map<FlowRule, DefaultFlowEntry>> tables = new LinkedHashMap<>();
    private final Listeners<FlowRuleEvent, FlowRuleListener> listeners = new Listeners<>();
    private boolean hold;

    /**
     * Sets whether new entries wait for {@link #confirmAll()} (PENDING_ADD) or are ADDED at once.
     *
     * @param hold true to hold confirmations
     */
    public synchronized void holdConfirmations(boolean hold) {
        this.hold = hold;
    }

    @Override
    public void apply(FlowRuleOperations ops) {
        List<FlowRuleEvent> events = new ArrayList<>();
        synchronized (this) {
            for (Set<FlowRuleOperation> stage : ops.stages()) {
                for (FlowRuleOperation op : stage) {
                    FlowRule r = op.rule();
                    Map<FlowRule, DefaultFlowEntry> table = tables.computeIfAbsent(r.deviceId(),
                                                                                   d -> new LinkedHashMap<>());
                    switch (op.type()) {
                        case ADD:
                        case MODIFY:
                            boolean replaced = table.remove(r) != null;
                            DefaultFlowEntry e = new DefaultFlowEntry(r, hold ? FlowEntry.FlowEntryState.PENDING_ADD
                                    : FlowEntry.FlowEntryState.ADDED);
                            table.put(r, e);
                            events.add(new FlowRuleEvent(FlowRuleEvent.Type.RULE_ADD_REQUESTED, r));
                            if (!hold) {
                                events.add(new FlowRuleEvent(replaced ? FlowRuleEvent.Type.RULE_UPDATED
                                                                     : FlowRuleEvent.Type.RULE_ADDED, e));
                            }
                            break;
                        case REMOVE:
                            DefaultFlowEntry old = table.remove(r);
                            events.add(new FlowRuleEvent(FlowRuleEvent.Type.RULE_REMOVE_REQUESTED, r));
                            if (old != null) {
                                events.add(new FlowRuleEvent(FlowRuleEvent.Type.RULE_REMOVED, old));
                            }
                            break;
                        default:
                            throw new IllegalArgumentException("unknown flow rule operation " + op.type());
                    }
                }
            }
        }
        events.forEach(listeners::post);
        ops.callback().onSuccess(ops);
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

    @Override
    public void removeFlowRulesById(ApplicationId id) {
        List<FlowRule> mine;
        synchronized (this) {
            mine = entries().stream().filter(e -> e.appId() == id.id()).collect(Collectors.toList());
        }
        removeFlowRules(mine.toArray(new FlowRule[0]));
    }

    @Override
    public void purgeFlowRules(DeviceId deviceId) {
        synchronized (this) {
            tables.remove(deviceId);
        }
    }

    /** Marks every PENDING_ADD entry ADDED (the switches acknowledged) and announces it. */
    public void confirmAll() {
        List<FlowRuleEvent> events = new ArrayList<>();
        synchronized (this) {
            for (Map<FlowRule, DefaultFlowEntry> table : tables.values()) {
                for (DefaultFlowEntry e : table.values()) {
                    if (e.state() == FlowEntry.FlowEntryState.PENDING_ADD) {
                        e.setState(FlowEntry.FlowEntryState.ADDED);
                        events.add(new FlowRuleEvent(FlowRuleEvent.Type.RULE_ADDED, e));
                    }
                }
            }
        }
        events.forEach(listeners::post);
    }

    /**
     * Sets the packet counter (and 100 bytes a packet) of every stored entry a test picks, as a
     * switch's direct counters read back with its table entries would.
     *
     * @param which   the entries to set
     * @param packets packets counted
     * @return how many entries were set
     */
    public synchronized int setPackets(Predicate<FlowEntry> which, long packets) {
        int n = 0;
        for (Map<FlowRule, DefaultFlowEntry> table : tables.values()) {
            for (Map.Entry<FlowRule, DefaultFlowEntry> e : table.entrySet()) {
                DefaultFlowEntry old = e.getValue();
                if (which.test(old)) {
                    e.setValue(new DefaultFlowEntry(old, old.state(), old.life(), packets, packets * 100));
                    n++;
                }
            }
        }
        return n;
    }

    /**
     * Sets the packet and byte counters of stored entries from a switch's direct counters, as
     * ONOS's flow-statistics poll does (no event, like a poll that changes only statistics).
     *
     * @param counters {packets, bytes} of an entry as the switch counts it, null to leave it
     * @return how many entries were set
     */
    public synchronized int setCounters(Function<FlowEntry, long[]> counters) {
        int n = 0;
        for (Map<FlowRule, DefaultFlowEntry> table : tables.values()) {
            for (Map.Entry<FlowRule, DefaultFlowEntry> e : table.entrySet()) {
                DefaultFlowEntry old = e.getValue();
                long[] c = counters.apply(old);
                if (c != null) {
                    e.setValue(new DefaultFlowEntry(old, old.state(), old.life(), c[0], c[1]));
                    n++;
                }
            }
        }
        return n;
    }

    /**
     * Returns every stored entry.
     *
     * @return entries, device by device
     */
    public synchronized List<FlowEntry> entries() {
        return tables.values().stream().flatMap(t -> t.values().stream()).collect(Collectors.toList());
    }

    @Override
    public synchronized int getFlowRuleCount() {
        return tables.values().stream().mapToInt(Map::size).sum();
    }

    @Override
    public synchronized FlowEntry getFlowEntry(FlowRule rule) {
        return tables.getOrDefault(rule.deviceId(), Map.of()).get(rule);
    }

    @Override
    public synchronized Iterable<FlowEntry> getFlowEntries(DeviceId deviceId) {
        return new ArrayList<>(tables.getOrDefault(deviceId, Map.of()).values());
    }

    @Override
    public synchronized Iterable<FlowEntry> getFlowEntriesById(ApplicationId id) {
        return entries().stream().filter(e -> e.appId() == id.id()).collect(Collectors.toList());
    }

    @Override
    public synchronized Iterable<FlowRule> getFlowRulesByGroupId(ApplicationId appId, short groupId) {
        return entries().stream().filter(e -> e.appId() == appId.id() && e.groupId().id() == groupId)
                .collect(Collectors.toList());
    }

    @Override
    public Iterable<TableStatisticsEntry> getFlowTableStatistics(DeviceId deviceId) {
        return List.of();
    }

    @Override
    public void addListener(FlowRuleListener listener) {
        listeners.add(listener);
    }

    @Override
    public void removeListener(FlowRuleListener listener) {
        listeners.remove(listener);
    }
}
