// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.program;

import org.junit.Test;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowEntry;
import org.srv6int.testkit.InMemoryStorageService;
import org.srv6int.app.testing.AppHarness;
import org.srv6int.testkit.InMemoryFlowRuleService;
import org.srv6int.testkit.InMemoryGroupService;

import static org.junit.Assert.assertTrue;

/**
 * A FlowRuleService that answers null for "nothing stored" (as onos-api's adapter does, and as
 * the stand-ins of a bare container may) must not stop programming: the app treats null as empty.
 */
public class NullFlowAnswersTest {

    /** Stores what is applied but answers every query with null. */
    private static final class NullAnswers extends InMemoryFlowRuleService {
        @Override
        public Iterable<FlowEntry> getFlowEntries(DeviceId deviceId) {
            return null;
        }

        @Override
        public Iterable<FlowEntry> getFlowEntriesById(ApplicationId id) {
            return null;
        }
    }

    @Test
    public void nullFromTheFlowRuleServiceIsNothingStored() {
        NullAnswers flows = new NullAnswers();
        AppHarness h = new AppHarness(new InMemoryStorageService(), flows, new InMemoryGroupService());
        h.deployFig5();
        // One pass writes the whole program; with nothing ever reported back the next pass
        // writes it again (no convergence, but no failure either).
        int first = h.programmer.reconcile();
        assertTrue("rules are written: " + first, first > 0 && !flows.entries().isEmpty());
        assertTrue(h.programmer.reconcile() > 0);
    }
}
