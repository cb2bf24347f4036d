// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.gui;

import org.junit.Test;
import org.onosproject.ui.topo.NodeBadge;

import static org.junit.Assert.assertEquals;

/**
 * Slack thresholds: green at slack ≥ 20 % of Lmax, amber in [0, 20 %), red
 * when L95 exceeds Lmax, unknown without a window.
 */
public class SlackLevelTest {
    private static final long LMAX = 1_000_000;

    @Test
    public void thresholds() {
        assertEquals(SlackLevel.UNKNOWN, SlackLevel.of(-1, LMAX));
        assertEquals(SlackLevel.GREEN, SlackLevel.of(0, LMAX));
        assertEquals(SlackLevel.GREEN, SlackLevel.of(800_000, LMAX));   // slack exactly 20 %
        assertEquals(SlackLevel.AMBER, SlackLevel.of(800_001, LMAX));
        assertEquals(SlackLevel.AMBER, SlackLevel.of(LMAX, LMAX));      // slack 0: bound still kept
        assertEquals(SlackLevel.RED, SlackLevel.of(LMAX + 1, LMAX));
    }

    @Test
    public void badgeStatusesFollowOnosColours() {
        assertEquals(NodeBadge.Status.INFO, SlackLevel.GREEN.badgeStatus());
        assertEquals(NodeBadge.Status.WARN, SlackLevel.AMBER.badgeStatus());
        assertEquals(NodeBadge.Status.ERROR, SlackLevel.RED.badgeStatus());
    }

    @Test
    public void slackShare() {
        assertEquals(0.12, SlackLevel.slackShare(880_000, LMAX), 1e-9);
        assertEquals(-6.2, SlackLevel.slackShare(7_200_000, LMAX), 1e-9);
    }
}
