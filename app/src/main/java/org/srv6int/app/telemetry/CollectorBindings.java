// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.telemetry;

import org.onosproject.net.DeviceId;
import org.srv6int.app.api.model.SfcPaths;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.api.model.VnfReplicaId;
import org.srv6int.app.config.Srv6DeviceConfig;
import org.srv6int.app.config.Srv6Devices;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Keeps one collector's reporters and hop bindings in line with netcfg, mastership, the chains'
 * segment lists and the replicas: the allow-list (a switch's report address to its Device_ID),
 * which of those switches another instance collects, and every chain's hop bindings. Each is
 * given to the collector only when it changed, so a switch keeps its sequence state and a
 * refused chain is reported once per change. The app's TelemetryManager and the testbed twin's
 * collectors both bind through it.
 */
public final class CollectorBindings {

    private Map<Integer, Integer> reporters = Map.of();
    private Set<Integer> elsewhere = Set.of();
    private List<HopBinding> bindings = List.of();

    /**
     * Gives the collector what changed.
     *
     * @param collector          the collector's engine
     * @param devices            the switches' srv6int netcfg
     * @param collectedElsewhere whether another instance collects a switch's reports
     * @param paths              every chain's segment lists
     * @param replicas           the replicas by id
     * @return one message per chain whose new bindings the collector refused (it keeps that
     *         chain's previous ones); empty if the bindings did not change
     */
    public synchronized List<String> apply(TelemetryShards collector, Srv6Devices devices,
                                           Predicate<DeviceId> collectedElsewhere, Collection<SfcPaths> paths,
                                           Function<VnfReplicaId, Optional<VnfReplica>> replicas) {
        Map<Integer, Integer> allow = new HashMap<>();
        Set<Integer> others = new HashSet<>();
        for (Map.Entry<DeviceId, Srv6DeviceConfig> e : devices.all().entrySet()) {
            Srv6DeviceConfig c = e.getValue();
            if (c.reportAddress().isEmpty()) {
                continue;
            }
            int src = c.reportAddress().get().toInt();
            allow.put(src, c.intDeviceId());
            if (collectedElsewhere.test(e.getKey())) {
                others.add(src);
            }
        }
        if (!allow.equals(reporters) || !others.equals(elsewhere)) {
            collector.setReporters(allow, others);
            reporters = allow;
            elsewhere = others;
        }
        Function<DeviceId, Optional<Integer>> intId = d -> devices.get(d).map(Srv6DeviceConfig::intDeviceId);
        List<HopBinding> b = HopBindings.of(paths, replicas, intId);
        if (b.equals(bindings)) {
            return List.of();
        }
        bindings = b;
        return collector.setBindings(b);
    }
}
