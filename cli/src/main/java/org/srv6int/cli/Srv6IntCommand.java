// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cli;

import org.onlab.osgi.ServiceDirectory;
import org.onosproject.cli.AbstractShellCommand;
import org.srv6int.app.api.SfcException;
import org.srv6int.app.api.model.SfcId;

/**
 * Base of the app's commands: service lookup (replaceable in tests) and
 * clear one-line errors instead of stack traces for bad arguments.
 */
public abstract class Srv6IntCommand extends AbstractShellCommand {

    /** Services for tests; null in ONOS (OSGi registry). */
    static volatile ServiceDirectory testServices;

    /** JSON output for tests, which run a command without Karaf's option parser (ONOS's -j). */
    boolean testJson;

    /**
     * Returns a service.
     *
     * @param type service type
     * @param <T>  type
     * @return service
     * @throws IllegalStateException if the service is not running
     */
    static <T> T service(Class<T> type) {
        T s = testServices != null ? testServices.get(type) : get(type);
        if (s == null) {
            throw new IllegalStateException(type.getSimpleName() + " is not running");
        }
        return s;
    }

    @Override
    protected boolean outputJson() {
        return testJson || super.outputJson();
    }

    @Override
    protected final void doExecute() {
        try {
            run();
        } catch (IllegalArgumentException | IllegalStateException | SfcException e) {
            error("Error: %s", e.getMessage());
        }
    }

    /**
     * Runs the command.
     */
    protected abstract void run();

    static SfcId sfcId(String text) {
        return SfcId.valueOf(text);
    }
}
