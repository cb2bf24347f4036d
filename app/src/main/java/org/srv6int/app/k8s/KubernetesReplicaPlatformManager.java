// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.k8s;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.srv6int.app.api.model.NodeResources;
import org.srv6int.app.api.model.ReplicaInfo;
import org.srv6int.app.api.ReadinessListener;
import org.srv6int.app.api.model.ResourceNeed;
import org.srv6int.app.api.ReplicaPlatform;
import org.srv6int.app.api.AgentAuthService;
import org.srv6int.app.auth.AgentAuthenticator;
import org.srv6int.k8s.bridge.TokenReviewer;
import org.onosproject.net.config.NetworkConfigEvent;
import org.onosproject.net.config.NetworkConfigListener;
import org.onosproject.net.config.NetworkConfigService;
import org.onosproject.net.flow.FlowRuleService;
import org.onosproject.store.serializers.KryoNamespaces;
import org.onosproject.store.service.Serializer;
import org.onosproject.store.service.StorageService;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.srv6int.app.api.SfcException;
import org.srv6int.app.api.model.ReplicaState;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.SfcEvent;
import org.srv6int.app.api.SfcListener;
import org.srv6int.app.api.SfcService;
import org.srv6int.app.api.VnfInventoryService;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.api.model.VnfReplicaId;
import org.srv6int.app.api.model.VnfSpec;
import org.srv6int.app.config.KubernetesSettings;
import org.srv6int.app.config.Srv6Devices;
import org.srv6int.app.config.Srv6IntAppConfig;
import org.srv6int.app.config.Srv6IntConfigService;
import org.srv6int.app.switchstate.SidSteering;
import org.srv6int.k8s.bridge.BridgeConfig;
import org.srv6int.k8s.bridge.Fabric8VnfReplicaManager;
import org.srv6int.k8s.bridge.ReplicaRequest;
import org.srv6int.k8s.bridge.ReplicaStatus;

import java.io.File;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static org.onlab.util.Tools.groupedThreads;

/**
 * The global loop's {@link ReplicaPlatform} in ONOS: a {@link BridgeReplicaPlatform} over the
 * Kubernetes bridge, built from the netcfg section {@code kubernetes} of
 * {@link Srv6IntAppConfig} ({@link KubernetesSettings}) and rebuilt when that section changes.
 * Without the section (or when the client cannot be built) every call fails with the reason,
 * which the loop records in its decision.
 */
@Component(immediate = true, service = {ReplicaPlatform.class, AgentAuthService.class})
public class KubernetesReplicaPlatformManager implements ReplicaPlatform, AgentAuthService {

    /** Threads for the bridge's blocking calls (a create waits for Ready). */
    static final int BRIDGE_THREADS = 8;

    private final Logger log = LoggerFactory.getLogger(getClass());

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected NetworkConfigService netcfgService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected Srv6IntConfigService configService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected SfcService sfcService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected StorageService storageService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected VnfInventoryService inventory;

    // A removed chain's workloads go once the switches no longer send packets into it (null: at once).
    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected FlowRuleService flowRuleService;

    /** How long a removed chain's workloads wait for the switches to drop its entries, ms. */
    static final long CHAIN_RELEASE_TIMEOUT_MS = 30_000;
    private volatile long chainReleaseTimeoutMillis = CHAIN_RELEASE_TIMEOUT_MS;
    private static final long CHAIN_RELEASE_POLL_MS = 100;
    // Chains whose workloads wait for the switches: the orphan sweep leaves them to that wait.
    private final Set<String> releasing = ConcurrentHashMap.newKeySet();
    private final AtomicLong chainReleaseTimeouts = new AtomicLong();

    /** The cluster's replica request ledger (idempotent creates across leaders). */
    static final String REQUESTS_MAP = "srv6int-replica-requests";
    private Map<String, Integer> requests;

    /** Period of the sweep that deletes workloads of chains that no longer exist, seconds. */
    static final long ORPHAN_SWEEP_SECONDS = 60;
    /** Tries to delete a removed chain's workloads before giving up (logged). */
    static final int REMOVE_ATTEMPTS = 5;

