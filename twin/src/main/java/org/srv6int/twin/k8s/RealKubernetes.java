// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.k8s;

import java.util.Objects;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfReplicaId;
import org.srv6int.app.k8s.BridgeReplicaPlatform;
import org.srv6int.app.api.model.NodeResources;
import org.srv6int.app.api.model.ReplicaInfo;
import org.srv6int.app.api.ReplicaPlatform;
import org.srv6int.k8s.bridge.BridgeConfig;
import org.srv6int.k8s.bridge.Fabric8VnfReplicaManager;
import org.srv6int.k8s.bridge.ReplicaNames;
import org.srv6int.k8s.bridge.ReplicaRequest;
import org.srv6int.k8s.bridge.ReplicaStatus;
import org.srv6int.twin.control.SimulatedPlatform;
import org.srv6int.twin.control.SimulatedTime;
import org.srv6int.twin.model.Resource;

/**
 * {@code --k8s real}: the app's {@link BridgeReplicaPlatform} over the Kubernetes bridge
 * against a real control plane (tools/k8s-testenv: kube-apiserver, controller-manager,
 * scheduler, etcd, and kwok with the nodes worker1 and worker2), seen from simulated time.
 *
 * <p>{@link #start} starts the control plane (or attaches to a running one, {@value #KUBECONFIG_ENV}),
 * applies the bridge's RBAC (k8s-bridge/deploy/bridge-rbac.yaml), sets kwok's {@code pod-ready}
 * Stage to wait the configured start-up delay, gives the kwok nodes the CPU of the twin's
 * workers ({@link #NODE_CPU_MILLIS}), and builds the bridge and the app's platform on it.
 * {@link #reset} before each experiment creates the experiment's initial pods as bridge
 * replicas, so that the API server sees what the model's workers hold and new replicas get
 * the next free names. The twin's runner calls {@link #advanceTo} every tick: while a create or delete is in
 * flight simulated time is held to wall time, so the start-up delay appears in simulated time
 * as itself; otherwise there is no pacing. docs/twin.md, "--k8s real".
 */
public final class RealKubernetes implements ReplicaPlatform, SimulatedTime, AutoCloseable {

    /** Environment variable naming the admin kubeconfig of a running control plane to attach to. */
    public static final String KUBECONFIG_ENV = "SRV6INT_TWIN_KUBECONFIG";
    /** kwok's Stage that makes a pod Ready (tools/k8s-testenv/kwok-stages.yaml). */
    static final String POD_READY_STAGE = "pod-ready";
    static final String STAGE_API = "kwok.x-k8s.io/v1alpha1";
    /** Threads for the bridge's blocking calls, as the app's KubernetesReplicaPlatformManager. */
    private static final int BRIDGE_THREADS = 8;
    private static final Duration CLEAN_UP = Duration.ofSeconds(60);

    /**
     * The twin's workers ({@code model.Host} names in {@code scenario.Scenarios}) and the kwok
     * nodes standing for them; the same names, so the app's decisions read alike in both.
     */
    static final Map<String, String> NODES = Map.of("worker1", "worker1", "worker2", "worker2");
    /**
     * Allocatable CPU of each kwok node: the cores of a twin worker ({@code model.Host}: the
     * NIC's NUMA node, {@link Resource#CPU_QUOTA}'s pool), which the simulated platform also
     * reports. The testenv's nodes have 20 (both NUMA nodes of the paper's servers).
     */
    static final long NODE_CPU_MILLIS = Math.round(Resource.CPU_QUOTA.pool() * 1000);
    /** An inventory replica name the app gives the initial pods ("r0") or the bridge's name. */
    private static final Pattern REPLICA_INDEX = Pattern.compile("(?:^|-)r(\\d+)$");

    private final ControlPlane plane;
    private final Settings settings;
    private final KubernetesClient admin;
    private final Fabric8VnfReplicaManager bridge;
    private final ExecutorService executor;
    private final HeldReplicaPlatform held;
    private final Object previousDelay;
    private final Map<String, Map<String, Object>> previousNodeCpu;
    private volatile Function<VnfKey, String> vnfTypes = k -> "vnf";
    private volatile ToLongFunction<VnfKey> requestMillis = k -> {
        throw new IllegalStateException("reset(...) was not called: no CPU request for " + k);
    };
    /** The current experiment's initial replicas: inventory id to the bridge's workload name. */
    private volatile Map<VnfReplicaId, String> initialNames = Map.of();
    private boolean ready;

