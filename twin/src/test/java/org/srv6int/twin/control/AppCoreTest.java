// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.control;

import org.junit.Test;
import org.onosproject.net.DeviceId;
import org.onosproject.net.Link;
import org.onosproject.net.flow.FlowEntry;
import org.onosproject.net.group.Group;
import org.srv6int.app.testing.AppHarness;
import org.srv6int.app.testing.PaperTestbed;
import org.srv6int.app.testing.Rules;

import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * The twin's wiring of the app core (over the test kit, no reflection) programs the switches
 * exactly as the app's own test harness does on the same testbed.
 */
public class AppCoreTest {

    private static List<String> rules(Iterable<FlowEntry> entries) {
        return StreamSupport.stream(entries.spliterator(), false).map(Rules::describe).sorted()
                .collect(Collectors.toList());
    }

    private static List<String> groups(Iterable<Group> groups) {
        return StreamSupport.stream(groups.spliterator(), false)
                .map(g -> Rules.describe(g.deviceId(), g.id().id(), g.buckets())).sorted()
                .collect(Collectors.toList());
    }

    private static List<String> cables(List<Link> links) {
        return links.stream().map(l -> l.src() + ">" + l.dst()).sorted().collect(Collectors.toList());
    }

    @Test
    public void programsTheSwitchesAsTheAppsTestHarnessDoes() {
        assertEquals(PaperTestbed.SWITCHES, TestbedNetcfg.SWITCHES);
        assertEquals(cables(PaperTestbed.links()), cables(TestbedNetcfg.links()));

        AppHarness harness = new AppHarness();
        harness.deployFig5();
        harness.settle();

        AppCore core = new AppCore(TestbedNetcfg.links(), TestbedNetcfg.netcfg());
        assertEquals(PaperTestbed.devices().all().keySet(), core.config.devices().all().keySet());
        core.sfcs.addSfc(PaperTestbed.sfc1());
        core.sfcs.addSfc(PaperTestbed.sfc2());
        PaperTestbed.initialReplicas().forEach(core.inventory::registerReplica);
        assertTrue("programming issued operations", core.settle() > 0);
        assertEquals("settled", 0, core.settle());
        for (DeviceId d : TestbedNetcfg.SWITCHES) {
            List<String> expected = rules(harness.flows.getFlowEntries(d));
            assertFalse(d + " has rules", expected.isEmpty());
            assertEquals(d.toString(), expected, rules(core.flows.getFlowEntries(d)));
            assertEquals(d.toString(), groups(harness.groups.getGroups(d)), groups(core.groups.getGroups(d)));
        }
    }
}
