// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.gui;

import org.onosproject.net.DefaultEdgeLink;
import org.onosproject.net.DeviceId;
import org.onosproject.net.Host;
import org.onosproject.net.Link;
import org.onosproject.net.host.HostService;
import org.onosproject.net.link.LinkService;
import org.onosproject.ui.topo.DeviceHighlight;
import org.onosproject.ui.topo.Highlights;
import org.onosproject.ui.topo.HostHighlight;
import org.onosproject.ui.topo.LinkHighlight;
import org.onosproject.ui.topo.NodeBadge;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.onosproject.ui.topo.LinkHighlight.Flavor.PRIMARY_HIGHLIGHT;
import static org.onosproject.ui.topo.LinkHighlight.Flavor.SECONDARY_HIGHLIGHT;
import static org.onosproject.ui.topo.TopoUtils.compactLinkString;

/**
 * Turns chains into topology-view highlights: every switch that hosts a vNF
 * replica gets a badge with its worst vNF tail latency against Lmax; the
 * selected chain's primary path is drawn as primary links (labelled with the
 * chain's throughput), its other segment lists as secondary links, its switches
 * stay bright while the rest of the topology is subdued, and the workers running
 * its replicas get a badge with their replica count (an error badge when one of
 * them is dead). A DOWN chain's ingress switch gets an error badge "DOWN".
 */
public final class ChainHighlighter {

    /** Text of the badge on a DOWN chain's ingress switch. */
    public static final String DOWN_BADGE = "DOWN";

    private final LinkService linkService;
    private final HostService hostService;

    /**
     * Creates a highlighter over ONOS's link and host inventory.
     *
     * @param linkService links between switches
     * @param hostService hosts, for workers' edge links (may be null: no worker badges)
     */
    public ChainHighlighter(LinkService linkService, HostService hostService) {
        this.linkService = linkService;
        this.hostService = hostService;
    }

    /**
     * Worst vNF (lowest slack) attached to each switch over all chains.
     *
     * @param chains all chains
     * @return per switch hosting a replica, the vNF with the least slack (null value:
     *         none measured yet), in first-seen order
     */
    public static Map<DeviceId, Worst> worstPerDevice(List<ChainView> chains) {
        Map<DeviceId, Worst> worst = new LinkedHashMap<>();
        for (ChainView c : chains) {
            for (VnfView v : c.vnfs()) {
                for (ReplicaView r : v.replicas()) {
                    if (v.p95Ns() < 0) {
                        worst.putIfAbsent(r.attachment(), null);
                        continue;
                    }
                    Worst cand = new Worst(c, v);
                    Worst cur = worst.get(r.attachment());
                    if (cur == null || cand.slackShare() < cur.slackShare()) {
                        worst.put(r.attachment(), cand);
                    }
                }
            }
        }
        return worst;
    }

    /**
     * Highlights for the whole overlay.
     *
     * @param chains   all chains (for badges)
     * @param selected the selected chain, or null for badges only
     * @return highlights to send with {@code TopoJson.highlightsMessage}
     */
    public Highlights highlights(List<ChainView> chains, ChainView selected) {
        Highlights h = new Highlights();
        Map<DeviceId, Worst> worst = worstPerDevice(chains);
        Map<DeviceId, DeviceHighlight> devices = new LinkedHashMap<>();
        if (selected != null) {
            h.subdueAllElse(Highlights.Amount.MINIMALLY);
            for (List<DeviceId> path : selected.paths()) {
                for (DeviceId d : path) {
                    devices.computeIfAbsent(d, k -> new DeviceHighlight(k.toString()));
                }
            }
            addLinks(h, selected);
            addWorkers(h, selected);
        }
        for (Map.Entry<DeviceId, Worst> e : worst.entrySet()) {
            DeviceHighlight dh = devices.computeIfAbsent(e.getKey(), k -> {
                DeviceHighlight x = new DeviceHighlight(k.toString());
                if (selected != null) {
                    x.keepSubdued();  // not part of the selected chain
                }
                return x;
            });
            if (e.getValue() != null) {
                dh.setBadge(e.getValue().badge());
            }
        }
        addDownChains(chains, worst, devices, selected != null);
        devices.values().forEach(h::add);
        return h;
    }

    /**
     * A DOWN chain gets an error badge "DOWN" on its ingress switch (where its traffic enters and
     * vanishes), whose tooltip gives the reason and the last hop seen; it replaces the latency
     * badge there, whose text moves to the tooltip's end.
     */
    private static void addDownChains(List<ChainView> chains, Map<DeviceId, Worst> worst,
                                      Map<DeviceId, DeviceHighlight> devices, boolean subdueNew) {
        Map<DeviceId, StringBuilder> down = new LinkedHashMap<>();
        for (ChainView c : chains) {
            if (c.down() && c.ingress().isPresent()) {
                StringBuilder tip = down.computeIfAbsent(c.ingress().get(), k -> new StringBuilder());
                tip.append(tip.length() == 0 ? "" : " | ").append(c.name()).append(' ')
                        .append(Format.liveness(c.state().get()));
            }
        }
        for (Map.Entry<DeviceId, StringBuilder> e : down.entrySet()) {
            DeviceHighlight dh = devices.computeIfAbsent(e.getKey(), k -> {
                DeviceHighlight x = new DeviceHighlight(k.toString());
                if (subdueNew) {
                    x.keepSubdued();  // not part of the selected chain
                }
                return x;
            });
            Worst w = worst.get(e.getKey());
            String tip = e.getValue() + (w == null ? "" : " | " + w.tooltip());
            dh.setBadge(NodeBadge.text(NodeBadge.Status.ERROR, DOWN_BADGE, tip));
        }
    }

