// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.bmv2;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.Assume;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.group.Group;
import org.srv6int.app.testing.AppHarness;
import org.srv6int.app.testing.PaperTestbed;

/** The rules and groups the real app installed on one switch of an {@link AppHarness}. */
final class AppRules {

    private AppRules() {
    }

    static List<FlowRule> rules(AppHarness app, DeviceId d) {
        List<FlowRule> out = new ArrayList<>();
        app.flows.getFlowEntries(d).forEach(out::add);
        return out;
    }

    static List<Group> groups(AppHarness app, DeviceId d) {
        List<Group> out = new ArrayList<>();
        app.groups.getGroups(d).forEach(out::add);
        return out;
    }

    /** The app with SFC 1 and SFC 2 of Fig. 5 deployed and programmed. */
    static AppHarness fig5() {
        AppHarness app = new AppHarness();
        app.deployFig5();
        app.settle();
        return app;
    }

    /**
     * Starts the paper testbed on BMv2, or skips the calling test class with the reason printed
     * (no simple_switch_grpc, not root, ...).
     *
     * @param test        test class name for the skip line
     * @param quietMillis quiet period of inject
     * @return the started fabric
     */
    static Bmv2Dataplane startOrSkip(String test, long quietMillis) {
        String reason = Bmv2Dataplane.unavailableReason();
        if (reason != null) {
            System.out.println("SKIP " + test + ": " + reason);
        }
        Assume.assumeTrue(reason, reason == null);
        return new Bmv2Dataplane(Bmv2Topology.paperTestbed(), new PiToP4Runtime(P4InfoIndex.pipeconf()),
                                 TimeUnit.MILLISECONDS.toNanos(quietMillis)).start();
    }

    /** Gives every switch the app's current rules and groups. */
    static void programAll(Bmv2Dataplane dp, AppHarness app) {
        for (DeviceId d : PaperTestbed.SWITCHES) {
            dp.program(d, rules(app, d), groups(app, d));
        }
    }
}
