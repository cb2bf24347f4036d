// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import org.junit.Test;
import org.onosproject.store.service.StorageException;

import static org.junit.Assert.assertEquals;

/** A failed action's reason in its decision's outcome never reads "null". */
public class DecisionLogTest {

    @Test
    public void aFailureWithoutAMessageIsNamedByItsType() {
        // ONOS's store timeouts carry no message: the outcome read "group update failed: null"
        assertEquals("Timeout", DecisionLog.reason(new StorageException.Timeout()));
        assertEquals("no node has room", DecisionLog.reason(new IllegalStateException("no node has room")));
    }
}
