// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cluster;

import org.junit.After;
import org.junit.Before;
import org.junit.Test;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

/**
 * How {@link MemberProcesses} picks loopback ports: below the kernel's ephemeral range (where no
 * outgoing connection can take a port between its pick and the member's bind), none twice, and a
 * port taken after the pick picked anew before the first member starts. No member is started.
 */
public class MemberProcessesTest {

    private Path dir;
    private final List<ServerSocket> held = new ArrayList<>();

    @Before
    public void setUp() throws Exception {
        dir = Files.createTempDirectory("mpt");
    }

    @After
    public void tearDown() throws Exception {
        for (ServerSocket s : held) {
            s.close();
        }
        Files.deleteIfExists(dir);
    }

    private static Set<Integer> ports(MemberProcesses m) {
        Set<Integer> all = new HashSet<>();
        for (String id : m.ids()) {
            all.add(m.raftPort(id));
            all.add(m.httpPort(id));
        }
        return all;
    }

    @Test
    public void portsAreDistinctFreeAndBelowTheEphemeralRange() throws Exception {
        int low = Integer.parseInt(Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).get(0)
                                           .trim().split("\\s+")[0]);
        MemberProcesses m = new MemberProcesses(dir, 3, "of:0000000000000001");
        Set<Integer> all = ports(m);
        assertEquals("six distinct ports: " + all, 6, all.size());
        for (int p : all) {
            assertTrue(p + " in " + MemberProcesses.PORTS_FROM + "-" + MemberProcesses.PORTS_TO + " and below the "
                               + "ephemeral range's " + low, p >= MemberProcesses.PORTS_FROM
                               && p < Math.min(MemberProcesses.PORTS_TO, low));
            assertTrue(p + " free", MemberProcesses.free(p));
        }
    }

    @Test
    public void aPortTakenAfterItsPickIsPickedAnewBeforeTheFirstStart() throws Exception {
        MemberProcesses m = new MemberProcesses(dir, 3, "of:0000000000000001");
        int raft = m.raftPort("m2");
        int http = m.httpPort("m3");
        // another process binds them between the pick and the start
        held.add(new ServerSocket(raft, 1, InetAddress.getLoopbackAddress()));
        held.add(new ServerSocket(http, 1, InetAddress.getLoopbackAddress()));
        assertTrue(!MemberProcesses.free(raft) && !MemberProcesses.free(http));
        List<Integer> repicked = m.repickTakenPorts();
        assertEquals(List.of(raft, http), repicked);
        assertNotEquals(raft, m.raftPort("m2"));
        assertNotEquals(http, m.httpPort("m3"));
        Set<Integer> all = ports(m);
        assertEquals("six distinct ports after the re-pick: " + all, 6, all.size());
        all.forEach(p -> assertTrue(p + " free", MemberProcesses.free(p)));
        assertEquals("nothing more to pick", List.of(), m.repickTakenPorts());
    }
}
