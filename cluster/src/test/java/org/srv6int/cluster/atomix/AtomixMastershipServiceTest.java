// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cluster.atomix;

import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;
import org.onosproject.cluster.NodeId;
import org.onosproject.net.DeviceId;

import java.util.ArrayList;
import java.util.List;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * Device mastership on three real Atomix members in this JVM: a moved master stays master when
 * another candidate runs again (Atomix 3.1.9's anoint alone left the candidate list as it was, and
 * the next run made its head the master again).
 */
public class AtomixMastershipServiceTest {

    private static final DeviceId DEVICE = DeviceId.deviceId("of:00000000000000aa");

    private static InJvmMembers cluster;
    private static final List<AtomixMastershipService> SERVICES = new ArrayList<>();

    @BeforeClass
    public static void startCluster() throws Exception {
        cluster = InJvmMembers.start("rou-mastership");
        for (AtomixNode n : cluster.nodes) {
            SERVICES.add(new AtomixMastershipService(n));
        }
    }

    @AfterClass
    public static void stopCluster() {
        SERVICES.forEach(AtomixMastershipService::close);
        cluster.stop();
    }

    private static boolean allSee(String master) {
        return SERVICES.stream().allMatch(s -> NodeId.nodeId(master).equals(s.getMasterFor(DEVICE)));
    }

    @Test
    public void aMovedMasterStaysMasterWhenAnotherCandidateRunsAgain() throws Exception {
        for (AtomixMastershipService s : SERVICES) {
            s.runFor(List.of(DEVICE)); // m1 first: master m1, candidates m1, m2, m3
        }
        InJvmMembers.await("every member sees m1 master", () -> allSee("m1"));
        assertTrue("moved", SERVICES.get(0).moveMastership(DEVICE, NodeId.nodeId("m3")));
        InJvmMembers.await("every member sees m3 master", () -> allSee("m3"));
        // m2 runs again (withdraws, then runs): a new registration at the list's end
        SERVICES.get(1).relinquishMastership(DEVICE).get();
        InJvmMembers.await("m2 a candidate again", () -> SERVICES.stream().allMatch(
                s -> s.getNodesFor(DEVICE).backups().contains(NodeId.nodeId("m2"))));
        Thread.sleep(1000); // the events of any change the run made have arrived
        for (AtomixMastershipService s : SERVICES) {
            assertEquals("the moved master stays after another candidate ran again", NodeId.nodeId("m3"),
                         s.getMasterFor(DEVICE));
        }
    }
}
