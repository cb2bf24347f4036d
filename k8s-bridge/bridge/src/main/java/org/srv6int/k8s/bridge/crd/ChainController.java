// SPDX-License-Identifier: Apache-2.0
package org.srv6int.k8s.bridge.crd;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.slf4j.Logger;
import org.srv6int.k8s.bridge.BridgeConfig;
import org.srv6int.k8s.bridge.Fabric8VnfReplicaManager;
import org.slf4j.LoggerFactory;

import java.io.File;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * The ServiceFunctionChain controller, in kubernetes/sample-controller's shape: an informer on the
 * objects of one namespace feeds their keys to a rate-limited {@link WorkQueue}; workers take one
 * key at a time and run {@link #syncHandler}, which is level-triggered (it reads the object from the
 * informer's cache and makes the app and the cluster match it, whatever event brought the key).
 * A failed sync comes back with per-key exponential back-off; a ticker re-queues every object once
 * per window so the status follows the loop, which raises no Kubernetes event.
 *
 * <p>Per object: the finalizer {@value #FINALIZER} is added first, so the object cannot go before
 * {@link ChainSink#release} removed its chain from the switches; the sink then creates/updates the
 * chain; the chain's replica StatefulSets are created with an ownerReference to the object
 * ({@link ChainOwners}), so the garbage collector removes them with it; the status is written
 * through the status subresource only when it differs from the stored one, a change of substance
 * at most once per window and a change of measurements only at most once per
 * {@link Settings#measurementInterval}; the sink's notes become Events ({@link ChainEvents}).
 *
 * <p>Runs on the leader only: the app starts it on becoming leader (the informer's first listing
 * is the full resync) and closes it on losing leadership.
 */
public final class ChainController implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ChainController.class);

    /** API group. */
    public static final String GROUP = "srv6int.org";
    /** Served and stored version. */
    public static final String VERSION = "v1alpha1";
    /** apiVersion of the objects. */
    public static final String API_VERSION = GROUP + "/" + VERSION;
    /** Kind. */
    public static final String KIND = "ServiceFunctionChain";
    /** Plural (resource). */
    public static final String PLURAL = "servicefunctionchains";
    /** The finalizer that removes the chain's flows before the object goes. */
    public static final String FINALIZER = "srv6int.org/chain-cleanup";
    /** The resource, for fabric8's generic client. */
    public static final ResourceDefinitionContext CONTEXT = new ResourceDefinitionContext.Builder()
            .withGroup(GROUP).withVersion(VERSION).withPlural(PLURAL).withKind(KIND).withNamespaced(true).build();

    private static final ObjectMapper JSON = new ObjectMapper();
    /** How soon a finalizer asks the sink again while the switches still hold the chain. */
    static final Duration RELEASE_POLL = Duration.ofMillis(200);

    /**
     * The controller's knobs.
     */
    public static final class Settings {
        final Duration window;
        final Duration measurementInterval;
        final int workers;
        final Duration baseBackoff;
        final Duration maxBackoff;

        /**
         * Creates settings.
         *
         * @param window              the loop's telemetry window: the resync period and the
         *                            shortest time between two status writes of a chain
         * @param measurementInterval shortest time between two status writes whose only change is
         *                            a measurement (p95)
         * @param workers             worker threads
         * @param baseBackoff         first retry delay of a failing object
         * @param maxBackoff          longest retry delay
         */
        public Settings(Duration window, Duration measurementInterval, int workers, Duration baseBackoff,
                        Duration maxBackoff) {
            this.window = window;
            this.measurementInterval = measurementInterval;
            this.workers = workers;
            this.baseBackoff = baseBackoff;
            this.maxBackoff = maxBackoff;
        }

        /**
         * Returns the defaults: a 1 s window, measurements every 10 s, 2 workers, back-off 5 ms..5 min.
         *
         * @return settings
         */
        public static Settings defaults() {
            return new Settings(Duration.ofSeconds(1), Duration.ofSeconds(10), 2, Duration.ofMillis(5),
                                Duration.ofMinutes(5));
        }
    }

    private final KubernetesClient client;
    private final boolean ownsClient;
    private final String namespace;
    private final ChainSink sink;
    private final Settings settings;
    private final WorkQueue<String> queue;
    private final ChainEvents events;
    private final StatusPacer pacer;
    private final AtomicLong syncs = new AtomicLong();
    private final AtomicLong syncFailures = new AtomicLong();
    private final AtomicLong statusWrites = new AtomicLong();
    private SharedIndexInformer<GenericKubernetesResource> informer;
    private ScheduledExecutorService ticker;
    private final List<Thread> workers = new ArrayList<>();
    private final Function<String, Optional<OwnerReference>> owners = this::ownerOf;
    private volatile boolean closed;

    /**
     * Creates a controller, not started.
     *
     * @param client   client (the caller owns it)
     * @param namespace the namespace whose objects it handles (the bridge's: ownerReferences cannot
     *                  cross namespaces)
     * @param sink     the app's chains
     * @param settings knobs
     * @param instance this instance's name, on the Events it writes
     */
    public ChainController(KubernetesClient client, String namespace, ChainSink sink, Settings settings,
                           String instance) {
        this(client, false, namespace, sink, settings, instance);
    }

    private ChainController(KubernetesClient client, boolean ownsClient, String namespace, ChainSink sink,
                            Settings settings, String instance) {
        this.client = client;
        this.ownsClient = ownsClient;
        this.namespace = namespace;
        this.sink = sink;
        this.settings = settings;
        this.queue = new WorkQueue<>(settings.baseBackoff, settings.maxBackoff);
        this.events = new ChainEvents(client, instance);
        this.pacer = new StatusPacer(settings.window, settings.measurementInterval, System::nanoTime);
    }

    /**
     * Creates a controller with a client of its own, built as the bridge builds its clients
     * ({@link Fabric8VnfReplicaManager#newClient}); closing the controller closes the client. The
     * app calls this, so it handles no Kubernetes client type itself (fabric8 stays inside the
     * bridge's bundle).
     *
     * @param kubeconfig kubeconfig file, or null to use a token
     * @param apiServer  API server URL (with a token)
     * @param tokenFile  bearer token file (with a token)
     * @param caFile     CA file (with a token), or null for the JVM's trust store
     * @param namespace  namespace of the objects and replicas
     * @param sink       the app's chains
     * @param settings   knobs
     * @param instance   this instance's name, on the Events it writes
     * @return controller, not started
     */
    public static ChainController withOwnClient(File kubeconfig, String apiServer, File tokenFile, File caFile,
                                                String namespace, ChainSink sink, Settings settings,
                                                String instance) {
        BridgeConfig bc = BridgeConfig.defaults(namespace);
        KubernetesClient c = Fabric8VnfReplicaManager.newClient(kubeconfig != null
                ? Fabric8VnfReplicaManager.kubeconfigConfig(kubeconfig)
                : Fabric8VnfReplicaManager.tokenConfig(apiServer, tokenFile, caFile, bc), bc);
        return new ChainController(c, true, namespace, sink, settings, instance);
    }

    /**
     * Starts the informer (its first listing queues every object: the full resync), the workers and
     * the ticker. Returns once the informer has listed; chains the sink holds for objects that no
     * longer exist are released then.
     *
     * @param timeout how long to wait for the first listing
     * @return true if the informer listed within the timeout
     */
    public synchronized boolean start(Duration timeout) {
        informer = client.genericKubernetesResources(CONTEXT).inNamespace(namespace).runnableInformer(0);
        informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(GenericKubernetesResource obj) {
                enqueue(obj);
            }

            @Override
            public void onUpdate(GenericKubernetesResource oldObj, GenericKubernetesResource newObj) {
                enqueue(newObj);
            }

            @Override
            public void onDelete(GenericKubernetesResource obj, boolean deletedFinalStateUnknown) {
                enqueue(obj);
            }
        });
        boolean listed;
        try {
            informer.start().toCompletableFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            listed = true;
        } catch (Exception e) {
            log.warn("ServiceFunctionChain informer in {} did not list within {}: {}", namespace, timeout,
                     e.toString());
            listed = false;
        }
        if (listed) {
            // Objects gone while nobody led (their finalizer removed by hand): release their chains.
            for (String key : sink.ownedKeys()) {
                if (key.startsWith(namespace + "/") && informer.getStore().getByKey(key) == null) {
                    queue.add(key);
                }
            }
        }
        for (int i = 0; i < settings.workers; i++) {
            Thread t = new Thread(this::runWorker, "srv6int-crd-worker-" + i);
            t.setDaemon(true);
            t.start();
            workers.add(t);
        }
        ChainOwners.register(namespace, owners);
        ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "srv6int-crd-resync");
            t.setDaemon(true);
            return t;
        });
        long period = Math.max(1, settings.window.toMillis());
        ticker.scheduleAtFixedRate(this::enqueueAll, period, period, TimeUnit.MILLISECONDS);
        return listed;
    }

    /**
     * Returns the ownerReference of a chain's new replica StatefulSets: the object (cached, not being
     * deleted) whose spec.id is the chain and whose chain the app holds for it.
     *
     * @param chainId chain id
     * @return reference, or empty
     */
    Optional<OwnerReference> ownerOf(String chainId) {
        SharedIndexInformer<GenericKubernetesResource> inf = informer;
        if (inf == null) {
            return Optional.empty();
        }
        Collection<String> owned = sink.ownedKeys();
        for (GenericKubernetesResource obj : inf.getStore().list()) {
            Object spec = obj.getAdditionalProperties().get("spec");
            Object id = spec instanceof Map ? ((Map<?, ?>) spec).get("id") : null;
            if (id != null && chainId.equals(id.toString()) && obj.getMetadata().getDeletionTimestamp() == null) {
                ChainObject chain = view(obj);
                if (owned.contains(chain.key())) {
                    return Optional.of(ownerReference(chain));
                }
            }
        }
        return Optional.empty();
    }

    private void enqueue(GenericKubernetesResource obj) {
        queue.add(obj.getMetadata().getNamespace() + "/" + obj.getMetadata().getName());
    }

    /**
     * Queues an object by key, e.g. when the app's view of its chain changed (a replica came or went).
     *
     * @param key {@code namespace/name}
     */
    public void enqueue(String key) {
        queue.add(key);
    }

    /** Queues every object the informer knows (once per window). */
    void enqueueAll() {
        SharedIndexInformer<GenericKubernetesResource> inf = informer;
        if (inf != null) {
            inf.getStore().listKeys().forEach(queue::add);
        }
    }

    private void runWorker() {
        while (!closed) {
            Optional<String> next;
            try {
                next = queue.get();
            } catch (InterruptedException e) {
                return;
            }
            if (next.isEmpty()) {
                return;
            }
            String key = next.get();
            try {
                syncHandler(key);
                queue.forget(key);
            } catch (RuntimeException e) {
                syncFailures.incrementAndGet();
                Duration d = queue.addRateLimited(key);
                log.info("Sync of ServiceFunctionChain {} failed, retry in {} ms: {}", key, d.toMillis(),
                         e.toString());
            } finally {
                queue.done(key);
            }
        }
    }

    /**
     * Makes the app and the cluster match one object as the informer's cache holds it now.
     *
     * @param key {@code namespace/name}
     */
    void syncHandler(String key) {
        syncs.incrementAndGet();
        GenericKubernetesResource obj = informer.getStore().getByKey(key);
        if (obj == null) {
            pacer.forget(key);
            if (sink.ownedKeys().contains(key) && !sink.orphaned(key)) {
                queue.addAfter(key, RELEASE_POLL);
            }
            return;
        }
        ChainObject chain = view(obj);
        List<String> finalizers = obj.getMetadata().getFinalizers() == null ? List.of()
                : obj.getMetadata().getFinalizers();
        if (chain.deleting()) {
            if (finalizers.contains(FINALIZER)) {
                finalize(obj, chain, finalizers);
            }
            return;
        }
        if (!finalizers.contains(FINALIZER)) {
            List<String> with = new ArrayList<>(finalizers);
            with.add(FINALIZER);
            patchFinalizers(obj, with);
        }
        ChainReport report = sink.sync(chain);
        writeStatus(chain, report);
        report.notes().forEach(n -> events.record(chain, n));
    }

    private void finalize(GenericKubernetesResource obj, ChainObject chain, List<String> finalizers) {
        if (!sink.release(chain)) {
            queue.addAfter(chain.key(), RELEASE_POLL);
            return;
        }
        List<String> rest = new ArrayList<>(finalizers);
        rest.remove(FINALIZER);
        events.record(chain, new ChainNote(false, "Released", "chain removed from the app and the switches; "
                + "the garbage collector removes its replica StatefulSets", null));
        patchFinalizers(obj, rest);
        pacer.forget(chain.key());
    }

    // Merge patch with the resourceVersion read: a concurrent change is a 409 and the key is retried.
    private void patchFinalizers(GenericKubernetesResource obj, List<String> finalizers) {
        ObjectNode patch = JSON.createObjectNode();
        ObjectNode meta = patch.putObject("metadata");
        meta.put("resourceVersion", obj.getMetadata().getResourceVersion());
        ArrayNode a = meta.putArray("finalizers");
        finalizers.forEach(a::add);
        client.genericKubernetesResources(CONTEXT).inNamespace(obj.getMetadata().getNamespace())
                .withName(obj.getMetadata().getName()).patch(PatchContext.of(PatchType.JSON_MERGE), patch.toString());
    }

    /**
     * Returns the ownerReference a chain's workloads carry.
     *
     * @param chain the object
     * @return reference (controller, blockOwnerDeletion)
     */
    public static OwnerReference ownerReference(ChainObject chain) {
        OwnerReference r = new OwnerReference();
        r.setApiVersion(API_VERSION);
        r.setKind(KIND);
        r.setName(chain.name());
        r.setUid(chain.uid());
        r.setController(true);
        r.setBlockOwnerDeletion(true);
        return r;
    }

    private void writeStatus(ChainObject chain, ChainReport report) {
        JsonNode want = normalize(report.status());
        JsonNode have = normalize(chain.status());
        if (!pacer.admit(chain.key(), !want.equals(have), report.digest())) {
            return;
        }
        ObjectNode op = JSON.createObjectNode();
        op.put("op", "add");
        op.put("path", "/status");
        op.set("value", want);
        client.genericKubernetesResources(CONTEXT).inNamespace(chain.namespace()).withName(chain.name())
                .subresource("status").patch(PatchContext.of(PatchType.JSON), JSON.createArrayNode().add(op)
                        .toString());
        statusWrites.incrementAndGet();
        pacer.wrote(chain.key(), report.digest());
    }

    // Both sides through JSON text, so numbers compare by value (an Integer and a Long of 5 are equal).
    private static JsonNode normalize(Map<String, Object> m) {
        try {
            return JSON.readTree(JSON.writeValueAsString(m));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("status is not JSON: " + e.getOriginalMessage(), e);
        }
    }

    @SuppressWarnings("unchecked")
    static ChainObject view(GenericKubernetesResource obj) {
        Object spec = obj.getAdditionalProperties().get("spec");
        Object status = obj.getAdditionalProperties().get("status");
        String specJson;
        try {
            specJson = JSON.writeValueAsString(spec == null ? Map.of() : spec);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("spec of " + obj.getMetadata().getName() + " is not JSON", e);
        }
        Long gen = obj.getMetadata().getGeneration();
        return new ChainObject(obj.getMetadata().getNamespace(), obj.getMetadata().getName(),
                               obj.getMetadata().getUid(), gen == null ? 0 : gen, specJson,
                               status instanceof Map ? (Map<String, Object>) status : Map.of(),
                               obj.getMetadata().getDeletionTimestamp() != null);
    }

    /**
     * Returns the object of a key as the informer's cache holds it.
     *
     * @param key {@code namespace/name}
     * @return the object, or empty
     */
    public Optional<ChainObject> cached(String key) {
        SharedIndexInformer<GenericKubernetesResource> inf = informer;
        GenericKubernetesResource obj = inf == null ? null : inf.getStore().getByKey(key);
        return obj == null ? Optional.empty() : Optional.of(view(obj));
    }

    /**
     * Returns the counters: syncs, syncFailures, statusWrites, queued, and the Events'.
     *
     * @return counter name to value
     */
    public Map<String, Long> counters() {
        Map<String, Long> m = new TreeMap<>(events.counters());
        m.put("syncs", syncs.get());
        m.put("syncFailures", syncFailures.get());
        m.put("statusWrites", statusWrites.get());
        m.put("queued", (long) queue.length());
        return m;
    }

    /** Waits until the Events recorded so far are written (tests). */
    public void flushEvents() {
        events.flush();
    }

    @Override
    public synchronized void close() {
        closed = true;
        ChainOwners.unregister(namespace, owners);
        if (ticker != null) {
            ticker.shutdownNow();
        }
        queue.close();
        workers.forEach(Thread::interrupt);
        if (informer != null) {
            informer.stop();
        }
        events.close();
        if (ownsClient) {
            client.close();
        }
    }
}
