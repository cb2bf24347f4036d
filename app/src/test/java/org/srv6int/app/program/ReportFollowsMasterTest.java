// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.program;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.Test;
import org.onosproject.cluster.NodeId;
import org.srv6int.testkit.InMemoryStorageService;
import org.srv6int.app.testing.AppHarness;
import org.srv6int.testkit.InMemoryFlowRuleService;
import org.srv6int.testkit.InMemoryGroupService;
import org.srv6int.app.testing.PaperTestbed;
import org.srv6int.app.testing.Rules;

import java.util.List;
import java.util.stream.Collectors;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * In a cluster each switch reports to the collector of the instance that masters it
 * ({@code collector.instances} in netcfg): the report configuration written to the switch names
 * that collector, and when mastership moves the new master re-points the switch.
 */
public class ReportFollowsMasterTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static void clusterConfig(AppHarness h) throws Exception {
        ObjectNode app = (ObjectNode) PaperTestbed.netcfg().get("apps").get("org.srv6int.app").get("srv6int")
                .deepCopy();
        ((ObjectNode) app.get("collector")).set("instances", MAPPER.readTree(
                "{ \"onos-1\": { \"address\": \"10.0.0.101\", \"mac\": \"00:00:00:00:01:01\", \"port\": 45101 },"
                        + " \"onos-2\": { \"address\": \"10.0.0.102\", \"port\": 45102 } }"));
        h.config.app = PaperTestbed.appConfig(app);
    }

    private static List<String> reportConfig(InMemoryFlowRuleService flows) {
        return flows.entries().stream().filter(e -> e.deviceId().equals(PaperTestbed.SW4)).map(Rules::describe)
                .filter(l -> l.contains("report")).collect(Collectors.toList());
    }

    @Test
    public void theMastersCollectorIsNamedAndFollowsAMastershipChange() throws Exception {
        InMemoryStorageService storage = new InMemoryStorageService();
        InMemoryFlowRuleService flows = new InMemoryFlowRuleService();
        InMemoryGroupService groups = new InMemoryGroupService();
        AppHarness one = new AppHarness(storage, flows, groups, NodeId.nodeId("onos-1"));
        AppHarness two = new AppHarness(storage, flows, groups, NodeId.nodeId("onos-2"));
        clusterConfig(one);
        clusterConfig(two);
        two.mastered.clear();
        one.deployFig5();
        one.settle();
        two.settle();

        List<String> before = reportConfig(flows);
        assertEquals(before.toString(), 1, before.size());
        assertTrue(before.get(0), before.get(0).contains("dst_ip=10.0.0.101,")
                && before.get(0).contains("udp_dport=45101") && before.get(0).contains("dst_mac=00:00:00:00:01:01"));

        // s4's mastership moves to onos-2: it re-points the switch at its own collector
        // (address and port of its entry, MAC from the top level).
        one.mastered.remove(PaperTestbed.SW4);
        two.mastered.add(PaperTestbed.SW4);
        two.settle();
        one.settle();
        List<String> after = reportConfig(flows);
        assertEquals(after.toString(), 1, after.size());
        assertTrue(after.get(0), after.get(0).contains("dst_ip=10.0.0.102,")
                && after.get(0).contains("udp_dport=45102") && after.get(0).contains("dst_mac=00:00:00:00:00:FE"));
    }
}
