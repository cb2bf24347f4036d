// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.program;

import org.onlab.packet.IpPrefix;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.DefaultFlowRule;
import org.onosproject.net.flow.DefaultTrafficSelector;
import org.onosproject.net.flow.DefaultTrafficTreatment;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.TrafficSelector;
import org.onosproject.net.flow.criteria.PiCriterion;
import org.onosproject.net.pi.model.PiMatchFieldId;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.runtime.PiTableAction;

/**
 * Small helpers shared by the programmers to build PI flow rules.
 */
final class PiRules {

    private PiRules() {
    }

    /**
     * Builds a permanent rule.
     *
     * @param device   device
     * @param appId    app
     * @param table    table
     * @param match    match, null for the default entry of a keyless table
     * @param priority priority
     * @param action   action
     * @return rule
     */
    static FlowRule rule(DeviceId device, ApplicationId appId, PiTableId table, PiCriterion match, int priority,
                         PiTableAction action) {
        TrafficSelector selector = match == null ? DefaultTrafficSelector.emptySelector()
                : DefaultTrafficSelector.builder().matchPi(match).build();
        return DefaultFlowRule.builder()
                .forDevice(device)
                .fromApp(appId)
                .forTable(table)
                .withSelector(selector)
                .withTreatment(DefaultTrafficTreatment.builder().piTableAction(action).build())
                .withPriority(priority)
                .makePermanent()
                .build();
    }

    /**
     * Builds an LPM match on an address prefix.
     *
     * @param field  field
     * @param prefix prefix
     * @return criterion
     */
    static PiCriterion lpm(PiMatchFieldId field, IpPrefix prefix) {
        return PiCriterion.builder()
                .matchLpm(field, prefix.address().toOctets(), prefix.prefixLength())
                .build();
    }

    /**
     * Returns a ternary mask of {@code len} leading one bits over {@code bytes} bytes.
     *
     * @param bytes width in bytes
     * @param len   prefix length
     * @return mask
     */
    static byte[] prefixMask(int bytes, int len) {
        byte[] m = new byte[bytes];
        for (int i = 0; i < len; i++) {
            m[i / 8] |= (byte) (0x80 >>> (i % 8));
        }
        return m;
    }
}
