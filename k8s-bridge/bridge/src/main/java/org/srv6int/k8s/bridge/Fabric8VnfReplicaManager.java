// SPDX-License-Identifier: Apache-2.0
package org.srv6int.k8s.bridge;

import java.util.SortedSet;
import java.util.TreeSet;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.StatusDetails;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory;
import org.slf4j.Logger;
import org.srv6int.k8s.bridge.crd.ChainOwners;
import org.slf4j.LoggerFactory;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * {@link VnfReplicaManager} on the fabric8 Kubernetes client.
 *
 * <p>One replica = one StatefulSet with {@code replicas: 1} named
 * {@code sfc-<chain>-vnf<idx>-r<replica>}, its pod pinned to the node by a
 * {@code kubernetes.io/hostname} node selector (the scheduler still checks that
 * the requests fit). A StatefulSet rather than a Deployment because its pod has a
 * fixed name ({@code <name>-0}): a replica can never have two pods, not even while a
 * killed pod is being replaced, and it is recreated by the controller when it dies.
 * One StatefulSet per replica rather than one per vNF because each replica is
 * pinned to its own node and the global loop drains and removes a chosen replica,
 * not the highest ordinal.
 */
public final class Fabric8VnfReplicaManager implements VnfReplicaManager, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Fabric8VnfReplicaManager.class);

    /** Name of the vNF container in the replica's pod. */
    public static final String CONTAINER = "vnf";
    private static final long GRACE_SECONDS = 10;

    private final KubernetesClient client;
    private final BridgeConfig config;
    private final Retrier retrier;
    private final boolean ownsClient;
    private final ReplicaWatch watch;
    private final NodeCapacityWatch capacity;
    private final AtomicLong fromWatch = new AtomicLong();
    private final AtomicLong byList = new AtomicLong();

    /**
     * Creates a manager on a client the caller owns. The client should not retry by
     * itself (requestRetryBackoffLimit 0, see {@link #tune}): this manager retries.
     *
     * @param client Kubernetes client
     * @param config bridge settings
     */
    public Fabric8VnfReplicaManager(KubernetesClient client, BridgeConfig config) {
        this(client, config, false);
    }

    private Fabric8VnfReplicaManager(KubernetesClient client, BridgeConfig config, boolean ownsClient) {
        this.client = client;
        this.config = config;
        this.retrier = new Retrier(config);
        this.ownsClient = ownsClient;
        this.watch = new ReplicaWatch(client, config.namespace(), ReplicaWatch.RESTART_AFTER);
        this.capacity = new NodeCapacityWatch(client, ReplicaWatch.RESTART_AFTER);
    }

    /**
     * A reviewer of bearer tokens on this manager's client (same API server, same credentials).
     *
     * @param audience the audience tokens must carry
     * @return reviewer, valid while this manager is open
     */
    public TokenReviewer tokenReviewer(String audience) {
        return new TokenReviewer(client, audience);
    }

    /**
     * Creates a manager with its own client from a kubeconfig file.
     *
     * @param kubeconfig kubeconfig path
     * @param config bridge settings
     * @return manager; close it to release the client
     */
    public static Fabric8VnfReplicaManager fromKubeconfig(File kubeconfig, BridgeConfig config) {
        return new Fabric8VnfReplicaManager(newClient(kubeconfigConfig(kubeconfig), config), config, true);
    }

    /**
     * Creates a manager with its own client that authenticates with a bearer token
     * (e.g. a ServiceAccount token). The token file is read on every request, so a
     * rotated (projected) token is picked up without rebuilding the client.
     *
     * @param apiServer API server URL (https://host:port)
     * @param tokenFile file holding the bearer token
     * @param caFile CA certificate (PEM) the API server's certificate is checked against;
     *               null to use the JVM's trust store
     * @param config bridge settings
     * @return manager; close it to release the client
     */
    public static Fabric8VnfReplicaManager fromToken(String apiServer, File tokenFile, File caFile,
                                                     BridgeConfig config) {
        return new Fabric8VnfReplicaManager(newClient(tokenConfig(apiServer, tokenFile, caFile, config), config),
                                            config, true);
    }

    /**
     * Returns the client configuration of a kubeconfig file, read when a client is built.
     *
     * @param kubeconfig kubeconfig path
     * @return configuration supplier for {@link #newClient}
     */
    public static Supplier<Config> kubeconfigConfig(File kubeconfig) {
        return () -> Config.fromKubeconfig(kubeconfig);
    }

    /**
     * Returns the client configuration of a bearer token file (read on every request, so a rotated
     * token is picked up) and an optional CA file.
     *
     * @param apiServer API server URL (https://host:port)
     * @param tokenFile file holding the bearer token
     * @param caFile CA certificate (PEM); null to use the JVM's trust store
     * @param config bridge settings (the namespace)
     * @return configuration supplier for {@link #newClient}
     */
    public static Supplier<Config> tokenConfig(String apiServer, File tokenFile, File caFile, BridgeConfig config) {
        return () -> {
            ConfigBuilder b = new ConfigBuilder(Config.empty()).withMasterUrl(apiServer)
                    .withNamespace(config.namespace()).withOauthTokenProvider(() -> readToken(tokenFile));
            if (caFile != null) {
                b.withCaCertFile(caFile.getPath());
            }
            return b.build();
        };
    }

    private static String readToken(File tokenFile) {
        try {
            return new String(Files.readAllBytes(tokenFile.toPath()), StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read token file " + tokenFile, e);
        }
    }

    /**
     * Builds a client of the bridge's own (the one place that does): fabric8's retries off, the
     * bridge's timeouts ({@link #tune}), the Vert.x transport named explicitly. The manager and the
     * chain controller ({@code org.srv6int.k8s.bridge.crd}) each build theirs here.
     *
     * @param base client configuration
     * @param config bridge settings
     * @return client; the caller closes it
     */
    public static KubernetesClient newClient(Supplier<Config> base, BridgeConfig config) {
        // In OSGi the caller's context class loader is not this bundle's (or is null), but fabric8
        // and Vert.x look up services and logging through it while the client is built.
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(Fabric8VnfReplicaManager.class.getClassLoader());
        try {
            Config c = tune(base.get(), config);
            // Explicit factory: ServiceLoader discovery of the HTTP client is not relied upon.
            return new KubernetesClientBuilder().withConfig(c).withHttpClientFactory(new VertxHttpClientFactory())
                    .build();
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    /**
     * Returns a copy of a client configuration with fabric8's own retries off (the
     * manager's budget is the only one), the bridge's request timeout, and the watch's
     * reconnect back-off starting at the bridge's first back-off (fabric8 doubles it five
     * times at most: 100 ms to 3.2 s by default).
     *
     * @param base client configuration
     * @param config bridge settings
     * @return tuned configuration
     */
    public static Config tune(Config base, BridgeConfig config) {
        int timeoutMs = (int) Math.min(Integer.MAX_VALUE, config.requestTimeout().toMillis());
        int reconnectMs = (int) Math.max(1, Math.min(Integer.MAX_VALUE, config.initialBackoff().toMillis()));
        return new ConfigBuilder(base).withRequestRetryBackoffLimit(0).withRequestTimeout(timeoutMs)
                .withConnectionTimeout(timeoutMs).withWatchReconnectInterval(reconnectMs).build();
    }

    @Override
    public void close() {
        watch.close();
        capacity.close();
        if (ownsClient) {
            client.close();
        }
    }

    @Override
    public ReplicaStatus ensureReplica(ReplicaRequest request) {
        final String name = request.name();
        final StatefulSet desired = withChainOwner(statefulSet(request), request.chainId());
        StatefulSet sts = retrier.call("ensure StatefulSet " + config.namespace() + "/" + name, () -> {
            StatefulSet existing = getStatefulSet(name);
            if (existing == null) {
                try {
                    return client.apps().statefulSets().inNamespace(config.namespace()).resource(desired).create();
                } catch (KubernetesClientException e) {
                    if (e.getCode() != 409) {
                        throw e;
                    }
                    // An earlier attempt (or another caller) created it: get, never create twice.
                    existing = getStatefulSet(name);
                    if (existing == null) {
                        throw new TransientConditionException(name + " reported as existing but not found");
                    }
                }
            }
            checkOwned(existing, request);
            if (existing.getMetadata().getDeletionTimestamp() != null) {
                throw new TransientConditionException(name + " is being deleted; waiting to recreate it");
            }
            return existing;
        });
        String node = nodeSelectorOf(sts);
        if (!request.nodeName().equals(node)) {
            log.warn("{} already exists pinned to {}, not {}; keeping it", name, node, request.nodeName());
        }
        Map<String, String> have = sts.getMetadata().getAnnotations();
        for (Map.Entry<String, String> e : request.annotations().entrySet()) {
            if (have == null || !e.getValue().equals(have.get(e.getKey()))) {
                log.warn("{} already exists with {}={}, not {}; keeping it", name, e.getKey(),
                         have == null ? null : have.get(e.getKey()), e.getValue());
            }
        }
        return status(name, request.replicaIndex());
    }

    @Override
    public ReplicaStatus awaitReady(String chainId, int vnfIndex, int replicaIndex, Duration timeout) {
        final String name = ReplicaNames.replicaName(chainId, vnfIndex, replicaIndex);
        final long start = System.nanoTime();
        watch.ensureStarted(); // listing while the existence is checked
        // Authoritative: the watch may not have seen a StatefulSet made a moment ago.
        if (retrier.call("get StatefulSet " + config.namespace() + "/" + name, () -> getStatefulSet(name)) == null) {
            throw new BridgeException("replica " + config.namespace() + "/" + name + " does not exist", 1, 404, null);
        }
        return watch.awaitReady(name, timeout.minusNanos(System.nanoTime() - start));
    }

    @Override
    public Optional<List<ReplicaStatus>> watchedReplicas(String chainId, int vnfIndex) {
        return watch.replicas(chainId, vnfIndex);
    }

    @Override
    public void addListener(ReplicaListener listener) {
        watch.addListener(listener);
    }

    @Override
    public void removeListener(ReplicaListener listener) {
        watch.removeListener(listener);
    }

    @Override
    public List<ReplicaStatus> scale(String chainId, int vnfIndex, List<ReplicaRequest> desired) {
        Set<Integer> keep = new HashSet<>();
        for (ReplicaRequest r : desired) {
            if (!r.chainId().equals(chainId) || r.vnfIndex() != vnfIndex) {
                throw new IllegalArgumentException("scale of " + chainId + "/vnf" + vnfIndex
                        + " got a request for another vNF: " + r);
            }
            if (!keep.add(r.replicaIndex())) {
                throw new IllegalArgumentException("replica index " + r.replicaIndex() + " requested twice");
            }
        }
        List<ReplicaStatus> out = new ArrayList<>();
        for (ReplicaRequest r : desired) {
            out.add(ensureReplica(r));
        }
        for (StatefulSet sts : listStatefulSets(chainId, vnfIndex)) {
            int idx = replicaIndexOf(sts);
            if (!keep.contains(idx)) {
                removeReplica(chainId, vnfIndex, idx);
            }
        }
        return out;
    }

    @Override
    public boolean removeReplica(String chainId, int vnfIndex, int replicaIndex) {
        String name = ReplicaNames.replicaName(chainId, vnfIndex, replicaIndex);
        return delete(name);
    }

    @Override
    public int removeChain(String chainId) {
        ReplicaNames.checkChainId(chainId);
        List<StatefulSet> all = retrier.call("list replicas of chain " + chainId, () ->
                client.apps().statefulSets().inNamespace(config.namespace())
                        .withLabel(ReplicaNames.LABEL_MANAGED_BY, ReplicaNames.MANAGER)
                        .withLabel(ReplicaNames.LABEL_CHAIN, chainId).list().getItems());
        int n = 0;
        for (StatefulSet sts : all) {
            if (delete(sts.getMetadata().getName())) {
                n++;
            }
        }
        return n;
    }

    @Override
    public SortedSet<String> listChainIds() {
        List<StatefulSet> all = retrier.call("list replicas of every chain", () ->
                client.apps().statefulSets().inNamespace(config.namespace())
                        .withLabel(ReplicaNames.LABEL_MANAGED_BY, ReplicaNames.MANAGER).list().getItems());
        SortedSet<String> out = new TreeSet<>();
        for (StatefulSet sts : all) {
            Map<String, String> labels = sts.getMetadata().getLabels();
            String chain = labels == null ? null : labels.get(ReplicaNames.LABEL_CHAIN);
            if (chain != null) {
                out.add(chain);
            }
        }
        return out;
    }

    @Override
    public List<ReplicaStatus> listReplicas(String chainId, int vnfIndex) {
        List<StatefulSet> sets = listStatefulSets(chainId, vnfIndex);
        List<Pod> pods = retrier.call("list pods of " + chainId + "/vnf" + vnfIndex, () ->
                client.pods().inNamespace(config.namespace())
                        .withLabel(ReplicaNames.LABEL_MANAGED_BY, ReplicaNames.MANAGER)
                        .withLabel(ReplicaNames.LABEL_CHAIN, chainId)
                        .withLabel(ReplicaNames.LABEL_VNF, Integer.toString(vnfIndex)).list().getItems());
        Map<String, Pod> byName = new HashMap<>();
        for (Pod p : pods) {
            byName.put(p.getMetadata().getName(), p);
        }
        List<ReplicaStatus> out = new ArrayList<>();
        for (StatefulSet sts : sets) {
            String name = sts.getMetadata().getName();
            out.add(toStatus(name, replicaIndexOf(sts), byName.get(ReplicaNames.podName(name))));
        }
        out.sort(Comparator.comparingInt(ReplicaStatus::replicaIndex));
        return out;
    }

    @Override
    public Map<String, NodeResources> nodeFreeResources() {
        Optional<Map<String, NodeResources>> watched = capacity.free();
        if (watched.isPresent()) {
            fromWatch.incrementAndGet();
            return watched.get();
        }
        // The watch cannot answer (starting, reconnecting, refused): the exact answer by a LIST, counted.
        byList.incrementAndGet();
        return listFreeResources();
    }

    /** The answer computed from a LIST of every node and every pod (the watch's fall-back and reference). */
    Map<String, NodeResources> listFreeResources() {
        List<Node> nodes = retrier.call("list nodes", () -> client.nodes().list().getItems());
        List<Pod> pods = retrier.call("list pods", () -> client.pods().inAnyNamespace().list().getItems());
        Map<String, long[]> requested = new HashMap<>();
        for (Pod p : pods) {
            NodeCapacityWatch.Held h = NodeCapacityWatch.held(p);
            if (h != null) {
                long[] acc = requested.computeIfAbsent(h.node, k -> new long[2]);
                acc[0] += h.cpuMillis;
                acc[1] += h.memoryBytes;
            }
        }
        List<NodeResources> allocatable = new ArrayList<>();
        for (Node n : nodes) {
            NodeResources a = NodeCapacityWatch.allocatable(n);
            if (a != null) {
                allocatable.add(a);
            }
        }
        return NodeCapacityWatch.free(allocatable, requested);
    }

    /**
     * How {@link #nodeFreeResources} has been answered: from the watch, or by a LIST because the
     * watch could not answer (and why not, now).
     *
     * @return counts since this manager was made
     */
    public NodeCapacityStats nodeCapacityStats() {
        return new NodeCapacityStats(fromWatch.get(), byList.get(), capacity.refusals(), capacity.problem());
    }

    private boolean delete(String name) {
        List<StatusDetails> gone = retrier.call("delete StatefulSet " + config.namespace() + "/" + name, () ->
                client.apps().statefulSets().inNamespace(config.namespace()).withName(name)
                        // Foreground: the StatefulSet stays until its pod is gone, so a new replica of
                        // the same name never meets the old pod.
                        .withPropagationPolicy(DeletionPropagation.FOREGROUND)
                        .withGracePeriod(GRACE_SECONDS).delete());
        return !gone.isEmpty();
    }

    private List<StatefulSet> listStatefulSets(String chainId, int vnfIndex) {
        ReplicaNames.checkChainId(chainId);
        return retrier.call("list replicas of " + chainId + "/vnf" + vnfIndex, () ->
                client.apps().statefulSets().inNamespace(config.namespace())
                        .withLabel(ReplicaNames.LABEL_MANAGED_BY, ReplicaNames.MANAGER)
                        .withLabel(ReplicaNames.LABEL_CHAIN, chainId)
                        .withLabel(ReplicaNames.LABEL_VNF, Integer.toString(vnfIndex)).list().getItems());
    }

    private StatefulSet getStatefulSet(String name) {
        return client.apps().statefulSets().inNamespace(config.namespace()).withName(name).get();
    }

    private ReplicaStatus status(String name, int replicaIndex) {
        String podName = ReplicaNames.podName(name);
        Pod pod = retrier.call("get pod " + config.namespace() + "/" + podName,
                () -> client.pods().inNamespace(config.namespace()).withName(podName).get());
        return toStatus(name, replicaIndex, pod);
    }

    /** A replica's status from its pod (null: none yet); the watch computes it the same way. */
    static ReplicaStatus toStatus(String name, int replicaIndex, Pod pod) {
        if (pod == null) {
            return new ReplicaStatus(name, replicaIndex, null, null, null, false, ReplicaStatus.PHASE_ABSENT);
        }
        boolean ready = false;
        String phase = ReplicaStatus.PHASE_ABSENT;
        String ip = null;
        if (pod.getStatus() != null) {
            phase = pod.getStatus().getPhase() == null ? "Pending" : pod.getStatus().getPhase();
            ip = pod.getStatus().getPodIP();
            if (pod.getStatus().getConditions() != null) {
                for (PodCondition c : pod.getStatus().getConditions()) {
                    if ("Ready".equals(c.getType()) && "True".equals(c.getStatus())) {
                        ready = true;
                    }
                }
            }
        }
        if (pod.getMetadata().getDeletionTimestamp() != null) {
            ready = false; // a terminating pod takes no traffic
            phase = "Terminating";
        }
        return new ReplicaStatus(name, replicaIndex, pod.getMetadata().getName(),
                pod.getSpec() == null ? null : pod.getSpec().getNodeName(), ip, ready, phase);
    }

    private void checkOwned(StatefulSet sts, ReplicaRequest request) {
        Map<String, String> labels = sts.getMetadata().getLabels();
        if (labels == null || !ReplicaNames.MANAGER.equals(labels.get(ReplicaNames.LABEL_MANAGED_BY))
                || !request.chainId().equals(labels.get(ReplicaNames.LABEL_CHAIN))) {
            throw new BridgeException("StatefulSet " + config.namespace() + "/" + sts.getMetadata().getName()
                    + " exists but is not a replica managed by the bridge; refusing to touch it", 1, 409, null);
        }
    }

    private static String nodeSelectorOf(StatefulSet sts) {
        Map<String, String> sel = sts.getSpec().getTemplate().getSpec().getNodeSelector();
        return sel == null ? null : sel.get(ReplicaNames.HOSTNAME_LABEL);
    }

    private static int replicaIndexOf(StatefulSet sts) {
        String v = sts.getMetadata().getLabels().get(ReplicaNames.LABEL_REPLICA);
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new BridgeException("StatefulSet " + sts.getMetadata().getName() + " has a bad "
                    + ReplicaNames.LABEL_REPLICA + " label '" + v + "'", 1, 0, e);
        }
    }

    /** Labels of a replica's objects; the selector uses all but the vNF type. */
    static Map<String, String> selector(ReplicaRequest r) {
        Map<String, String> m = new TreeMap<>();
        m.put(ReplicaNames.LABEL_MANAGED_BY, ReplicaNames.MANAGER);
        m.put(ReplicaNames.LABEL_CHAIN, r.chainId());
        m.put(ReplicaNames.LABEL_VNF, Integer.toString(r.vnfIndex()));
        m.put(ReplicaNames.LABEL_REPLICA, Integer.toString(r.replicaIndex()));
        return m;
    }

    /**
     * Gives a new replica StatefulSet an ownerReference to the ServiceFunctionChain that declares its
     * chain, when a chain controller runs here and one does (docs/crd.md): the garbage collector then
     * removes it with that object. Kept apart from the builder below: only the owner is added.
     *
     * @param sts     the StatefulSet as built
     * @param chainId its chain
     * @return the same StatefulSet
     */
    StatefulSet withChainOwner(StatefulSet sts, String chainId) {
        ChainOwners.lookup(config.namespace(), chainId)
                .ifPresent(ref -> sts.getMetadata().setOwnerReferences(List.of(ref)));
        return sts;
    }

    /**
     * The StatefulSet of a replica.
     *
     * @param r replica request
     * @return the object the bridge creates
     */
    static StatefulSet statefulSet(ReplicaRequest r) {
        Map<String, String> selector = selector(r);
        Map<String, String> labels = new TreeMap<>(selector);
        labels.put(ReplicaNames.LABEL_VNF_TYPE, r.vnfType());
        Map<String, Quantity> requests = quantities(r.requests());
        Map<String, Quantity> limits = quantities(r.limits());
        return new StatefulSetBuilder()
                .withNewMetadata().withName(r.name()).withLabels(labels).withAnnotations(r.annotations())
                .endMetadata()
                .withNewSpec()
                    .withReplicas(1)
                    .withPodManagementPolicy("Parallel")
                    .withNewSelector().withMatchLabels(selector).endSelector()
                    .withNewTemplate()
                        .withNewMetadata().withLabels(labels).withAnnotations(r.annotations()).endMetadata()
                        .withNewSpec()
                            .withNodeSelector(Map.of(ReplicaNames.HOSTNAME_LABEL, r.nodeName()))
                            .withAutomountServiceAccountToken(false)
                            .withSecurityContext(ReplicaSecurity.pod(r))
                            .withTerminationGracePeriodSeconds(GRACE_SECONDS)
                            .addNewContainer()
                                .withName(CONTAINER)
                                .withImage(r.image())
                                .withSecurityContext(ReplicaSecurity.container(r))
                                .withNewResources().withRequests(requests).withLimits(limits).endResources()
                            .endContainer()
                        .endSpec()
                    .endTemplate()
                .endSpec()
                .build();
    }

    private static Map<String, Quantity> quantities(Map<String, String> m) {
        Map<String, Quantity> out = new TreeMap<>();
        m.forEach((k, v) -> out.put(k, new Quantity(v)));
        return out;
    }

    /** A state that passes by itself (object being deleted); retried like a 5xx within the budget. */
    static final class TransientConditionException extends KubernetesClientException {
        private static final long serialVersionUID = 1L;

        TransientConditionException(String message) {
            super(message);
        }
    }
}
