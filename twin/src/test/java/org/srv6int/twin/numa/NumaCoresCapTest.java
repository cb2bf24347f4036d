// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.numa;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.Test;

/** The measured models' CPU cap of the NUMASFP server: a node's cores shared in proportion to demand. */
public class NumaCoresCapTest {
    @Test
    public void aNodeOverItsCoresSharesThemInProportionAndANodeUnderIsUntouched() {
        Map<String, Double> phi = new LinkedHashMap<>(Map.of("a", 4.0, "b", 2.0, "c", 3.0));
        Map<String, Integer> node = Map.of("a", 0, "b", 0, "c", 1);
        Map<String, Double> cpg = Map.of("a", 2.0, "b", 4.0, "c", 1.0);
        NumaServerModel.capByCores(phi, node, cpg);
        // node 0 wants 4*2 + 2*4 = 16 cores of 12: each chain gets 12/16 of its rate
        assertEquals(3.0, phi.get("a"), 1e-9);
        assertEquals(1.5, phi.get("b"), 1e-9);
        assertEquals(3.0, phi.get("c"), 1e-9);
    }

    @Test
    public void aMonitorChainCostsMoreCoresPerGbpsThanARouterChain() {
        double router = NumaServerModel.measuredCoresPerGbps(List.of("router", "router", "router"));
        double monitor = NumaServerModel.measuredCoresPerGbps(List.of("monitor", "monitor", "monitor"));
        assertTrue(router + " < " + monitor, router > 0 && router < monitor);
    }
}
