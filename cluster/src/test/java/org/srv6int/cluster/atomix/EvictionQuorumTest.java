// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cluster.atomix;

import org.junit.Test;

import java.nio.charset.StandardCharsets;
import java.util.Set;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/** A member is evicted only when a majority of all members holds it unreachable. */
public class EvictionQuorumTest {

    private static final long MS = 1_000_000;

    @Test
    public void aLeaderCutOffIsEvictedWhenBothOthersHoldItUnreachable() {
        EvictionQuorum q = new EvictionQuorum("m2", 3);
        assertEquals("m2 alone is no majority", Set.of(), q.agreed(Set.of("m1"), 0));
        q.heard("m3", Set.of("m1"), 0);
        assertEquals(Set.of("m1"), q.agreed(Set.of("m1"), 100 * MS));
    }

    @Test
    public void aMemberJustHealedDoesNotEvictAPeerTheOthersReach() {
        // m1 healed: its detector still silent on m3, but m2 reaches m3 (and says so every report)
        EvictionQuorum q = new EvictionQuorum("m1", 3);
        q.heard("m2", Set.of(), 0);
        q.heard("m3", Set.of("m1"), 0);
        assertEquals("m3's vote against m1 does not count for m3", Set.of(), q.agreed(Set.of("m3"), 10 * MS));
    }

    @Test
    public void aVoteLapsesWhenItsReportsStop() {
        EvictionQuorum q = new EvictionQuorum("m2", 3);
        q.heard("m3", Set.of("m1"), 0);
        assertEquals(Set.of("m1"), q.agreed(Set.of("m1"), EvictionQuorum.REPORT_FRESH_MS * MS));
        assertEquals("stale", Set.of(), q.agreed(Set.of("m1"), (EvictionQuorum.REPORT_FRESH_MS + 1) * MS));
        q.heard("m3", Set.of(), 2000 * MS);
        assertEquals("withdrawn", Set.of(), q.agreed(Set.of("m1"), 2001 * MS));
    }

    @Test
    public void fiveMembersNeedThreeVotesTheSuspectHavingNone() {
        EvictionQuorum q = new EvictionQuorum("m1", 5);
        q.heard("m2", Set.of("m5"), 0);
        assertEquals(Set.of(), q.agreed(Set.of("m5"), 0));
        q.heard("m5", Set.of("m5", "m4"), 0);
        assertEquals("the suspect's own report is no vote", Set.of(), q.agreed(Set.of("m5"), 0));
        q.heard("m3", Set.of("m5"), 0);
        assertEquals(Set.of("m5"), q.agreed(Set.of("m5", "m4"), 0));
        assertEquals("a report about itself from this member is ignored", Set.of("m5"),
                     q.agreed(Set.of("m5"), 0));
    }

    @Test
    public void reportsOnTheWireNameTheirSender() {
        EvictionQuorum q = new EvictionQuorum("m2", 3);
        q.heard(EvictionQuorum.encode("m3", Set.of("m1")), 0);
        assertEquals(Set.of("m1"), q.agreed(Set.of("m1"), 0));
        q.heard(EvictionQuorum.encode("m3", Set.of()), 0);
        assertEquals(Set.of(), q.agreed(Set.of("m1"), 0));
        try {
            q.heard("m3,m1".getBytes(StandardCharsets.UTF_8), 0);
            fail("a report without its sender");
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("m3,m1"));
        }
    }

    @Test
    public void aPeerWhoseReportsStopIsSilentAfterASecondAndOneNeverHeardIsNot() {
        EvictionQuorum q = new EvictionQuorum("m1", 3);
        assertEquals("no member is silent before it first reports", Set.of(), q.silent(10_000 * MS));
        q.heard("m2", Set.of(), 0);
        q.heard("m3", Set.of(), 0);
        assertEquals(Set.of(), q.silent(EvictionQuorum.SILENT_AFTER_MS * MS));
        q.heard("m3", Set.of(), 900 * MS);
        assertEquals("m2 silent for more than a second", Set.of("m2"),
                     q.silent((EvictionQuorum.SILENT_AFTER_MS + 1) * MS));
        q.heard("m2", Set.of(), 1_100 * MS);
        assertEquals("heard again", Set.of(), q.silent(1_200 * MS));
    }
}
