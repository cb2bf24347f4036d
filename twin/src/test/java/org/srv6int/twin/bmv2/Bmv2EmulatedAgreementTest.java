// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.bmv2;

import static org.junit.Assert.assertEquals;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.group.Group;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfReplicaId;
import org.srv6int.app.testing.AppHarness;
import org.srv6int.app.testing.PaperTestbed;
import org.srv6int.twin.control.PathTracer;
import org.srv6int.twin.control.TestbedNetcfg;
import org.srv6int.twin.dataplane.Dataplane;
import org.srv6int.twin.dataplane.EmulatedDataplane;

/**
 * BMv2 and the emulated switches, given the same app rules, send the same probe flows the same
 * way: both hash a flow's inner 5-tuple to one of the chain's 256 buckets (codec {@code FlowHash},
 * P4 {@code lookup_md_init}), so with two Snort replicas of SFC 2 each of the 32 probe flows the
 * twin traces on BMv2 must take the same replica on both. The twin traces 256 flows on the
 * emulated switches and 32 on BMv2, so the shares the two runs of a scenario see differ by
 * sampling only (docs/twin.md "--dataplane bmv2"). Skips like {@link Bmv2DataplaneTest}.
 */
public class Bmv2EmulatedAgreementTest {

    private static Bmv2Dataplane bmv2;
    private static EmulatedDataplane emulated;
    private static AppHarness app;

    @BeforeClass
    public static void startFabric() {
        bmv2 = AppRules.startOrSkip("Bmv2EmulatedAgreementTest", 10);
        emulated = new EmulatedDataplane(TestbedNetcfg.links());
        app = AppRules.fig5();
        app.inventory.addReplica(VnfKey.of(PaperTestbed.SFC2, 0), "worker2");
        app.inventory.addReplica(VnfKey.of(PaperTestbed.SFC1, 1), "worker1");
        app.settle();
        AppRules.programAll(bmv2, app);
        for (DeviceId d : PaperTestbed.SWITCHES) {
            emulated.program(d, AppRules.rules(app, d), AppRules.groups(app, d));
        }
    }

    @AfterClass
    public static void stopFabric() {
        if (bmv2 != null) {
            bmv2.close();
        }
    }

    private static Map<List<VnfReplicaId>, Double> trace(Dataplane dp, SfcId id) {
        Sfc sfc = app.sfcs.getSfc(id).orElseThrow();
        return PathTracer.trace(dp, sfc, app.inventory, app.config.devices, 0);
    }

    @Test
    public void sameProbeFlowsTakeTheSameReplicasOnBothDataplanes() {
        Dataplane emulatedAtBmv2Flows = new SameFlowCount(emulated, bmv2.traceFlows());
        for (SfcId sfc : List.of(PaperTestbed.SFC1, PaperTestbed.SFC2)) {
            Map<List<VnfReplicaId>, Double> onBmv2 = trace(bmv2, sfc);
            Map<List<VnfReplicaId>, Double> onEmulated = trace(emulatedAtBmv2Flows, sfc);
            System.out.println(sfc + " over " + bmv2.traceFlows() + " probe flows: BMv2 " + onBmv2 + ", emulated "
                    + onEmulated + ", emulated over 256 flows " + trace(emulated, sfc));
            assertEquals(sfc + ": every probe flow's path", onEmulated, onBmv2);
            assertEquals(sfc + ": two replicas, two paths", 2, onBmv2.size());
        }
    }

    /** The emulated switches, traced with as many probe flows as BMv2 (the same first flows). */
    private static final class SameFlowCount implements Dataplane {
        private final Dataplane inner;
        private final int flows;

        SameFlowCount(Dataplane inner, int flows) {
            this.inner = inner;
            this.flows = flows;
        }

        @Override
        public void program(DeviceId device, Collection<FlowRule> rules, Collection<Group> groups) {
            inner.program(device, rules, groups);
        }

        @Override
        public List<Frame> inject(DeviceId device, PortNumber port, byte[] frame, long nowNanos) {
            return inner.inject(device, port, frame, nowNanos);
        }

        @Override
        public int traceFlows() {
            return flows;
        }

        @Override
        public void close() {
            inner.close();
        }
    }
}
