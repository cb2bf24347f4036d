// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.wiring;

import org.junit.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertNull;

/** Reading {@code ovs-ofctl dump-flows} lines (as OVS 3.1 prints them) and writing flow-mod lines. */
public class OpenFlowRuleTest {

    private static OpenFlowRule sidRule(String sid, int out) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("ipv6", "");
        m.put("in_port", "1");
        m.put("ipv6_dst", sid);
        return new OpenFlowRule(OvsSidWiring.COOKIE, 200, m, "output:" + out);
    }

    @Test
    public void readsANoStatsLineAndAStatsLineAlike() {
        OpenFlowRule a = OpenFlowRule.parseDumpLine(
                " cookie=0x5352364900000001, priority=200,ipv6,in_port=1,ipv6_dst=fc00:2::10 actions=output:2");
        OpenFlowRule b = OpenFlowRule.parseDumpLine(" cookie=0x5352364900000001, duration=0.020s, table=0, "
                + "n_packets=3, n_bytes=300, idle_age=0, priority=200,ipv6,in_port=1,ipv6_dst=fc00:2::10 "
                + "actions=output:2");
        assertEquals(OvsSidWiring.COOKIE, a.cookie());
        assertEquals(200, a.priority());
        assertEquals("output:2", a.actions());
        assertEquals(Map.of("ipv6", "", "in_port", "1", "ipv6_dst", "fc00:2:0:0:0:0:0:10"), a.match());
        assertEquals(a, b);
        assertEquals(sidRule("fc00:0002:0000::0010", 2), a);
        assertNotEquals(sidRule("fc00:2::11", 2), a);
        assertNotEquals(sidRule("fc00:2::10", 3), a);
    }

    @Test
    public void anOpenFlow13LineWithResetCountsAndTheDefaultPriority() {
        OpenFlowRule r = OpenFlowRule.parseDumpLine(
                " cookie=0x1, duration=0.091s, table=0, n_packets=0, n_bytes=0, reset_counts in_port=3 actions=drop");
        assertEquals(OpenFlowRule.DEFAULT_PRIORITY, r.priority());
        assertEquals(Map.of("in_port", "3"), r.match());
        assertEquals("drop", r.actions());
    }

    @Test
    public void headerAndBlankLinesAreNoRules() {
        assertNull(OpenFlowRule.parseDumpLine("NXST_FLOW reply (xid=0x4):"));
        assertNull(OpenFlowRule.parseDumpLine(""));
    }

    @Test
    public void flowModLinesForABundle() {
        OpenFlowRule r = sidRule("fc00:2::10", 2);
        assertEquals("add cookie=0x5352364900000001,priority=200,ipv6,in_port=1,ipv6_dst=fc00:2:0:0:0:0:0:10,"
                + "actions=output:2", r.addSpec());
        assertEquals("delete_strict cookie=0x5352364900000001/-1,priority=200,ipv6,in_port=1,"
                + "ipv6_dst=fc00:2:0:0:0:0:0:10", r.deleteSpec());
    }

    @Test
    public void onlyIpv6LiteralsAreSids() {
        Expect.thrown(IllegalArgumentException.class, () -> OpenFlowRule.canonicalIpv6("10.0.0.1"));
        Expect.thrown(IllegalArgumentException.class, () -> OpenFlowRule.canonicalIpv6("localhost"));
        Expect.thrown(IllegalArgumentException.class, () -> OpenFlowRule.canonicalIpv6("::ffff:10.0.0.1"));
        Expect.thrown(IllegalArgumentException.class, () -> OpenFlowRule.canonicalIpv6("fc00::1::2"));
        Expect.thrown(IllegalArgumentException.class, () -> OpenFlowRule.canonicalIpv6(null));
        assertEquals("fc00:2:0:0:0:0:0:10", OpenFlowRule.canonicalIpv6("FC00:2::10"));
    }
}