    private RealKubernetes(ControlPlane plane, Settings settings, KubernetesClient admin, Object previousDelay,
                           Map<String, Map<String, Object>> previousNodeCpu) {
        this.plane = plane;
        this.settings = settings;
        this.admin = admin;
        this.previousDelay = previousDelay;
        this.previousNodeCpu = previousNodeCpu;
        this.bridge = Fabric8VnfReplicaManager.fromKubeconfig(plane.bridgeKubeconfig().toFile(),
                                                              BridgeConfig.defaults(settings.namespace()));
        AtomicInteger n = new AtomicInteger();
        this.executor = Executors.newFixedThreadPool(BRIDGE_THREADS, r -> {
            Thread t = new Thread(r, "twin-k8s-bridge-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        // One twin process is the whole cluster: its request ledger is an in-memory map. Its replicas
        // get traffic from the emulated switches, not from a node agent: pods carry no identity.
        BridgeReplicaPlatform platform = new BridgeReplicaPlatform(bridge, this::template, settings.readyTimeout(),
                                                                   executor, new ConcurrentHashMap<>(), null);
        this.held = new HeldReplicaPlatform(platform, new TreeMap<>(NODES));
    }

    /**
     * Starts (or attaches to) the control plane and builds the platform on it.
     *
     * @param repoRoot repository root (tools/k8s-testenv, k8s-bridge/deploy)
     * @param settings settings
     * @return the platform; close it to stop what it started
     * @throws StartException when the control plane cannot start or be set up, with the reason
     */
    public static RealKubernetes start(Path repoRoot, Settings settings) throws StartException {
        ControlPlane plane = settings.kubeconfig() != null ? ControlPlane.attach(settings.kubeconfig())
                : ControlPlane.start(repoRoot, settings);
        KubernetesClient admin = null;
        RealKubernetes k = null;
        try {
            admin = client(plane.adminKubeconfig(), settings);
            applyRbac(admin, repoRoot.resolve("k8s-bridge/deploy/bridge-rbac.yaml"), settings.namespace());
            Object previous = setStartupDelay(admin, settings.podStartupDelay());
            Map<String, Map<String, Object>> nodeCpu;
            try {
                nodeCpu = setNodeCpu(admin, NODE_CPU_MILLIS + "m");
            } catch (RuntimeException | StartException e) {
                patchDelay(admin, previous == null ? "null" : previous);
                throw e;
            }
            k = new RealKubernetes(plane, settings, admin, previous, nodeCpu);
            k.removeReplicas(); // leftovers of an interrupted run on an attached control plane
            k.ready = true;
            return k;
        } catch (RuntimeException e) {
            throw new StartException("setting up the control plane failed: " + e);
        } finally {
            if (k == null || !k.ready) {
                // Whatever failed (an Error too, e.g. a class path without the client's Jackson),
                // what was started here does not outlive it.
                if (k != null) {
                    k.close();
                } else {
                    if (admin != null) {
                        admin.close();
                    }
                    plane.close();
                }
            }
        }
    }

    private static KubernetesClient client(Path kubeconfig, Settings s) {
        return new KubernetesClientBuilder()
                .withConfig(Fabric8VnfReplicaManager.tune(Config.fromKubeconfig(kubeconfig.toFile()),
                                                          BridgeConfig.defaults(s.namespace())))
                .withHttpClientFactory(new VertxHttpClientFactory()).build();
    }

    private static void applyRbac(KubernetesClient admin, Path rbac, String namespace) throws StartException {
        try (InputStream in = Files.newInputStream(rbac)) {
            admin.load(in).forceConflicts().serverSideApply();
        } catch (IOException e) {
            throw new StartException("cannot read " + rbac + ": " + e.getMessage());
        }
        // Pods are admitted only once the namespace's default ServiceAccount exists.
        waitUntil("default ServiceAccount in " + namespace, () ->
                admin.serviceAccounts().inNamespace(namespace).withName("default").get() != null);
    }

    /**
     * Sets the delay of kwok's pod-ready Stage; returns the one it replaces. kwok watches Stage
     * objects (--enable-crds=Stage) and applies the change to pods it sees from then on.
     */
    private static Object setStartupDelay(KubernetesClient admin, Duration delay) throws StartException {
        GenericKubernetesResource stage;
        try {
            stage = admin.genericKubernetesResources(STAGE_API, "Stage").withName(POD_READY_STAGE).get();
        } catch (KubernetesClientException e) {
            stage = null;
        }
        if (stage == null) {
            throw new StartException("the control plane has no kwok Stage '" + POD_READY_STAGE + "' on its API "
                    + "server: its kwok reads stages from a file; start it with SRV6INT_K8S_KWOK_STAGES=crd "
                    + "tools/k8s-testenv/start");
        }
        Object previous = stage.get("spec", "delay", "durationMilliseconds");
        patchDelay(admin, delay.toMillis());
        return previous;
    }

    private static void patchDelay(KubernetesClient admin, Object millis) {
        admin.genericKubernetesResources(STAGE_API, "Stage").withName(POD_READY_STAGE)
                .patch(PatchContext.of(PatchType.JSON_MERGE),
                       "{\"spec\":{\"delay\":{\"durationMilliseconds\":" + millis + "}}}");
    }

    /**
     * Sets the CPU capacity and allocatable of the kwok nodes standing for the twin's workers;
     * returns what they had (node to {capacity, allocatable}). kwok's node stages only set a
     * node's status when it is not yet Ready (node-initialize) and then its conditions, so the
     * patch stays.
     */
    private static Map<String, Map<String, Object>> setNodeCpu(KubernetesClient admin, String cpu)
            throws StartException {
        Map<String, Map<String, Object>> previous = new TreeMap<>();
        for (String n : new TreeSet<>(NODES.values())) {
            io.fabric8.kubernetes.api.model.Node node = admin.nodes().withName(n).get();
            if (node == null || node.getStatus() == null) {
                throw new StartException("the control plane has no node '" + n + "' (tools/k8s-testenv/start "
                        + "creates worker1 and worker2)");
            }
            Map<String, Object> was = new LinkedHashMap<>();
            was.put("capacity", cpuOf(node.getStatus().getCapacity()));
            was.put("allocatable", cpuOf(node.getStatus().getAllocatable()));
            previous.put(n, was);
            patchNodeCpu(admin, n, cpu, cpu);
        }
        return previous;
    }

    private static Object cpuOf(Map<String, io.fabric8.kubernetes.api.model.Quantity> q) {
        return q == null || q.get("cpu") == null ? null : q.get("cpu").toString();
    }

    private static void patchNodeCpu(KubernetesClient admin, String node, Object capacity, Object allocatable) {
        admin.nodes().withName(node).subresource("status").patch(PatchContext.of(PatchType.JSON_MERGE),
                "{\"status\":{\"capacity\":{\"cpu\":" + json(capacity) + "},\"allocatable\":{\"cpu\":"
                        + json(allocatable) + "}}}");
    }

    private static String json(Object quantity) {
        return quantity == null ? "null" : "\"" + quantity + "\"";
    }

    private static void waitUntil(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + CLEAN_UP.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("timed out after " + CLEAN_UP.toSeconds() + " s waiting for " + what);
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + what);
            }
        }
    }

