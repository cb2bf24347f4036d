package org.srv6int.twin.k8s;

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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.srv6int.app.api.VnfKey;
import org.srv6int.app.loop.BridgeReplicaPlatform;
import org.srv6int.app.loop.NodeResources;
import org.srv6int.app.loop.ReplicaInfo;
import org.srv6int.app.loop.ReplicaPlatform;
import org.srv6int.k8s.bridge.BridgeConfig;
import org.srv6int.k8s.bridge.Fabric8VnfReplicaManager;
import org.srv6int.k8s.bridge.ReplicaNames;
import org.srv6int.k8s.bridge.ReplicaRequest;
import org.srv6int.twin.control.SimulatedPlatform;
import org.srv6int.twin.control.SimulatedTime;

/**
 * {@code --k8s real}: the app's {@link BridgeReplicaPlatform} over the Kubernetes bridge
 * against a real control plane (tools/k8s-testenv: kube-apiserver, controller-manager,
 * scheduler, etcd, and kwok with the nodes worker1 and worker2), seen from simulated time.
 *
 * <p>{@link #start} starts the control plane (or attaches to a running one, {@value #KUBECONFIG_ENV}),
 * applies the bridge's RBAC (k8s-bridge/deploy/bridge-rbac.yaml), sets kwok's {@code pod-ready}
 * Stage to wait the configured start-up delay, and builds the bridge and the app's platform on
 * it. The twin's runner calls {@link #advanceTo} every tick: while a create or delete is in
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

    private final ControlPlane plane;
    private final Settings settings;
    private final KubernetesClient admin;
    private final Fabric8VnfReplicaManager bridge;
    private final ExecutorService executor;
    private final HeldReplicaPlatform held;
    private final Object previousDelay;
    private volatile Function<VnfKey, String> vnfTypes = k -> "vnf";
    private boolean ready;

    private RealKubernetes(ControlPlane plane, Settings settings, KubernetesClient admin, Object previousDelay) {
        this.plane = plane;
        this.settings = settings;
        this.admin = admin;
        this.previousDelay = previousDelay;
        this.bridge = Fabric8VnfReplicaManager.fromKubeconfig(plane.bridgeKubeconfig().toFile(),
                                                              BridgeConfig.defaults(settings.namespace()));
        AtomicInteger n = new AtomicInteger();
        this.executor = Executors.newFixedThreadPool(BRIDGE_THREADS, r -> {
            Thread t = new Thread(r, "twin-k8s-bridge-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        BridgeReplicaPlatform platform = new BridgeReplicaPlatform(bridge, this::template, settings.readyTimeout(),
                                                                   executor);
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
            k = new RealKubernetes(plane, settings, admin, previous);
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

    private ReplicaRequest.Builder template(VnfKey vnf) {
        String type = vnfTypes.apply(vnf);
        return ReplicaRequest.builder().vnfType(type)
                .image("registry.local/srv6int-twin/" + type.toLowerCase(Locale.ROOT) + ":1")
                .request("cpu", settings.cpuRequest()).request("memory", settings.memoryRequest())
                .limit("cpu", settings.cpuRequest()).limit("memory", settings.memoryRequest());
    }

    /**
     * Prepares for an experiment: removes every replica the bridge made (so each experiment
     * starts with the nodes' full resources), reports only the experiment's workers, and
     * labels new replicas with their vNF type.
     *
     * @param hosts    the experiment's workers (worker1, worker2 or both)
     * @param vnfTypes vNF type of each vNF (a Kubernetes label value, e.g. Snort)
     */
    public void reset(Collection<String> hosts, Function<VnfKey, String> vnfTypes) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String h : hosts) {
            String n = NODES.get(h);
            if (n == null) {
                throw new IllegalArgumentException("no kwok node stands for worker '" + h + "' (known: "
                        + new TreeSet<>(NODES.keySet()) + ")");
            }
            m.put(h, n);
        }
        removeReplicas();
        held.useHosts(m);
        this.vnfTypes = vnfTypes;
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

    @Override
    public void advanceTo(double nowS) {
        held.advanceTo(nowS);
    }

    @Override
    public List<NodeResources> nodeFreeResources() {
        return held.nodeFreeResources();
    }

    @Override
    public CompletionStage<ReplicaInfo> createReplica(VnfKey vnf, String node) {
        return held.createReplica(vnf, node);
    }

    @Override
    public CompletionStage<Void> deleteReplica(VnfKey vnf, String replicaId) {
        return held.deleteReplica(vnf, replicaId);
    }

    /**
     * Stops the bridge; on an attached control plane removes this run's replicas and restores
     * the Stage's delay, on one started here stops it.
     */
    @Override
    public void close() {
        executor.shutdownNow();
        try {
            if (!plane.started()) {
                removeReplicas();
                patchDelay(admin, previousDelay == null ? "null" : previousDelay);
            }
        } catch (RuntimeException e) {
            System.err.println("twin: cleaning up the control plane: " + e.getMessage());
        } finally {
            bridge.close();
            admin.close();
            plane.close();
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
        private String cpuRequest = "2";
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
         * Sets the CPU and memory each replica requests (and is limited to); default 2 and 4Gi.
         *
         * @param cpu    quantity, e.g. 2 or 500m
         * @param memory quantity, e.g. 4Gi
         * @return this
         */
        public Settings requests(String cpu, String memory) {
            cpuRequest = cpu;
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

        String cpuRequest() {
            return cpuRequest;
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
