// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.wiring;

import org.srv6int.agent.ReplayFixture;

import java.nio.file.Path;
import java.util.List;

/**
 * The wiring crossed by traffic, run by {@code tests/ci.d/45-ovs.sh} inside a
 * network namespace standing for the worker: a private userspace OVS
 * ({@link OvsSandbox}), a veth pair standing for the NIC and the switch behind
 * it, and two pod namespaces each running {@code tools/wiring/pod-echo}
 * (returns what it receives, with its own MAC as source). SRv6-INT frames
 * (the codec's encoders, via {@link ReplayFixture}) are sent from the switch
 * side to each SID; a frame counts as delivered when it comes back from the
 * pod that owns the SID. Then: unwire one SID, flush the rules, restart
 * {@code ovs-vswitchd}, and check what arrives each time.
 *
 * <p>usage: {@code WiringCrossCheck DIR BRIDGE NIC SWITCH_SIDE SID_A POD_A MAC_A SID_B POD_B MAC_B};
 * prints one line per check and {@code N passed, N failed}; exit 1 on a failure.
 */
public final class WiringCrossCheck {

    /** Frames sent to each SID per round (bounded). */
    static final int COUNT = 50;

    private final SidRoundTrip trip;
    private final String[] pods;

    private WiringCrossCheck(SidRoundTrip trip, String[] pods) {
        this.trip = trip;
        this.pods = pods;
    }

    /**
     * Runs the check.
     *
     * @param args see the class comment
     * @throws Exception on a setup failure
     */
    public static void main(String[] args) throws Exception {
        if (args.length != 10) {
            System.err.println("usage: WiringCrossCheck DIR BRIDGE NIC SWITCH_SIDE SID_A POD_A MAC_A SID_B POD_B "
                    + "MAC_B");
            System.exit(2);
        }
        Path dir = Path.of(args[0]);
        String bridge = args[1];
        String nic = args[2];
        int failed;
        try (OvsSandbox ovs = OvsSandbox.start(dir, null);
             SidRoundTrip trip = SidRoundTrip.open(args[3], new String[]{args[4], args[7]},
                                                   new String[]{args[6], args[9]})) {
            WiringCrossCheck c = new WiringCrossCheck(trip, new String[]{args[5], args[8]});
            c.run(ovs, new OvsSidWiring(ovs.commands(), bridge, "netdev"), nic, args[4], args[7]);
            failed = trip.summary();
        }
        System.exit(failed == 0 ? 0 : 1);
    }

    private void run(OvsSandbox ovs, OvsSidWiring w, String nic, String sidA, String sidB) throws Exception {
        w.wire(sidA, pods[0], nic);
        OvsSidWiring.Reconciled r = w.wire(sidB, pods[1], nic);
        check("wired both SIDs, nothing broken: " + r, r.broken().isEmpty() && w.rules().size() == 4);
        int[][] got = round(ovs);
        check("SID A delivered to pod A and back: " + got[0][0] + "/" + COUNT, got[0][0] == COUNT);
        check("SID B delivered to pod B and back: " + got[1][1] + "/" + COUNT, got[1][1] == COUNT);
        check("no SID reached the other pod: " + got[0][1] + ", " + got[1][0], got[0][1] == 0 && got[1][0] == 0);

        r = w.unwire(sidB);
        check("unwire B removed 2 rules and its port: " + r, r.removed() == 2 && r.portsRemoved() == 1);
        got = round(ovs);
        check("after unwire, SID B is delivered nowhere: " + (got[1][0] + got[1][1]), got[1][0] + got[1][1] == 0);
        check("after unwire, SID A still delivered: " + got[0][0] + "/" + COUNT, got[0][0] == COUNT);

        ovs.commands().ofctl(List.of("del-flows", w.bridge()), null);
        got = round(ovs);
        check("flushed rules: SID A delivered nowhere: " + (got[0][0] + got[0][1]), got[0][0] + got[0][1] == 0);
        r = w.reconcile();
        check("reconcile after the flush added 2 rules: " + r, r.added() == 2 && r.removed() == 0);
        got = round(ovs);
        check("after repair, SID A delivered: " + got[0][0] + "/" + COUNT, got[0][0] == COUNT);

        ovs.restartSwitch();
        got = round(ovs);
        check("ovs-vswitchd restarted: SID A delivered nowhere: " + (got[0][0] + got[0][1]),
                got[0][0] + got[0][1] == 0);
        r = w.reconcile();
        check("reconcile after the restart added 2 rules: " + r, r.added() == 2 && r.removed() == 0);
        got = round(ovs);
        check("after repair, SID A delivered: " + got[0][0] + "/" + COUNT, got[0][0] == COUNT);
        r = w.reconcile();
        check("reconcile again changes nothing: " + r, r.added() == 0 && r.removed() == 0);
        check("no OVS errors counted: " + w.errors(), w.errors() == 0);
    }

    /**
     * Sends COUNT frames to each SID from the switch side and counts what comes back, by SID
     * (IPv6 destination) and by pod (source MAC), once the datapath follows the rules.
     *
     * @return got[sid][pod]
     */
    private int[][] round(OvsSandbox ovs) throws Exception {
        return trip.round(ovs, new byte[][]{ReplayFixture.frame(trip.sid(0), 1, true, 1_000_000),
                                            ReplayFixture.frame(trip.sid(1), 1, true, 1_000_001)}, COUNT);
    }

    private void check(String what, boolean ok) {
        trip.check(what, ok);
    }
}
