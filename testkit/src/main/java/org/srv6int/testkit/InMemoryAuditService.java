// SPDX-License-Identifier: Apache-2.0
package org.srv6int.testkit;

import org.onosproject.security.AuditService;
import org.osgi.service.component.annotations.Component;

import java.util.ArrayList;
import java.util.List;

/**
 * Audit service: records every user action (ONOS's CLI and REST audit each command and
 * request through it) in memory, in order.
 */
@Component(immediate = true, service = AuditService.class)
public class InMemoryAuditService implements AuditService {

    private final List<String> actions = new ArrayList<>();

    @Override
    public boolean isAuditing() {
        return true;
    }

    @Override
    public synchronized void logUserAction(String user, String action) {
        actions.add(user + ": " + action);
    }

    /**
     * Returns the recorded actions.
     *
     * @return "user: action", oldest first
     */
    public synchronized List<String> actions() {
        return new ArrayList<>(actions);
    }
}
