// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cluster;

import org.junit.After;
import org.junit.Before;
import org.junit.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

/**
 * A member that cannot join its cluster exits and says why, rather than living on without serving
 * (Atomix's threads would keep its JVM alive): a supervisor then sees it and starts it again.
 */
public class MemberStartTest {

    private static final long EXIT_BOUND_MS = 90_000;

    private Path dir;
    private MemberProcesses cluster;

    @Before
    public void setUp() throws Exception {
        dir = Files.createTempDirectory("mst");
        cluster = new MemberProcesses(dir, 3, "of:1");
    }

    @After
    public void tearDown() throws Exception {
        cluster.close();
    }

    @Test
    public void aMemberThatCannotJoinWithinItsJoinTimeoutSaysWhyAndExits() throws Exception {
        // m2 and m3 are never started: m1 alone has no quorum
        cluster.args("m1", List.of("--join-timeout-ms", "3000"));
        cluster.start("m1");
        long end = System.currentTimeMillis() + EXIT_BOUND_MS;
        while (cluster.exitStatus("m1") == null && System.currentTimeMillis() < end) {
            Thread.sleep(200);
        }
        String log = cluster.log("m1");
        assertNotNull("m1 still runs " + EXIT_BOUND_MS + " ms after a 3 s join timeout:\n" + log,
                      cluster.exitStatus("m1"));
        assertEquals(log, 1, (int) cluster.exitStatus("m1"));
        assertTrue(log, log.contains("member m1 failed to start")
                && log.contains("member m1 could not join the cluster in PT3S"));
        assertNull("it never served", cluster.status("m1"));
    }
}
