// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.scenario;

import org.junit.Test;
import org.srv6int.app.config.Srv6IntAppConfig;
import org.srv6int.twin.control.AppCore;
import org.srv6int.twin.control.Topology;

import java.util.List;

import static org.junit.Assert.assertEquals;

/**
 * The scale scenario sets the app's collector limits in its netcfg from its own chain and vNF
 * counts, so the app takes 32 workers' 80 chains and 258 vNFs; small runs keep the defaults.
 */
public class ScaleCollectorLimitsTest {

    private static Srv6IntAppConfig app(int chains, int vnfs) {
        Topology t = Scale.sizedCollector(Topology.leafSpine(1, 2, List.of(List.of(), List.of())), chains, vnfs);
        return AppCore.readNetcfg(t.netcfg()).appConfig().orElseThrow();
    }

    @Test
    public void limitsFollowTheScenarioAndNeverGoBelowTheDefaults() {
        Srv6IntAppConfig big = app(80, 258);
        assertEquals(160, big.collectorMaxChains());
        assertEquals(516, big.collectorMaxVnfs());
        assertEquals(4128, big.collectorMaxReplicas());
        Srv6IntAppConfig small = app(10, 34);
        assertEquals(Srv6IntAppConfig.DEFAULT_MAX_CHAINS, small.collectorMaxChains());
        assertEquals(Srv6IntAppConfig.DEFAULT_MAX_VNFS, small.collectorMaxVnfs());
        assertEquals(Srv6IntAppConfig.DEFAULT_MAX_REPLICAS, small.collectorMaxReplicas());
        // the rest of the testbed's collector settings stay
        assertEquals(256, big.truncateBytes());
    }
}
