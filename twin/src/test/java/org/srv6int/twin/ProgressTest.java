// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.Test;

/** Progress writes a redrawn bar only to a terminal; a log gets one line per experiment. */
public class ProgressTest {
    private static String drive(Progress.Mode mode) throws Exception {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        Progress p = new Progress(new PrintStream(b, true, "UTF-8"), 40, mode);
        for (String run : new String[] {"fig9/ours Fwd", "fig9/ours Snort"}) {
            for (int t = 1; t <= 20; t++) {
                p.advance(run, t);
                Thread.sleep(t == 10 ? 250 : 0); // past the bar's 200 ms redraw interval once per run
            }
            p.finishRun(run, 20);
        }
        p.done();
        return b.toString(StandardCharsets.UTF_8);
    }

    @Test
    public void logGetsOneLinePerExperimentAndNoCarriageReturn() throws Exception {
        String s = drive(Progress.Mode.LINES);
        assertFalse(s, s.contains("\r"));
        String[] lines = s.split("\n");
        assertEquals(s, 3, lines.length);
        assertTrue(lines[0], lines[0].startsWith("twin:  50% fig9/ours Fwd: 20 s simulated in "));
        assertTrue(lines[1], lines[1].startsWith("twin: 100% fig9/ours Snort: 20 s simulated in "));
        assertTrue(lines[2], lines[2].startsWith("twin: done, 2 runs, 40 s simulated in "));
    }

    @Test
    public void terminalGetsARedrawnBar() throws Exception {
        String s = drive(Progress.Mode.BAR);
        assertTrue(s, s.contains("\r["));
        assertTrue(s, s.endsWith("100% done" + " ".repeat(48) + "\n"));
        assertEquals("one newline, at the end", s.indexOf('\n'), s.length() - 1);
    }

    @Test
    public void quietSaysNothing() throws Exception {
        assertEquals("", drive(Progress.Mode.QUIET));
    }

    @Test
    public void launcherDecidesTheMode() {
        String old = System.getProperty(Progress.MODE_PROPERTY);
        try {
            System.setProperty(Progress.MODE_PROPERTY, "lines");
            assertEquals(Progress.Mode.LINES, Progress.Mode.detect());
            System.setProperty(Progress.MODE_PROPERTY, "bar");
            assertEquals(Progress.Mode.BAR, Progress.Mode.detect());
        } finally {
            if (old == null) {
                System.clearProperty(Progress.MODE_PROPERTY);
            } else {
                System.setProperty(Progress.MODE_PROPERTY, old);
            }
        }
    }
}
