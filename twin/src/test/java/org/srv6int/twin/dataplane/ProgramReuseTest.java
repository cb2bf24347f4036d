// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.dataplane;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.junit.Test;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.DefaultFlowRule;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.group.Group;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.testing.AppHarness;
import org.srv6int.app.testing.PaperTestbed;

/**
 * A switch recompiled with its previous program takes over the entries whose rule did not change
 * and compiles the others: the result is the program a compile from nothing gives, entry by
 * entry, and a duplicate key is still refused.
 */
public class ProgramReuseTest {

    private static final DeviceId SW1 = PaperTestbed.SW1;

    private static List<FlowRule> rules(AppHarness app) {
        List<FlowRule> rules = new ArrayList<>();
        app.flows.getFlowEntries(SW1).forEach(rules::add);
        return rules;
    }

    private static List<Group> groups(AppHarness app) {
        List<Group> groups = new ArrayList<>();
        app.groups.getGroups(SW1).forEach(groups::add);
        return groups;
    }

    private static List<SwitchProgram.Table> tables(SwitchProgram p) {
        return List.of(p.switchInfo, p.acl, p.ndp, p.classifier, p.encap, p.mySid, p.ipv6Routing, p.ipv4Routing,
                       p.reportConfig);
    }

    @Test
    public void unchangedEntriesAreTakenOverAndChangedOnesRecompiled() {
        AppHarness app = new AppHarness();
        app.deployFig5();
        app.settle();
        SwitchProgram before = SwitchProgram.compile(SW1, rules(app), groups(app));
        // a Snort replica on Worker 2: half of SFC 2's buckets get another segment list (same key)
        app.inventory.addReplica(VnfKey.of(PaperTestbed.SFC2, 0), "worker2");
        app.settle();
        List<FlowRule> now = rules(app);
        SwitchProgram reused = SwitchProgram.compile(SW1, now, groups(app), before);
        SwitchProgram fresh = SwitchProgram.compile(SW1, now, groups(app));

        Map<SwitchProgram.Entry, Boolean> old = new IdentityHashMap<>();
        before.byRule.values().forEach(e -> old.put(e, true));
        int takenOver = 0;
        int compiled = 0;
        List<SwitchProgram.Table> a = tables(reused);
        List<SwitchProgram.Table> b = tables(fresh);
        for (int t = 0; t < a.size(); t++) {
            assertEquals(a.get(t).spec.id.toString(), b.get(t).entries.length, a.get(t).entries.length);
            for (int i = 0; i < a.get(t).entries.length; i++) {
                SwitchProgram.Entry x = a.get(t).entries[i];
                SwitchProgram.Entry y = b.get(t).entries[i];
                assertTrue(x.rule + " in order", x.rule.exactMatch(y.rule));
                assertArrayEquals(y.vLo, x.vLo);
                assertArrayEquals(y.mLo, x.mLo);
                assertArrayEquals(y.action == null ? null : y.action.lo, x.action == null ? null : x.action.lo);
                assertArrayEquals(y.action == null ? null : y.action.hi, x.action == null ? null : x.action.hi);
                if (old.containsKey(x)) {
                    takenOver++;
                    assertSame(x, before.byRule.get(x.rule));
                } else {
                    compiled++;
                }
            }
        }
        assertTrue("most entries stay: " + takenOver, takenOver > 256);
        assertTrue("the moved buckets are compiled anew: " + compiled, compiled >= 64);
        assertEquals(fresh.byRule.size(), reused.byRule.size());
    }

    @Test
    public void aDuplicateKeyIsRefusedWithAPreviousProgramToo() {
        AppHarness app = new AppHarness();
        app.deployFig5();
        app.settle();
        List<FlowRule> rules = rules(app);
        SwitchProgram before = SwitchProgram.compile(SW1, rules, groups(app));
        FlowRule bucket = rules.stream().filter(r -> before.encap.entries[0].rule.equals(r)).findFirst().orElseThrow();
        FlowRule other = rules.stream().filter(r -> before.encap.entries[1].rule.equals(r)).findFirst().orElseThrow();
        // the same key (table, match, priority) with another bucket's action
        FlowRule twin = DefaultFlowRule.builder().forDevice(SW1).forTable(bucket.table())
                .withSelector(bucket.selector())
                .withTreatment(other.treatment()).withPriority(bucket.priority()).makePermanent()
                .withCookie(bucket.id().value() + 1).build();
        List<FlowRule> withTwin = new ArrayList<>(rules);
        withTwin.add(twin);
        try {
            SwitchProgram.compile(SW1, withTwin, groups(app), before);
            fail("a second entry with one key was compiled");
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("duplicate key"));
        }
    }
}
