// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import org.srv6int.app.api.model.Escalation;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.SfcException;
import org.srv6int.app.api.SfcService;
import org.srv6int.app.api.VnfInventoryService;

import java.util.function.Supplier;

/**
 * Takes a node agent's escalation into the global loop: the vNF is checked against its chain,
 * the loop that runs here is asked for, the vNF's replicas are counted in the inventory and
 * {@link GlobalLoop#escalated} records it. {@link GlobalLoopManager#escalate} (REST
 * {@code POST loop/escalations}) and the testbed twin's node agents both go through here.
 */
public final class Escalations {

    private Escalations() {
    }

    /**
     * Records an escalation.
     *
     * @param e         the escalation
     * @param sfcs      the chains
     * @param inventory the replicas
     * @param loop      the loop that runs on this instance; throws IllegalStateException if none
     * @return the recorded ESCALATION decision
     * @throws SfcException          NOT_FOUND if the chain or its vNF is unknown
     * @throws IllegalStateException if no loop runs here or it cannot record
     */
    public static LoopDecision take(Escalation e, SfcService sfcs, VnfInventoryService inventory,
                                    Supplier<GlobalLoop> loop) {
        check(e, sfcs);
        GlobalLoop l = loop.get();
        int replicas = inventory.getReplicas(e.vnf()).size();
        return l.escalated(e.vnf(), replicas, e.node(), e.l95Nanos(), e.lmaxNanos(), e.triedResources());
    }

    /**
     * Checks an escalation's chain and vNF (also before an instance queues it for the leader).
     *
     * @param e    the escalation
     * @param sfcs the chains
     * @throws SfcException NOT_FOUND if the chain or its vNF is unknown
     */
    public static void check(Escalation e, SfcService sfcs) {
        Sfc sfc = sfcs.getSfc(e.vnf().sfcId())
                .orElseThrow(() -> new SfcException(SfcException.Reason.NOT_FOUND, "no chain " + e.vnf().sfcId()));
        int index = e.vnf().index();
        if (index < 0 || index >= sfc.vnfs().size()) {
            throw new SfcException(SfcException.Reason.NOT_FOUND, "chain " + e.vnf().sfcId() + " has no vNF "
                    + index + " (it has " + sfc.vnfs().size() + ")");
        }
    }
}