    private final ReplicaIdentities identities = new InventoryIdentities();
    private final NetworkConfigListener netcfgListener = this::netcfgChanged;
    private final SfcListener sfcListener = this::sfcChanged;
    private ExecutorService executor;
    private ScheduledExecutorService sweeper;
    private volatile KubernetesSettings settings;
    private Fabric8VnfReplicaManager bridge;
    // The agents' tokens are reviewed on the bridge's client (its ServiceAccount may create TokenReviews).
    private volatile TokenReviewer reviewer;
    private final AgentAuthenticator agentAuth = new AgentAuthenticator(
            () -> {
                TokenReviewer r = reviewer;
                return r == null ? null : r::review;
            }, () -> this.unavailable, System::currentTimeMillis);
    private volatile ReplicaPlatform current;
    private volatile String unavailable = "not configured";
    private final List<ReadinessListener> readinessListeners = new CopyOnWriteArrayList<>();
    // Outlives the platforms: registered on each one built, so listeners follow a rebuild.
    private final ReadinessListener forward = (vnf, id, ready) -> {
        for (ReadinessListener l : readinessListeners) {
            l.readinessChanged(vnf, id, ready);
        }
    };

    /** Creates the component for OSGi, which sets its references. */
    public KubernetesReplicaPlatformManager() {
    }

    /**
     * Creates the component with its references, for a host without OSGi; call {@link #activate()}.
     *
     * @param netcfgService   ONOS netcfg (its events)
     * @param configService   the app's netcfg
     * @param sfcService      chains
     * @param storageService  storage (the replica request ledger)
     * @param inventory       replicas
     * @param flowRuleService flow rules (a removed chain's workloads wait for them); null: at once
     */
    public KubernetesReplicaPlatformManager(NetworkConfigService netcfgService, Srv6IntConfigService configService,
                                            SfcService sfcService, StorageService storageService,
                                            VnfInventoryService inventory, FlowRuleService flowRuleService) {
        this.netcfgService = netcfgService;
        this.configService = configService;
        this.sfcService = sfcService;
        this.storageService = storageService;
        this.inventory = inventory;
        this.flowRuleService = flowRuleService;
    }

    /**
     * Shortens how long a removed chain's workloads wait for the switches (tests).
     *
     * @param millis the wait, ms
     */
    void chainReleaseTimeout(long millis) {
        chainReleaseTimeoutMillis = millis;
    }

    /** Builds the platform from netcfg and follows its changes. */
    @Activate
    public void activate() {
        executor = Executors.newFixedThreadPool(BRIDGE_THREADS, groupedThreads("srv6int/k8s-bridge", "%d", log));
        requests = storageService.<String, Integer>consistentMapBuilder().withName(REQUESTS_MAP)
                .withSerializer(Serializer.using(KryoNamespaces.BASIC)).build().asJavaMap();
        netcfgService.addListener(netcfgListener);
        sfcService.addListener(sfcListener);
        reconfigure();
        sweeper = Executors.newSingleThreadScheduledExecutor(groupedThreads("srv6int/k8s-orphans", "%d", log));
        sweeper.scheduleWithFixedDelay(this::sweepOrphans, ORPHAN_SWEEP_SECONDS, ORPHAN_SWEEP_SECONDS,
                                       TimeUnit.SECONDS);
        log.info("Started ({})", current != null ? "platform " + settings.namespace() : unavailable);
    }

    /** Closes the bridge's client. */
    @Deactivate
    public void deactivate() {
        netcfgService.removeListener(netcfgListener);
        sfcService.removeListener(sfcListener);
        sweeper.shutdownNow();
        synchronized (this) {
            close("deactivated");
        }
        executor.shutdownNow();
        log.info("Stopped");
    }

    private void netcfgChanged(NetworkConfigEvent e) {
        if (Srv6IntAppConfig.class.equals(e.configClass())) {
            reconfigure();
        }
    }

    // A removed chain's replicas are ours to delete: nothing else would (idempotent on every instance).
    // They go once no switch sends packets into the chain any more (the flow programming removes its
    // classifier and bucket table after the chain's removal, not with it).
    private void sfcChanged(SfcEvent e) {
        if (e.type() == SfcEvent.Type.SFC_REMOVED) {
            Sfc sfc = e.subject();
            String chain = sfc.id().toString();
            releasing.add(chain);
            executor.execute(() -> {
                try {
                    awaitChainOffSwitches(sfc);
                    removeChainWorkloads(chain);
                } finally {
                    releasing.remove(chain);
                }
            });
        }
    }

