package org.srv6int.twin;

import static org.junit.Assert.assertEquals;

import org.junit.Test;
import org.srv6int.app.testing.AppHarness;
import org.srv6int.app.testing.PaperTestbed;

/** The app core (stores, placement, programming) starts inside the twin's class path. */
public class AppHarnessSmokeTest {
    @Test
    public void appCoreStartsInTheTwin() {
        AppHarness h = new AppHarness();
        assertEquals(PaperTestbed.SWITCHES.size(), h.mastered.size());
    }
}
