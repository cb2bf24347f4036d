// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.program;

import org.srv6int.pipeconf.Srv6IntPipelineConstants;
import org.srv6int.pipeconf.Srv6IntActions;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.GroupId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.DefaultTrafficTreatment;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.group.DefaultGroupBucket;
import org.onosproject.net.group.DefaultGroupDescription;
import org.onosproject.net.group.DefaultGroupKey;
import org.onosproject.net.group.GroupBuckets;
import org.onosproject.net.group.GroupDescription;
import org.onosproject.net.group.GroupKey;
import org.onosproject.net.pi.runtime.PiAction;
import org.srv6int.app.config.CollectorEndpoint;
import org.srv6int.app.config.Srv6DeviceConfig;
import org.srv6int.app.config.Srv6IntAppConfig;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import static org.srv6int.pipeconf.Srv6IntConstants.SRV6_INT_EGRESS_REPORT_REPORT_CONFIG;
import static org.srv6int.pipeconf.Srv6IntConstants.SRV6_INT_INGRESS_SWITCH_INFO;


/**
 * Per-switch settings from netcfg: switch_info (Device_ID, own SID, router
 * MAC), the INT report config and its clone session to the collector port.
 */
public final class SwitchConfigProgrammer {

    /** Group key of the report clone session. */
    public static final GroupKey REPORT_SESSION_KEY = new DefaultGroupKey("srv6int-report".getBytes());

    private SwitchConfigProgrammer() {
    }

    /**
     * Builds the switch's config rules.
     *
     * @param device    device
     * @param cfg       its SRv6 config
     * @param app       app config, may be null (defaults, no reports)
     * @param collector collector of the instance that masters the device, empty for no reports
     * @param appId     app id
     * @return rules
     */
    public static List<FlowRule> rules(DeviceId device, Srv6DeviceConfig cfg, Srv6IntAppConfig app,
                                       Optional<CollectorEndpoint> collector, ApplicationId appId) {
        List<FlowRule> rules = new ArrayList<>();
        PiAction info = Srv6IntActions.setSwitchInfo(cfg.intDeviceId(), cfg.mySid(), cfg.myMac());
        rules.add(PiRules.rule(device, appId, SRV6_INT_INGRESS_SWITCH_INFO, null, 0, info));
        reportAction(cfg, app, collector).ifPresent(a -> rules.add(PiRules.rule(device, appId,
                SRV6_INT_EGRESS_REPORT_REPORT_CONFIG, null, 0, a)));
        return rules;
    }

    // The report goes to the collector of the switch's master: re-pointed when mastership moves.
    private static Optional<PiAction> reportAction(Srv6DeviceConfig cfg, Srv6IntAppConfig app,
                                                   Optional<CollectorEndpoint> collector) {
        if (app == null || collector.isEmpty() || cfg.collectorPort().isEmpty() || cfg.reportAddress().isEmpty()) {
            return Optional.empty();
        }
        CollectorEndpoint c = collector.get();
        return Optional.of(Srv6IntActions.setReportConfig(cfg.myMac(), c.mac(), cfg.reportAddress().get(),
                c.address().getIp4Address(), Srv6IntAppConfig.DEFAULT_COLLECTOR_PORT + cfg.intDeviceId() % 1000,
                        c.port(),
                app.truncateBytes()));
    }

    /**
     * Builds the clone session that copies INT reports to the collector port.
     *
     * @param device    device
     * @param cfg       its SRv6 config
     * @param app       app config, may be null
     * @param collector collector of the instance that masters the device, empty for no reports
     * @param appId     app id
     * @return the session, empty if this switch sends no reports
     */
    public static Optional<GroupDescription> reportSession(DeviceId device, Srv6DeviceConfig cfg,
                                                           Srv6IntAppConfig app, Optional<CollectorEndpoint> collector,
                                                           ApplicationId appId) {
        if (reportAction(cfg, app, collector).isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new DefaultGroupDescription(
                device, GroupDescription.Type.CLONE,
                new GroupBuckets(List.of(DefaultGroupBucket.createCloneGroupBucket(
                        DefaultTrafficTreatment.builder().setOutput(cfg.collectorPort().get()).build()))),
                REPORT_SESSION_KEY, Srv6IntPipelineConstants.REPORT_CLONE_SESSION_ID, appId));
    }

    /**
     * Returns the group id of the report session.
     *
     * @return group id
     */
    public static GroupId reportSessionId() {
        return GroupId.valueOf(Srv6IntPipelineConstants.REPORT_CLONE_SESSION_ID);
    }
}
