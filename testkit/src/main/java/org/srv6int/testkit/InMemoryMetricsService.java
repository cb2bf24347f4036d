// SPDX-License-Identifier: Apache-2.0
package org.srv6int.testkit;

import org.onlab.metrics.MetricsManager;
import org.onlab.metrics.MetricsService;
import org.osgi.service.component.annotations.Component;

/**
 * Metrics service: ONOS's own {@link MetricsManager} from onlab-misc (the real registry),
 * which ONOS's core registers and a bare container lacks.
 */
@Component(immediate = true, service = MetricsService.class)
public class InMemoryMetricsService extends MetricsManager {
}
