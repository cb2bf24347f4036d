package org.srv6int.twin.bmv2;

import java.util.ArrayList;
import java.util.List;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.group.Group;
import org.srv6int.app.testing.AppHarness;

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
}
