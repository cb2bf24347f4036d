// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.rest;

import org.onlab.rest.AbstractWebApplication;
import org.onlab.rest.AuthorizationFilter;

import java.util.HashSet;
import java.util.Set;

/**
 * The app's REST application (web context /onos/srv6int). ONOS's authorization filter is
 * replaced by {@link AgentAuthFilter}, which applies it to every request but the node agents'.
 */
public class Srv6IntWebApplication extends AbstractWebApplication {

    @Override
    public Set<Class<?>> getClasses() {
        Set<Class<?>> classes = new HashSet<>(getClasses(SfcWebResource.class, VnfWebResource.class,
                TelemetryWebResource.class, LoopWebResource.class, MetricsWebResource.class));
        classes.remove(AuthorizationFilter.class);
        classes.add(AgentAuthFilter.class);
        return classes;
    }
}