    /** A new replica of a vNF: its type, and the CPU of the vNF's template (as the simulated platform's). */
    private ReplicaRequest.Builder template(VnfKey vnf) {
        return request(vnf, requestMillis.applyAsLong(vnf));
    }

    private ReplicaRequest.Builder request(VnfKey vnf, long cpuMillis) {
        if (cpuMillis <= 0) {
            throw new IllegalArgumentException("CPU request of a replica of " + vnf + " must be positive, got "
                    + cpuMillis + " millicores");
        }
        String type = vnfTypes.apply(vnf);
        String cpu = cpuMillis + "m";
        return ReplicaRequest.builder().vnfType(type)
                .image("registry.local/srv6int-twin/" + type.toLowerCase(Locale.ROOT) + ":1")
                .request("cpu", cpu).request("memory", settings.memoryRequest())
                .limit("cpu", cpu).limit("memory", settings.memoryRequest());
    }

    /**
     * Prepares for an experiment: removes every replica the bridge made, then creates the
     * experiment's initial pods through the bridge, each pinned to its worker's node with a CPU
     * request (and limit) of the pod's allocation in the model, and waits until they are Ready;
     * so the nodes' free CPU on the API server is what the model's workers have free, and the
     * bridge numbers new replicas after the initial ones (an initial pod the app's inventory
     * calls r<i>k</i> is the bridge's replica k, {@code sfc-<chain>-vnf<i>-r<k>}). Only the
     * experiment's workers are reported; new replicas are labelled with their vNF type and
     * request {@code requestMillis} of CPU.
     *
     * @param hosts         the experiment's workers (worker1, worker2 or both)
     * @param vnfTypes      vNF type of each vNF (a Kubernetes label value, e.g. Snort)
     * @param requestMillis CPU request of a new replica of a vNF, millicores (its template's)
     * @param initial       the experiment's initial pods, as the app's inventory names them
     * @throws IllegalArgumentException when a worker has no node, a name is no replica name, or
     *                                  two initial pods of a vNF have one replica index
     */
    public void reset(Collection<String> hosts, Function<VnfKey, String> vnfTypes,
                      ToLongFunction<VnfKey> requestMillis, List<InitialReplica> initial) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String h : hosts) {
            String n = NODES.get(h);
            if (n == null) {
                throw new IllegalArgumentException("no kwok node stands for worker '" + h + "' (known: "
                        + new TreeSet<>(NODES.keySet()) + ")");
            }
            m.put(h, n);
        }
        Map<VnfReplicaId, Integer> indexes = new LinkedHashMap<>();
        Set<String> taken = new TreeSet<>();
        for (InitialReplica r : initial) {
            if (!m.containsKey(r.host())) {
                throw new IllegalArgumentException("initial replica " + r + " is on " + r.host()
                        + ", not a worker of the experiment " + m.keySet());
            }
            int k = replicaIndex(r.vnf(), r.name());
            if (!taken.add(r.vnf() + "#" + k) || indexes.put(VnfReplicaId.of(r.vnf(), r.name()), k) != null) {
                throw new IllegalArgumentException("two initial replicas of " + r.vnf() + " are replica " + k
                        + ": " + initial);
            }
        }
        removeReplicas();
        initialNames = Map.of();
        held.useHosts(m);
        this.vnfTypes = vnfTypes;
        this.requestMillis = requestMillis;
        Map<VnfReplicaId, String> names = new LinkedHashMap<>();
        // Create all, then wait: their start-up delays run in parallel.
        for (InitialReplica r : initial) {
            int k = indexes.get(VnfReplicaId.of(r.vnf(), r.name()));
            ReplicaStatus s = bridge.ensureReplica(request(r.vnf(), r.cpuMillis()).chainId(chainId(r.vnf()))
                    .vnfIndex(r.vnf().index()).replicaIndex(k).nodeName(m.get(r.host())).build());
            names.put(VnfReplicaId.of(r.vnf(), r.name()), s.name());
        }
        for (InitialReplica r : initial) {
            bridge.awaitReady(chainId(r.vnf()), r.vnf().index(), indexes.get(VnfReplicaId.of(r.vnf(), r.name())),
                              settings.readyTimeout());
        }
        initialNames = Map.copyOf(names);
    }

    /** The bridge's chain id of a vNF's chain (as {@link BridgeReplicaPlatform} names it). */
    private static String chainId(VnfKey vnf) {
        return vnf.sfcId().toString();
    }

    /**
     * The bridge's replica index of an inventory replica name: k of the app's initial {@code r<k>}, or
     * of the bridge's own {@code sfc-<chain>-vnf<i>-r<k>}.
     */
    static int replicaIndex(VnfKey vnf, String name) {
        Matcher x = REPLICA_INDEX.matcher(name == null ? "" : name);
        if (x.find()) {
            int k = Integer.parseInt(x.group(1));
            if (name.equals("r" + k) || name.equals(ReplicaNames.replicaName(chainId(vnf), vnf.index(), k))) {
                return k;
            }
        }
        throw new IllegalArgumentException("replica " + name + " of " + vnf + " is named neither r<k> nor "
                + ReplicaNames.replicaName(chainId(vnf), vnf.index(), 0).replaceFirst("0$", "<k>"));
    }

    /** Removes every replica of the bridge in the namespace and waits until their pods are gone. */
    private void removeReplicas() {
        String ns = settings.namespace();
        Set<String> chains = new TreeSet<>();
        for (StatefulSet s : admin.apps().statefulSets().inNamespace(ns)
                .withLabel(ReplicaNames.LABEL_MANAGED_BY, ReplicaNames.MANAGER).list().getItems()) {
            chains.add(s.getMetadata().getLabels().get(ReplicaNames.LABEL_CHAIN));
        }
        for (String c : chains) {
            bridge.removeChain(c);
        }
        waitUntil("the bridge's replicas in " + ns + " to be gone", () ->
                admin.apps().statefulSets().inNamespace(ns).withLabel(ReplicaNames.LABEL_MANAGED_BY,
                        ReplicaNames.MANAGER).list().getItems().isEmpty()
                && admin.pods().inNamespace(ns).withLabel(ReplicaNames.LABEL_MANAGED_BY, ReplicaNames.MANAGER)
                        .list().getItems().isEmpty());
    }

    /**
     * Wall time {@link #advanceTo} has spent holding simulated time back so far.
     *
     * @return seconds
     */
    public double heldSeconds() {
        return held.heldSeconds();
    }

    /**
     * Whether this twin started the control plane (false: attached to a running one).
     *
     * @return true if started here
     */
    public boolean startedControlPlane() {
        return plane.started();
    }

    /**
     * The admin kubeconfig of the control plane (for inspection, e.g. kubectl).
     *
     * @return path
     */
    public Path adminKubeconfig() {
        return plane.adminKubeconfig();
    }

    /**
     * The kubeconfig the bridge runs with (the ServiceAccount's rights), for a test that builds the
     * app's own platform component on the same control plane.
     *
     * @return path
     */
    Path bridgeKubeconfig() {
        return plane.bridgeKubeconfig();
    }

    @Override
    public void advanceTo(double nowS) {
        held.advanceTo(nowS);
    }

    @Override
    public List<NodeResources> nodeFreeResources() {
        return held.nodeFreeResources();
    }

    @Override
    public CompletionStage<ReplicaInfo> createReplica(VnfKey vnf, String node, String requestId) {
        return held.createReplica(vnf, node, requestId);
    }

    /**
     * Deletes a replica; an initial one may be given by its inventory name (r<i>k</i>), which
     * is the bridge's replica k.
     */
    @Override
    public CompletionStage<Void> deleteReplica(VnfKey vnf, String replicaId) {
        String bridgeName = replicaId == null ? null : initialNames.get(VnfReplicaId.of(vnf, replicaId));
        return held.deleteReplica(vnf, bridgeName != null ? bridgeName : replicaId);
    }

    /**
     * Stops the bridge; on an attached control plane removes this run's replicas and restores
     * the Stage's delay and the nodes' CPU, on one started here stops it.
     */
    @Override
    public void close() {
        executor.shutdownNow();
        try {
            if (!plane.started()) {
                removeReplicas();
                patchDelay(admin, previousDelay == null ? "null" : previousDelay);
                for (Map.Entry<String, Map<String, Object>> e : previousNodeCpu.entrySet()) {
                    patchNodeCpu(admin, e.getKey(), e.getValue().get("capacity"), e.getValue().get("allocatable"));
                }
            }
        } catch (RuntimeException e) {
            System.err.println("twin: cleaning up the control plane: " + e.getMessage());
        } finally {
            bridge.close();
            admin.close();
            plane.close();
        }
    }

    /** A pod an experiment starts with: its vNF, inventory replica name, worker and CPU allocation. */
    public static final class InitialReplica {
        private final VnfKey vnf;
        private final String name;
        private final String host;
        private final long cpuMillis;

        /**
         * Creates the description.
         *
         * @param vnf       the app's vNF key
         * @param name      the app inventory's replica name (r0, r1, ...)
         * @param host      the twin worker it runs on (worker1)
         * @param cpuMillis its CPU allocation in the model, millicores (its request)
         */
        public InitialReplica(VnfKey vnf, String name, String host, long cpuMillis) {
            this.vnf = Objects.requireNonNull(vnf, "vnf");
            this.name = Objects.requireNonNull(name, "name");
            this.host = Objects.requireNonNull(host, "host");
            this.cpuMillis = cpuMillis;
        }

        /** @return the vNF */
        public VnfKey vnf() {
            return vnf;
        }

        /** @return the inventory's replica name */
        public String name() {
            return name;
        }

        /** @return the worker */
        public String host() {
            return host;
        }

        /** @return CPU, millicores */
        public long cpuMillis() {
            return cpuMillis;
        }

        @Override
        public String toString() {
            return vnf + "/" + name + "@" + host + "(" + cpuMillis + "m)";
        }
    }

    /** The control plane could not be started or set up; the message says why and what to do. */
    public static final class StartException extends Exception {
        private static final long serialVersionUID = 1L;

        /**
         * Creates the exception.
         *
         * @param message reason and remedy
         */
        public StartException(String message) {
            super(message);
        }
    }

    /** Settings of {@link RealKubernetes}; setters return this. */
    public static final class Settings {
        private Duration podStartupDelay = Duration.ofMillis(Math.round(SimulatedPlatform.STARTUP_S * 1000));
        private Path kubeconfig;
        private String namespace = "srv6int-sfc";
        private Duration readyTimeout = Duration.ofSeconds(120);
        private String memoryRequest = "4Gi";
        private int apiServerPort = 17443;
        private int etcdPort = 13379;
        private int etcdPeerPort = 13380;

        /**
         * Defaults, with {@value #KUBECONFIG_ENV} (if set) as the control plane to attach to.
         *
         * @return settings
         */
        public static Settings fromEnvironment() {
            Settings s = new Settings();
            String kc = System.getenv(KUBECONFIG_ENV);
            if (kc != null && !kc.isBlank()) {
                s.kubeconfig(Path.of(kc));
            }
            return s;
        }

        /**
         * Sets the pod start-up delay kwok applies (default the simulated platform's, 3 s).
         *
         * @param d delay, 0 or more
         * @return this
         */
        public Settings podStartupDelay(Duration d) {
            if (d.isNegative()) {
                throw new IllegalArgumentException("pod start-up delay must not be negative, got " + d);
            }
            podStartupDelay = d;
            return this;
        }

        /**
         * Attaches to the control plane of this admin kubeconfig instead of starting one.
         *
         * @param p kubeconfig, null to start one
         * @return this
         */
        public Settings kubeconfig(Path p) {
            kubeconfig = p;
            return this;
        }

        /**
         * Sets how long a new replica may take to become Ready (default 120 s).
         *
         * @param d timeout
         * @return this
         */
        public Settings readyTimeout(Duration d) {
            readyTimeout = d;
            return this;
        }

        /**
         * Sets the memory each replica requests (and is limited to); default 4Gi. (The CPU is
         * the model's: see {@link RealKubernetes#reset}.)
         *
         * @param memory quantity, e.g. 4Gi
         * @return this
         */
        public Settings memoryRequest(String memory) {
            memoryRequest = memory;
            return this;
        }

        /**
         * Sets the ports of a control plane started here (the API server takes 3 more after it).
         *
         * @param apiServer API server port (default 17443)
         * @param etcd      etcd client port (default 13379)
         * @param etcdPeer  etcd peer port (default 13380)
         * @return this
         */
        public Settings ports(int apiServer, int etcd, int etcdPeer) {
            apiServerPort = apiServer;
            etcdPort = etcd;
            etcdPeerPort = etcdPeer;
            return this;
        }

        Duration podStartupDelay() {
            return podStartupDelay;
        }

        Path kubeconfig() {
            return kubeconfig;
        }

        String namespace() {
            return namespace;
        }

        Duration readyTimeout() {
            return readyTimeout;
        }

        String memoryRequest() {
            return memoryRequest;
        }

        int apiServerPort() {
            return apiServerPort;
        }

        int etcdPort() {
            return etcdPort;
        }

        int etcdPeerPort() {
            return etcdPeerPort;
        }
    }
}
