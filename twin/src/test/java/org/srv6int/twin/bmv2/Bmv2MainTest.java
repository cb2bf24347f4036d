// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.bmv2;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.Assume;
import org.junit.Test;
import org.srv6int.twin.Main;

/**
 * {@code tools/twin --dataplane bmv2} where BMv2 cannot run: exit 2 and the reason. (Where it can
 * run, the BMv2 tests of this package exercise the dataplane itself.)
 */
public class Bmv2MainTest {

    @Test
    public void bmv2WhereItCannotRunExitsTwoWithTheReason() throws Exception {
        String reason = Bmv2Dataplane.unavailableReason();
        if (reason == null) {
            System.out.println("SKIP Bmv2MainTest: BMv2 can run here, the refusal is not reachable");
        }
        Assume.assumeTrue("BMv2 can run here", reason != null);
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = Main.run(new String[] {"fig8", "--dataplane", "bmv2"},
                          new PrintStream(new ByteArrayOutputStream(), true, "UTF-8"),
                          new PrintStream(err, true, "UTF-8"));
        String msg = err.toString(StandardCharsets.UTF_8);
        assertEquals(msg, 2, rc);
        assertTrue(msg, msg.startsWith("twin: --dataplane bmv2 cannot run here: ") && msg.contains(reason));
    }
}
