// SPDX-License-Identifier: Apache-2.0
package org.srv6int.testkit;

import org.onosproject.net.Device;
import org.onosproject.net.DeviceId;
import org.onosproject.net.MastershipRole;
import org.onosproject.net.Port;
import org.onosproject.net.PortNumber;
import org.onosproject.net.device.DeviceEvent;
import org.onosproject.net.device.DeviceListener;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.device.PortStatistics;
import org.osgi.service.component.annotations.Component;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Device inventory: devices (with their ports) added and removed by the test, announced as
 * DEVICE_ADDED / DEVICE_REMOVED. Added devices are available; no port statistics are kept
 * (there are no switches to poll). The local role comes from {@link InMemoryCluster}.
 */
@Component(immediate = true, service = DeviceService.class)
public class InMemoryDeviceService implements DeviceService {

    private final Map<DeviceId, Device> devices = new LinkedHashMap<>();
    private final Map<DeviceId, List<Port>> ports = new LinkedHashMap<>();
    private final Map<DeviceId, Long> updated = new LinkedHashMap<>();
    private final Listeners<DeviceEvent, DeviceListener> listeners = new Listeners<>();

    /**
     * Adds (or replaces) a device and its ports.
     *
     * @param device the device
     * @param devicePorts its ports
     */
    public void addDevice(Device device, List<Port> devicePorts) {
        synchronized (this) {
            devices.put(device.id(), device);
            ports.put(device.id(), List.copyOf(devicePorts));
            updated.put(device.id(), System.currentTimeMillis());
        }
        listeners.post(new DeviceEvent(DeviceEvent.Type.DEVICE_ADDED, device));
    }

    /**
     * Removes a device.
     *
     * @param id device id
     */
    public void removeDevice(DeviceId id) {
        Device d;
        synchronized (this) {
            d = devices.remove(id);
            ports.remove(id);
            updated.remove(id);
        }
        if (d != null) {
            listeners.post(new DeviceEvent(DeviceEvent.Type.DEVICE_REMOVED, d));
        }
    }

    @Override
    public synchronized int getDeviceCount() {
        return devices.size();
    }

    @Override
    public synchronized Iterable<Device> getDevices() {
        return new ArrayList<>(devices.values());
    }

    @Override
    public synchronized Iterable<Device> getDevices(Device.Type type) {
        return devices.values().stream().filter(d -> d.type() == type).collect(Collectors.toList());
    }

    @Override
    public Iterable<Device> getAvailableDevices() {
        return getDevices();
    }

    @Override
    public Iterable<Device> getAvailableDevices(Device.Type type) {
        return getDevices(type);
    }

    @Override
    public synchronized Device getDevice(DeviceId deviceId) {
        return devices.get(deviceId);
    }

    @Override
    public MastershipRole getRole(DeviceId deviceId) {
        return TestkitNode.LOCAL_ID.equals(InMemoryCluster.shared().master(deviceId))
                ? MastershipRole.MASTER : MastershipRole.STANDBY;
    }

    @Override
    public synchronized List<Port> getPorts(DeviceId deviceId) {
        return ports.getOrDefault(deviceId, List.of());
    }

    @Override
    public List<PortStatistics> getPortStatistics(DeviceId deviceId) {
        return List.of();
    }

    @Override
    public List<PortStatistics> getPortDeltaStatistics(DeviceId deviceId) {
        return List.of();
    }

    @Override
    public synchronized Port getPort(DeviceId deviceId, PortNumber portNumber) {
        return ports.getOrDefault(deviceId, List.of()).stream().filter(p -> p.number().equals(portNumber))
                .findFirst().orElse(null);
    }

    @Override
    public synchronized boolean isAvailable(DeviceId deviceId) {
        return devices.containsKey(deviceId);
    }

    @Override
    public String localStatus(DeviceId deviceId) {
        return isAvailable(deviceId) ? "connected" : "disconnected";
    }

    @Override
    public synchronized long getLastUpdatedInstant(DeviceId deviceId) {
        return updated.getOrDefault(deviceId, 0L);
    }

    @Override
    public void addListener(DeviceListener listener) {
        listeners.add(listener);
    }

    @Override
    public void removeListener(DeviceListener listener) {
        listeners.remove(listener);
    }
}
