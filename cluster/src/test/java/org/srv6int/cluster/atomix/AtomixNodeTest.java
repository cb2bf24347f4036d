// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cluster.atomix;

import org.junit.Test;

import java.io.File;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;

import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/** A member's session timeout (ClusterMember --session-timeout-ms): one shorter than a Raft election is refused. */
public class AtomixNodeTest {

    private static final Map<String, String> MEMBERS = Map.of("m1", "127.0.0.1:1", "m2", "127.0.0.1:2",
                                                              "m3", "127.0.0.1:3");

    @Test
    public void aSessionShorterThanAnElectionIsRefusedWithBothFigures() throws Exception {
        File dir = Files.createTempDirectory("rou-node").toFile();
        try {
            new AtomixNode("m1", MEMBERS, dir, Duration.ofMillis(1000));
            fail("a 1 s session was taken");
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("1000 ms") && e.getMessage().contains("2500 ms"));
        }
    }
}
