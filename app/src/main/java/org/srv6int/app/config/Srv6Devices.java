// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.config;

import com.google.common.collect.ImmutableMap;
import org.onosproject.net.DeviceId;

import java.util.Map;
import java.util.Optional;

/**
 * Immutable snapshot of every switch's {@link Srv6DeviceConfig}, with lookups
 * the placement, inventory and flow programming share.
 */
public final class Srv6Devices {

    private final Map<DeviceId, Srv6DeviceConfig> configs;

    /**
     * Creates a snapshot.
     *
     * @param configs device configs by device id
     */
    public Srv6Devices(Map<DeviceId, Srv6DeviceConfig> configs) {
        this.configs = ImmutableMap.copyOf(configs);
    }

    /**
     * Returns every configured device.
     *
     * @return configs by device id
     */
    public Map<DeviceId, Srv6DeviceConfig> all() {
        return configs;
    }

    /**
     * Returns one device's config.
     *
     * @param deviceId device id
     * @return config, empty if the device has no SRv6 config
     */
    public Optional<Srv6DeviceConfig> get(DeviceId deviceId) {
        return Optional.ofNullable(configs.get(deviceId));
    }

    /**
     * Finds where a Kubernetes node is attached.
     *
     * @param node node name
     * @return the device and server record, empty if no device lists it
     */
    public Optional<Map.Entry<DeviceId, AttachedServer>> locate(String node) {
        return configs.entrySet().stream()
                .sorted(Map.Entry.comparingByKey((a, b) -> a.toString().compareTo(b.toString())))
                .flatMap(e -> e.getValue().server(node).map(s -> Map.entry(e.getKey(), s)).stream())
                .findFirst();
    }
}
