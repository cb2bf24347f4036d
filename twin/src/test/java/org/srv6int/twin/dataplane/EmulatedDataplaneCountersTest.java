// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.dataplane;

import org.srv6int.app.switchstate.FlowEntries;
import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;

import java.util.ArrayList;
import java.util.List;
import org.junit.Before;
import org.junit.Test;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.flow.FlowEntry;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.group.Group;
import org.srv6int.app.switchstate.SwitchCounters;
import org.srv6int.app.testing.AppHarness;
import org.srv6int.app.testing.PaperTestbed;
import org.srv6int.codec.Addresses;
import org.srv6int.codec.FlowHash;
import org.srv6int.pipeconf.Srv6IntPipelineConstants;

/**
 * The emulated switches' direct counters: each table entry counts the packets it matched as the
 * switch's counter does, so the bucket counters the app's drain by flows reads (and the
 * classifier and SID counters of its failure detection) count in the twin.
 */
public class EmulatedDataplaneCountersTest {

    private static final DeviceId SW1 = PaperTestbed.SWITCHES.get(0);
    private AppHarness app;
    private EmulatedDataplane dp;

    @Before
    public void setUp() {
        app = new AppHarness();
        app.deployFig5();
        app.settle();
        dp = new EmulatedDataplane(PaperTestbed.links());
        program();
    }

    private void program() {
        for (DeviceId d : PaperTestbed.SWITCHES) {
            List<FlowRule> rules = new ArrayList<>();
            app.flows.getFlowEntries(d).forEach(rules::add);
            List<Group> groups = new ArrayList<>();
            app.groups.getGroups(d).forEach(groups::add);
            dp.program(d, rules, groups);
        }
    }

    /** SFC 1's flow (UDP to port 5001) with its source port set. */
    private static byte[] flow(int sport) {
        byte[] b = Addresses.fromHex(Vectors.load("input-h1").get("hex").asText().replace("13881770", "13881389"));
        b[34] = (byte) (sport >>> 8);
        b[35] = (byte) sport;
        return b;
    }

    private FlowEntry bucketEntry(int bucket) {
        for (FlowEntry e : app.flows.getFlowEntries(SW1)) {
            int[] tb = FlowEntries.chainAndBucket(e).orElse(null);
            if (tb != null && tb[0] == 1 && tb[1] == bucket) {
                return e;
            }
        }
        throw new AssertionError("no bucket entry " + bucket);
    }

    @Test
    public void bucketClassifierAndSidEntriesCountWhatTheyMatch() {
        byte[] a = flow(5000);
        byte[] b = flow(5002);
        int ba = FlowHash.bucket(FlowHash.hash(a, 14, a.length - 14), Srv6IntPipelineConstants.ENCAP_BUCKETS);
        int bb = FlowHash.bucket(FlowHash.hash(b, 14, b.length - 14), Srv6IntPipelineConstants.ENCAP_BUCKETS);
        org.junit.Assume.assumeTrue("two flows in two buckets", ba != bb);
        for (int i = 0; i < 5; i++) {
            dp.inject(SW1, PortNumber.portNumber(1), a, i);
        }
        for (int i = 0; i < 3; i++) {
            dp.inject(SW1, PortNumber.portNumber(1), b, i);
        }
        assertArrayEquals(new long[] {5, 5L * a.length}, dp.counter(SW1, bucketEntry(ba)));
        assertArrayEquals(new long[] {3, 3L * b.length}, dp.counter(SW1, bucketEntry(bb)));
        int other = (ba + 1) % Srv6IntPipelineConstants.ENCAP_BUCKETS == bb ? (ba + 2) % 256 : (ba + 1) % 256;
        assertArrayEquals(new long[] {0, 0}, dp.counter(SW1, bucketEntry(other)));
        // the twin's probe flows are no traffic
        dp.uncounted(() -> dp.inject(SW1, PortNumber.portNumber(1), a, 9));
        assertArrayEquals(new long[] {5, 5L * a.length}, dp.counter(SW1, bucketEntry(ba)));

        // ONOS's flow-stats poll puts them into the entries the app reads
        app.flows.setCounters(e -> dp.counter(e.deviceId(), e));
        assertEquals(5, bucketEntry(ba).packets());
        assertEquals(8, SwitchCounters.classified(app.flows, PaperTestbed.sfc1()).getAsLong());
        assertEquals(0, SwitchCounters.classified(app.flows, PaperTestbed.sfc2()).getAsLong());
    }

    @Test
    public void anEntryKeepsItsCounterAcrossReprogrammingUntilItIsRemoved() {
        byte[] a = flow(5000);
        int ba = FlowHash.bucket(FlowHash.hash(a, 14, a.length - 14), Srv6IntPipelineConstants.ENCAP_BUCKETS);
        dp.inject(SW1, PortNumber.portNumber(1), a, 0);
        dp.inject(SW1, PortNumber.portNumber(1), a, 1);
        FlowEntry e = bucketEntry(ba);
        program();
        dp.inject(SW1, PortNumber.portNumber(1), a, 2);
        assertEquals("kept across a reprogram", 3, dp.counter(SW1, e)[0]);
        // the same rule without its entry: gone, and a new install starts at zero
        List<FlowRule> without = new ArrayList<>();
        app.flows.getFlowEntries(SW1).forEach(r -> {
            if (!r.equals(e)) {
                without.add(r);
            }
        });
        List<Group> groups = new ArrayList<>();
        app.groups.getGroups(SW1).forEach(groups::add);
        dp.program(SW1, without, groups);
        assertNull(dp.counter(SW1, e));
        program();
        assertNotNull(dp.counter(SW1, e));
        assertEquals(0, dp.counter(SW1, e)[0]);
        assertNull("no such switch", dp.counter(DeviceId.deviceId("of:00000000000000ff"), e));
    }
}
