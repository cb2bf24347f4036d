// SPDX-License-Identifier: Apache-2.0
package org.srv6int.testkit;

import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.Link;
import org.onosproject.net.link.LinkEvent;
import org.onosproject.net.link.LinkListener;
import org.onosproject.net.link.LinkService;
import org.osgi.service.component.annotations.Component;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Link inventory: unidirectional links added and removed by the test, announced as
 * LINK_ADDED / LINK_REMOVED. {@link InMemoryTopologyService} computes paths over them.
 */
@Component(immediate = true, service = LinkService.class)
public class InMemoryLinkService implements LinkService {

    private final Set<Link> links = new LinkedHashSet<>();
    private final Listeners<LinkEvent, LinkListener> listeners = new Listeners<>();

    /**
     * Adds a link.
     *
     * @param link the link
     */
    public void addLink(Link link) {
        boolean added;
        synchronized (this) {
            added = links.add(link);
        }
        if (added) {
            listeners.post(new LinkEvent(LinkEvent.Type.LINK_ADDED, link));
        }
    }

    /**
     * Removes a link.
     *
     * @param link the link
     */
    public void removeLink(Link link) {
        boolean removed;
        synchronized (this) {
            removed = links.remove(link);
        }
        if (removed) {
            listeners.post(new LinkEvent(LinkEvent.Type.LINK_REMOVED, link));
        }
    }

    private synchronized Set<Link> select(Predicate<Link> p) {
        return links.stream().filter(p).collect(Collectors.toCollection(LinkedHashSet::new));
    }

    @Override
    public synchronized int getLinkCount() {
        return links.size();
    }

    @Override
    public Iterable<Link> getLinks() {
        return select(l -> true);
    }

    @Override
    public Iterable<Link> getActiveLinks() {
        return select(l -> l.state() == Link.State.ACTIVE);
    }

    @Override
    public Set<Link> getDeviceLinks(DeviceId deviceId) {
        return select(l -> l.src().deviceId().equals(deviceId) || l.dst().deviceId().equals(deviceId));
    }

    @Override
    public Set<Link> getDeviceEgressLinks(DeviceId deviceId) {
        return select(l -> l.src().deviceId().equals(deviceId));
    }

    @Override
    public Set<Link> getDeviceIngressLinks(DeviceId deviceId) {
        return select(l -> l.dst().deviceId().equals(deviceId));
    }

    @Override
    public Set<Link> getLinks(ConnectPoint connectPoint) {
        return select(l -> l.src().equals(connectPoint) || l.dst().equals(connectPoint));
    }

    @Override
    public Set<Link> getEgressLinks(ConnectPoint connectPoint) {
        return select(l -> l.src().equals(connectPoint));
    }

    @Override
    public Set<Link> getIngressLinks(ConnectPoint connectPoint) {
        return select(l -> l.dst().equals(connectPoint));
    }

    @Override
    public synchronized Link getLink(ConnectPoint src, ConnectPoint dst) {
        return links.stream().filter(l -> l.src().equals(src) && l.dst().equals(dst)).findFirst().orElse(null);
    }

    @Override
    public void addListener(LinkListener listener) {
        listeners.add(listener);
    }

    @Override
    public void removeListener(LinkListener listener) {
        listeners.remove(listener);
    }
}
