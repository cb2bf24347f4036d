// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.rest;

import org.onlab.rest.AbstractWebApplication;

import java.util.Set;

/**
 * The app's REST application (web context /onos/srv6int).
 */
public class Srv6IntWebApplication extends AbstractWebApplication {

    @Override
    public Set<Class<?>> getClasses() {
        return getClasses(SfcWebResource.class, VnfWebResource.class, TelemetryWebResource.class,
                          LoopWebResource.class, MetricsWebResource.class);
    }
}
