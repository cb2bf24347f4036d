// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.k8s;

import org.junit.Test;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.testing.FakeInventory;
import org.srv6int.app.program.ChainProgrammer;
import org.srv6int.app.testing.FakeConfigService;
import org.srv6int.app.testing.InMemorySfcService;
import org.srv6int.app.testing.PaperTestbed;
import org.srv6int.testkit.InMemoryFlowRuleService;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.Assert.assertEquals;

/**
 * A removed chain's workloads wait for the switches to drop the chain's entries (docs/global-loop.md,
 * "Cleanup"), on a fabric8 mock API server of its own ({@link KubernetesMock}).
 */
public class ChainRemovalTest {

    @Test
    public void aRemovedChainsWorkloadsWaitForItsEntriesToLeaveTheSwitchesThenGoAnywayCounted() throws Exception {
        Sfc chain = PaperTestbed.sfc2();
        InMemorySfcService chains = new InMemorySfcService(chain);
        InMemoryFlowRuleService flows = new InMemoryFlowRuleService();
        // A switch that keeps the chain's classifier (its removal is not confirmed, or fails).
        flows.applyFlowRules(ChainProgrammer.classifierRule(chain, PaperTestbed.APP_ID));
        try (KubernetesMock k8s = new KubernetesMock()) {
            k8s.addNode("worker1", "20", "64Gi");
            FakeConfigService cfg = KubernetesMock.configOf(
                    KubernetesMock.appConfig("{\"kubernetes\":" + k8s.kubernetesJson() + "}"));
            KubernetesReplicaPlatformManager m = KubernetesMock.platform(chains, cfg, new KubernetesMock.Netcfg(),
                                                                         new FakeInventory(), flows);
            m.chainReleaseTimeout(2_000);
            try {
                m.createReplica(VnfKey.of(chain.id(), 0), "worker1", "c1-0").toCompletableFuture()
                        .get(10, TimeUnit.SECONDS);
                assertEquals(1, k8s.statefulSetNames().size());
                chains.removeSfc(chain.id());
                Thread.sleep(500);
                assertEquals("kept while the switch still sends packets into the chain", 1,
                             k8s.statefulSetNames().size());
                assertEquals(0, m.chainReleaseTimeouts());
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (!k8s.statefulSetNames().isEmpty() && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
                assertEquals("deleted after the wait, logged and counted", List.of(), k8s.statefulSetNames());
                assertEquals(1, m.chainReleaseTimeouts());
            } finally {
                m.deactivate();
            }
        }
    }
}