    /**
     * Waits until no switch holds an entry of a removed chain, at most
     * {@link #CHAIN_RELEASE_TIMEOUT_MS} (30 s); then its workloads go anyway, logged and counted (the
     * chain is gone from the app: what a switch still holds is a programming failure the
     * reconciler keeps retrying, not a reason to keep the pods).
     *
     * @param sfc the removed chain
     * @return true if the switches confirmed, false on timeout or interruption
     */
    boolean awaitChainOffSwitches(Sfc sfc) {
        FlowRuleService flows = flowRuleService;
        if (flows == null) {
            return true;
        }
        long timeout = chainReleaseTimeoutMillis;
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeout);
        Optional<String> where;
        // CHECKSTYLE IGNORE InnerAssignment FOR NEXT 1 LINES
        while ((where = SidSteering.chainEntries(flows, configService.devices().all().keySet(), sfc)).isPresent()) {
            if (System.nanoTime() - deadline >= 0) {
                chainReleaseTimeouts.incrementAndGet();
                log.warn("Chain {} removed but the switches still hold its entries after {} ms ({}): deleting its "
                         + "workloads anyway", sfc.id(), timeout, where.get());
                return false;
            }
            try {
                Thread.sleep(CHAIN_RELEASE_POLL_MS);
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    /**
     * Returns how many removed chains' workloads were deleted while a switch still held entries of
     * the chain (the wait for the switches timed out).
     *
     * @return timeouts since start
     */
    long chainReleaseTimeouts() {
        return chainReleaseTimeouts.get();
    }

    // A crash between create and store, or a removal while the platform was down, leaves workloads
    // no chain owns: they are found by label and deleted.
    private void sweepOrphans() {
        try {
            removeOrphans();
            reconcileReplicas();
        } catch (RuntimeException e) {
            log.warn("Orphan sweep failed, retried in {} s: {}", ORPHAN_SWEEP_SECONDS, e.getMessage());
        }
    }

    /**
     * Makes the workloads of existing chains match the inventory: a PENDING or ACTIVE replica
     * named as a bridge workload whose workload is missing (deleted by hand, lost with a crash)
     * is created again with its identity; a workload of an existing chain's vNF that the
     * inventory does not know is deleted. DRAINING replicas are left alone (they are on their
     * way out; recreating one would race its removal).
     *
     * @return the workloads created ("+name") and deleted ("-name"), in that order
     * @throws IllegalStateException if the platform is not available
     */
    List<String> reconcileReplicas() {
        Fabric8VnfReplicaManager b;
        BridgeReplicaPlatform p;
        synchronized (this) {
            b = bridge;
            p = current instanceof BridgeReplicaPlatform ? (BridgeReplicaPlatform) current : null;
        }
        if (b == null || p == null) {
            throw new IllegalStateException("Kubernetes replica platform " + unavailable);
        }
        List<String> created = new ArrayList<>();
        List<String> deleted = new ArrayList<>();
        for (Sfc chain : sfcService.getSfcs()) {
            String chainId = chain.id().toString();
            for (int i = 0; i < chain.vnfs().size(); i++) {
                VnfKey vnf = VnfKey.of(chain.id(), i);
                // Workloads first, then the inventory: a create reserves its replica before it makes
                // the workload, so a workload listed here is in the inventory read after it.
                List<ReplicaStatus> workloads = b.listReplicas(chainId, i);
                Map<String, VnfReplica> known = new HashMap<>();
                inventory.getReplicas(vnf).forEach(r -> known.put(r.id().name(), r));
                Set<String> present = new HashSet<>();
                for (ReplicaStatus st : workloads) {
                    present.add(st.name());
                    if (!known.containsKey(st.name())) {
                        b.removeReplica(chainId, i, st.replicaIndex());
                        log.info("Deleted workload {}: no replica of {} has that name", st.name(), vnf);
                        deleted.add("-" + st.name());
                    }
                }
                for (VnfReplica r : known.values()) {
                    int k = p.replicaIndex(vnf, r.id().name());
                    if (k < 0 || present.contains(r.id().name())
                            || r.state() == ReplicaState.DRAINING) {
                        continue;
                    }
                    b.ensureReplica(p.request(vnf, k, r));
                    log.info("Recreated the missing workload of replica {} ({})", r.id(), r.sid());
                    created.add("+" + r.id().name());
                }
            }
        }
        created.addAll(deleted);
        return created;
    }

    /** Identities from the app's inventory: a PENDING replica holds the SID until the pod is Ready. */
    private final class InventoryIdentities implements ReplicaIdentities {
        @Override
        public VnfReplica reserve(VnfKey vnf, String node, String replicaName) {
            return inventory.reserveReplica(vnf, node, replicaName);
        }

        @Override
        public boolean release(VnfKey vnf, String replicaName) {
            try {
                return inventory.releaseReservation(VnfReplicaId.of(vnf, replicaName)).isPresent();
            } catch (SfcException e) {
                return false; // no longer PENDING: it carries traffic (or drains), it stays
            }
        }
    }

    /**
     * Deletes the workloads of chains that no longer exist.
     *
     * @return chains whose workloads were deleted
     * @throws IllegalStateException if the platform is not available
     */
    List<String> removeOrphans() {
        Fabric8VnfReplicaManager b;
        synchronized (this) {
            b = bridge;
        }
        if (b == null) {
            throw new IllegalStateException("Kubernetes replica platform " + unavailable);
        }
        Set<String> known = new HashSet<>();
        sfcService.getSfcs().forEach(c -> known.add(c.id().toString()));
        List<String> removed = new ArrayList<>();
        for (String chain : b.listChainIds()) {
            if (!known.contains(chain) && !releasing.contains(chain)) {
                int n = b.removeChain(chain);
                log.info("Deleted {} workload(s) of chain {}, which no longer exists", n, chain);
                removed.add(chain);
            }
        }
        return removed;
    }

    /** Deletes every workload labelled with the chain, retrying API failures with back-off. */
    void removeChainWorkloads(String chain) {
        for (int attempt = 1; attempt <= REMOVE_ATTEMPTS; attempt++) {
            Fabric8VnfReplicaManager b;
            synchronized (this) {
                b = bridge;
            }
            if (b == null) {
                log.warn("Chain {} removed while the Kubernetes replica platform is {}: its workloads stay",
                         chain, unavailable);
                return;
            }
            try {
                int n = b.removeChain(chain);
                log.info("Chain {} removed: deleted {} replica workload(s)", chain, n);
                return;
            } catch (RuntimeException ex) {
                log.warn("Deleting the workloads of removed chain {} failed (attempt {}/{}): {}", chain, attempt,
                         REMOVE_ATTEMPTS, ex.getMessage());
            }
            try {
                Thread.sleep(200L << attempt);
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Re-reads the settings; rebuilds the client when they changed or the last build failed. */
    synchronized void reconfigure() {
        Optional<KubernetesSettings> s = configService.appConfig().flatMap(Srv6IntAppConfig::kubernetes);
        if (s.isPresent() && s.get().equals(settings) && current != null) {
            return; // unchanged and working: keep the client (a failed build is retried on any event)
        }
        close(s.isPresent() ? "not built yet" : "not configured (netcfg apps/" + Srv6IntConfigService.APP_NAME
                + "/" + Srv6IntAppConfig.KEY + "/kubernetes)");
        if (s.isEmpty()) {
            return;
        }
        settings = s.get();
        try {
            bridge = connect(settings);
            reviewer = bridge.tokenReviewer(AUDIENCE);
            BridgeReplicaPlatform p = new BridgeReplicaPlatform(bridge, this::template,
                                                                Duration.ofMillis(settings.readyTimeoutMillis()),
                                                                executor, requests, identities);
            // Starts the bridge's watch; its first listing tells every replica to the listeners.
            p.addReadinessListener(forward);
            current = p;
            log.info("Kubernetes replica platform: namespace {}, {}", settings.namespace(),
                     settings.kubeconfig().map(k -> "kubeconfig " + k)
                             .orElse("API server " + settings.apiServer().orElse("?")));
        } catch (RuntimeException e) {
            unavailable = "cannot be built: " + e.getMessage();
            log.warn("Kubernetes replica platform {}", unavailable);
        }
    }

    // In-flight calls on the old client fail; the loop records them as failed and retries later.
    private void close(String reason) {
        current = null;
        reviewer = null;
        unavailable = reason;
        settings = null;
        if (bridge != null) {
            bridge.close();
            bridge = null;
        }
    }

    @Override
    public Verdict authenticate(String authorization, String node, String source) {
        return agentAuth.authenticate(authorization, node, source);
    }

    @Override
    public String renderMetrics() {
        return agentAuth.renderMetrics();
    }

    /** Builds the bridge's client through its own factories (they handle the OSGi class loader). */
    static Fabric8VnfReplicaManager connect(KubernetesSettings s) {
        BridgeConfig config = BridgeConfig.defaults(s.namespace());
        if (s.kubeconfig().isPresent()) {
            return Fabric8VnfReplicaManager.fromKubeconfig(readable("kubernetes.kubeconfig", s.kubeconfig().get()),
                                                           config);
        }
        File ca = s.caFile().map(f -> readable("kubernetes.caFile", f)).orElse(null);
        return Fabric8VnfReplicaManager.fromToken(s.apiServer().orElseThrow(),
                                                  readable("kubernetes.tokenFile", s.tokenFile().orElseThrow()),
                                                  ca, config);
    }

    private static File readable(String field, String path) {
        File f = new File(path);
        if (!f.isFile() || !f.canRead()) {
            throw new IllegalArgumentException(field + ": cannot read " + path);
        }
        return f;
    }

    private ReplicaRequest.Builder template(VnfKey vnf) {
        KubernetesSettings s = settings;
        String type = sfcService.getSfc(vnf.sfcId()).filter(c -> vnf.index() < c.vnfs().size())
                .map(c -> c.vnfs().get(vnf.index())).map(VnfSpec::type)
                .orElseThrow(() -> new IllegalStateException("no chain has vNF " + vnf));
        if (s == null) {
            throw new IllegalStateException("Kubernetes replica platform " + unavailable);
        }
        KubernetesSettings.VnfTemplate t = s.template(type).orElseThrow(() -> new IllegalStateException(
                "no image for vNF type " + type + " (netcfg kubernetes.vnfTypes)"));
        ReplicaRequest.Builder b = ReplicaRequest.builder().vnfType(type).image(t.image());
        t.requests().forEach(b::request);
        t.limits().forEach(b::limit);
        t.capabilities().forEach(b::capability);
        // LLC ways and bandwidth have no Kubernetes request: the node agent holds the profile's
        ResourceNeed need = s.need(type);
        b.profile(need.llcWays(), need.memoryBandwidthPercent());
        return b;
    }

    private ReplicaPlatform target() {
        ReplicaPlatform p = current;
        if (p == null) {
            throw new IllegalStateException("Kubernetes replica platform " + unavailable);
        }
        return p;
    }

    // Only a node with a switch attachment in netcfg can get traffic: others are not candidates.
    @Override
    public List<NodeResources> nodeFreeResources() {
        List<NodeResources> all = target().nodeFreeResources();
        Srv6Devices devices = configService.devices();
        List<NodeResources> eligible = new ArrayList<>();
        List<String> unattached = new ArrayList<>();
        for (NodeResources n : all) {
            if (devices.locate(n.node()).isPresent()) {
                eligible.add(n);
            } else {
                unattached.add(n.node());
            }
        }
        if (eligible.isEmpty() && !unattached.isEmpty()) {
            throw new IllegalStateException("no eligible node: " + unattached
                    + " have no switch attachment in netcfg (devices.*.srv6int.servers)");
        }
        return eligible;
    }

    @Override
    public CompletionStage<ReplicaInfo> createReplica(VnfKey vnf, String node, String requestId) {
        try {
            return target().createReplica(vnf, node, requestId);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    // Unconfigured or unbuilt: no readiness to offer, INT silence alone judges replicas.
    @Override
    public Optional<Map<String, Boolean>> replicaReadiness(VnfKey vnf) {
        ReplicaPlatform p = current;
        return p == null ? Optional.empty() : p.replicaReadiness(vnf);
    }

    @Override
    public void addReadinessListener(ReadinessListener listener) {
        readinessListeners.add(listener);
    }

    @Override
    public void removeReadinessListener(ReadinessListener listener) {
        readinessListeners.remove(listener);
    }

    @Override
    public CompletionStage<Void> deleteReplica(VnfKey vnf, String replicaId) {
        try {
            return target().deleteReplica(vnf, replicaId);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }
}
