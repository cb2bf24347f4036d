// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.pools;

import org.onosproject.store.serializers.KryoNamespaces;
import org.onosproject.store.service.ConsistentMap;
import org.onosproject.store.service.Serializer;
import org.onosproject.store.service.StorageService;
import org.onosproject.store.service.Versioned;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.srv6int.app.api.NodePoolService;
import org.srv6int.app.api.model.NodePools;
import org.srv6int.app.config.Srv6IntConfigService;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * {@link NodePoolService} over a ConsistentMap keyed by node name (one small write per node per
 * report period), so every instance, and a new leader of the global loop, sees the same pools.
 * Only nodes with a switch attachment in netcfg are stored: a report from any other node is
 * refused (such a node is never a placement candidate).
 */
@Component(immediate = true, service = NodePoolService.class)
public class NodePoolManager implements NodePoolService {

    static final String MAP_NAME = "srv6int-node-pools";
    /** Three report periods of the agent (5 s each by default). */
    public static final long DEFAULT_MAX_AGE_MS = 15_000;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected StorageService storageService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected Srv6IntConfigService configService;

    private ConsistentMap<String, String> reports;
    private LongSupplier clockMillis = System::currentTimeMillis;
    private Predicate<String> attached;
    private long maxAgeMillis = DEFAULT_MAX_AGE_MS;
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong malformed = new AtomicLong();
    private final AtomicLong unknownNode = new AtomicLong();

    /** For Declarative Services. */
    public NodePoolManager() {
    }

    /**
     * Outside OSGi (the testbed twin): the store on this storage, time from this clock.
     *
     * @param storage      the cluster's storage
     * @param attached     whether a node has a switch attachment in netcfg
     * @param clockMillis  the app's clock
     * @param maxAgeMillis age beyond which a report is stale
     */
    public NodePoolManager(StorageService storage, Predicate<String> attached, LongSupplier clockMillis,
                           long maxAgeMillis) {
        this.storageService = storage;
        this.attached = attached;
        this.clockMillis = clockMillis;
        this.maxAgeMillis = maxAgeMillis;
        activate();
    }

    /** Opens the map. */
    @Activate
    public void activate() {
        if (attached == null) {
            attached = node -> configService.devices().locate(node).isPresent();
        }
        reports = storageService.<String, String>consistentMapBuilder()
                .withName(MAP_NAME)
                .withSerializer(Serializer.using(KryoNamespaces.BASIC))
                .build();
    }

    @Override
    public NodePools report(String node, List<NodePools.Pool> pools) {
        if (!attached.test(node)) {
            unknownNode.incrementAndGet();
            throw new IllegalArgumentException("node " + node
                    + " has no switch attachment in netcfg (devices.*.srv6int.servers[].node): not stored");
        }
        NodePools p = new NodePools(node, pools, clockMillis.getAsLong());
        reports.put(node, encode(p));
        accepted.incrementAndGet();
        return p;
    }

    @Override
    public void countMalformed() {
        malformed.incrementAndGet();
    }

    @Override
    public Optional<NodePools> pools(String node) {
        Versioned<String> v = reports.get(node);
        return v == null ? Optional.empty() : Optional.of(decode(node, v.value()));
    }

    @Override
    public List<NodePools> all() {
        List<NodePools> out = new ArrayList<>();
        for (Map.Entry<String, Versioned<String>> e : reports.entrySet()) {
            out.add(decode(e.getKey(), e.getValue().value()));
        }
        out.sort((a, b) -> a.node().compareTo(b.node()));
        return out;
    }

    @Override
    public long maxAgeMillis() {
        return maxAgeMillis;
    }

    @Override
    public long nowMillis() {
        return clockMillis.getAsLong();
    }

    @Override
    public long[] counters() {
        return new long[] {accepted.get(), malformed.get(), unknownNode.get()};
    }

    /** "receivedAt|numa,cpu free,reclaimable,budget,llc ...,mb ...|..." (Kryo's BASIC types only). */
    static String encode(NodePools p) {
        StringBuilder b = new StringBuilder().append(p.receivedAtMillis());
        for (NodePools.Pool q : p.pools()) {
            long[] v = {q.numaNode(), q.cpuFreeMillis(), q.cpuReclaimableMillis(), q.cpuBudgetMillis(),
                q.llcWaysFree(), q.llcWaysReclaimable(), q.llcWays(), q.memoryBandwidthFreePercent(),
                q.memoryBandwidthReclaimablePercent(), q.memoryBandwidthPercent()};
            b.append('|');
            for (int i = 0; i < v.length; i++) {
                b.append(i == 0 ? "" : ",").append(v[i]);
            }
        }
        return b.toString();
    }

    static NodePools decode(String node, String s) {
        String[] parts = s.split("\\|");
        List<NodePools.Pool> pools = new ArrayList<>();
        for (int i = 1; i < parts.length; i++) {
            String[] f = parts[i].split(",");
            long[] v = new long[f.length];
            for (int k = 0; k < f.length; k++) {
                v[k] = Long.parseLong(f[k]);
            }
            pools.add(new NodePools.Pool((int) v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9]));
        }
        return new NodePools(node, pools, Long.parseLong(parts[0]));
    }
}