    private void addLinks(Highlights h, ChainView chain) {
        Map<String, LinkHighlight> links = new LinkedHashMap<>();
        String label = Format.packetRate(chain.throughputPps());
        for (int i = 0; i < chain.paths().size(); i++) {
            List<DeviceId> path = chain.paths().get(i);
            boolean primary = i == 0;
            for (int j = 0; j + 1 < path.size(); j++) {
                Optional<Link> link = link(path.get(j), path.get(j + 1));
                if (link.isEmpty()) {
                    continue;  // path not (yet) in ONOS's link inventory: nothing to draw
                }
                String id = compactLinkString(link.get());
                if (links.containsKey(id) && !primary) {
                    continue;  // primary wins over a segment list sharing the link
                }
                LinkHighlight lh = new LinkHighlight(id, primary ? PRIMARY_HIGHLIGHT : SECONDARY_HIGHLIGHT);
                if (primary) {
                    lh.addMod(LinkHighlight.MOD_ANIMATED).setLabel(label);
                }
                links.put(id, lh);
            }
        }
        links.values().forEach(h::add);
    }

    private void addWorkers(Highlights h, ChainView chain) {
        if (hostService == null) {
            return;
        }
        Map<String, Integer> perWorker = new LinkedHashMap<>();
        Map<String, StringBuilder> names = new LinkedHashMap<>();
        Map<String, Boolean> anyDead = new LinkedHashMap<>();
        for (VnfView v : chain.vnfs()) {
            for (ReplicaView r : v.replicas()) {
                perWorker.merge(r.worker(), 1, Integer::sum);
                anyDead.merge(r.worker(), r.dead(), Boolean::logicalOr);
                names.computeIfAbsent(r.worker(), k -> new StringBuilder())
                        .append(names.get(r.worker()).length() == 0 ? "" : ", ").append(r.name())
                        .append(r.dead() ? " " + Format.DEAD_TAG : "");
            }
        }
        for (Map.Entry<String, Integer> e : perWorker.entrySet()) {
            Host host = workerHost(e.getKey());
            if (host == null) {
                continue;
            }
            HostHighlight hh = new HostHighlight(host.id().toString());
            // a worker with a dead replica of the chain gets an error badge
            hh.setBadge(NodeBadge.number(anyDead.get(e.getKey()) ? NodeBadge.Status.ERROR : NodeBadge.Status.INFO,
                    e.getValue(),
                    chain.name() + " replicas on " + e.getKey() + ": " + names.get(e.getKey())));
            h.add(hh);
            // the worker's edge link, as the topology view names it
            LinkHighlight edge = new LinkHighlight(
                    compactLinkString(DefaultEdgeLink.createEdgeLink(host, true)), SECONDARY_HIGHLIGHT);
            h.add(edge);
        }
    }

    /**
     * A worker is the ONOS host whose "name" annotation is the Kubernetes node name.
     */
    private Host workerHost(String worker) {
        for (Host host : hostService.getHosts()) {
            if (worker.equals(host.annotations().value("name"))) {
                return host;
            }
        }
        return null;
    }

    /** The link between two switches in its canonical direction (as the topology view keys it). */
    private Optional<Link> link(DeviceId a, DeviceId b) {
        Link ab = null;
        for (Link l : linkService.getDeviceEgressLinks(a)) {
            if (l.dst().deviceId().equals(b)) {
                ab = l;
                break;
            }
        }
        Link ba = null;
        for (Link l : linkService.getDeviceEgressLinks(b)) {
            if (l.dst().deviceId().equals(a)) {
                ba = l;
                break;
            }
        }
        if (ab == null || ba == null) {
            return Optional.ofNullable(ab != null ? ab : ba);
        }
        return Optional.of(a.toString().compareTo(b.toString()) < 0 ? ab : ba);
    }

    /** The vNF with the least slack among those with a replica on a switch. */
    public static final class Worst {
        private final ChainView chain;
        private final VnfView vnf;

        Worst(ChainView chain, VnfView vnf) {
            this.chain = chain;
            this.vnf = vnf;
        }

        /** @return chain of the vNF */
        public ChainView chain() {
            return chain;
        }

        /** @return the vNF */
        public VnfView vnf() {
            return vnf;
        }

        /** @return (Lmax − p95) / Lmax */
        public double slackShare() {
            return SlackLevel.slackShare(vnf.p95Ns(), vnf.lmaxNs());
        }

        /** @return the slack colour class */
        public SlackLevel level() {
            return vnf.level();
        }

        /** @return badge: p95 as a percentage of Lmax, coloured by slack */
        public NodeBadge badge() {
            long pct = Math.round(100.0 * vnf.p95Ns() / vnf.lmaxNs());
            return NodeBadge.text(level().badgeStatus(), pct + "%", tooltip());
        }

        /** @return the badge's tooltip */
        public String tooltip() {
            return String.format("worst vNF %s (%s, %s): p95 %s / Lmax %s, slack %s (%s)",
                    vnf.id(), vnf.type(), chain.name(),
                    Format.latency(vnf.p95Ns()), Format.latency(vnf.lmaxNs()),
                    Format.percent(slackShare()), level().word());
        }
    }
}
