// SPDX-License-Identifier: Apache-2.0
package org.srv6int.testkit;

import org.onlab.packet.IpAddress;
import org.onlab.packet.MacAddress;
import org.onlab.packet.VlanId;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.Host;
import org.onosproject.net.HostId;
import org.onosproject.net.host.HostEvent;
import org.onosproject.net.host.HostListener;
import org.onosproject.net.host.HostService;
import org.osgi.service.component.annotations.Component;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Host inventory: hosts added by the test, announced as HOST_ADDED / HOST_REMOVED. Nothing
 * is probed (IP monitoring and MAC requests are accepted and do nothing: no data plane).
 */
@Component(immediate = true, service = HostService.class)
public class InMemoryHostService implements HostService {

    private final Map<HostId, Host> hosts = new LinkedHashMap<>();
    private final Listeners<HostEvent, HostListener> listeners = new Listeners<>();

    /**
     * Adds (or replaces) a host.
     *
     * @param host the host
     */
    public void addHost(Host host) {
        synchronized (this) {
            hosts.put(host.id(), host);
        }
        listeners.post(new HostEvent(HostEvent.Type.HOST_ADDED, host));
    }

    /**
     * Removes a host.
     *
     * @param id host id
     */
    public void removeHost(HostId id) {
        Host h;
        synchronized (this) {
            h = hosts.remove(id);
        }
        if (h != null) {
            listeners.post(new HostEvent(HostEvent.Type.HOST_REMOVED, h));
        }
    }

    private synchronized Set<Host> select(Predicate<Host> p) {
        return hosts.values().stream().filter(p).collect(Collectors.toCollection(LinkedHashSet::new));
    }

    @Override
    public synchronized int getHostCount() {
        return hosts.size();
    }

    @Override
    public synchronized Iterable<Host> getHosts() {
        return new ArrayList<>(hosts.values());
    }

    @Override
    public synchronized Host getHost(HostId hostId) {
        return hosts.get(hostId);
    }

    @Override
    public Set<Host> getHostsByVlan(VlanId vlanId) {
        return select(h -> h.vlan().equals(vlanId));
    }

    @Override
    public Set<Host> getHostsByMac(MacAddress mac) {
        return select(h -> h.mac().equals(mac));
    }

    @Override
    public Set<Host> getHostsByIp(IpAddress ip) {
        return select(h -> h.ipAddresses().contains(ip));
    }

    @Override
    public Set<Host> getConnectedHosts(ConnectPoint connectPoint) {
        return select(h -> h.locations().stream().anyMatch(l -> l.equals(connectPoint)));
    }

    @Override
    public Set<Host> getConnectedHosts(DeviceId deviceId) {
        return select(h -> h.locations().stream().anyMatch(l -> l.deviceId().equals(deviceId)));
    }

    @Override
    public void startMonitoringIp(IpAddress ip) {
        // no data plane to probe
    }

    @Override
    public void stopMonitoringIp(IpAddress ip) {
        // no data plane to probe
    }

    @Override
    public void requestMac(IpAddress ip) {
        // no data plane to probe
    }

    @Override
    public void addListener(HostListener listener) {
        listeners.add(listener);
    }

    @Override
    public void removeListener(HostListener listener) {
        listeners.remove(listener);
    }
}
