// SPDX-License-Identifier: Apache-2.0
package org.srv6int.k8s.bridge.crd;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Records core/v1 Events on ServiceFunctionChains and replica pods the way client-go's
 * EventRecorder does, so {@code kubectl describe} shows them: a repeat of the same event (object,
 * type, reason, message) within {@link #AGGREGATE_WINDOW_MS} bumps the existing Event's {@code count}
 * and {@code lastTimestamp} instead of creating another (EventCorrelator's deduplication); each
 * object has a token bucket of {@link #BURST} events refilled one per {@link #REFILL_MS} (client-go's
 * EventSourceObjectSpamFilter), and what it drops is counted. Writes run on one thread of their
 * own so a slow API server never holds a sync; a full backlog drops (counted), as client-go's
 * broadcaster does.
 */
final class ChainEvents implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ChainEvents.class);

    /** Repeats within this window update one Event (client-go: 10 min). */
    static final long AGGREGATE_WINDOW_MS = TimeUnit.MINUTES.toMillis(10);
    /** Events an object may burst (client-go's spam filter: 25). */
    static final int BURST = 25;
    /** One more event allowed per this many ms (client-go: one per 5 min). */
    static final long REFILL_MS = TimeUnit.MINUTES.toMillis(5);
    /** Reporting component on every Event. */
    static final String COMPONENT = "srv6int-chain-controller";
    private static final int BACKLOG = 1000;
    private static final int REMEMBERED = 4096;

    private final KubernetesClient client;
    private final String instance;
    private final ThreadPoolExecutor writer;
    private final Map<String, Sent> sent = new LinkedHashMap<>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Sent> e) {
            return size() > REMEMBERED;
        }
    };
    private final Map<String, Bucket> buckets = new LinkedHashMap<>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Bucket> e) {
            return size() > REMEMBERED;
        }
    };
    private final AtomicLong created = new AtomicLong();
    private final AtomicLong aggregated = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();

    private static final class Sent {
        final String name;
        int count;
        long lastMs;

        Sent(String name, long lastMs) {
            this.name = name;
            this.count = 1;
            this.lastMs = lastMs;
        }
    }

    private static final class Bucket {
        double tokens = BURST;
        long lastMs;

        Bucket(long now) {
            lastMs = now;
        }

        boolean take(long now) {
            tokens = Math.min(BURST, tokens + (double) (now - lastMs) / REFILL_MS);
            lastMs = now;
            if (tokens < 1) {
                return false;
            }
            tokens -= 1;
            return true;
        }
    }

    ChainEvents(KubernetesClient client, String instance) {
        this.client = client;
        this.instance = instance;
        this.writer = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(BACKLOG), r -> {
            Thread t = new Thread(r, "srv6int-crd-events");
            t.setDaemon(true);
            return t;
        }, (r, ex) -> dropped.incrementAndGet());
    }

    /**
     * Records a note on the chain's object and, when it names a replica, on that replica's pod.
     *
     * @param chain the object
     * @param note  the note
     */
    void record(ChainObject chain, ChainNote note) {
        ObjectReference sfc = new ObjectReferenceBuilder().withApiVersion(ChainController.API_VERSION)
                .withKind(ChainController.KIND).withNamespace(chain.namespace()).withName(chain.name())
                .withUid(chain.uid()).build();
        writer.execute(() -> write(sfc, note));
        if (note.replica() != null) {
            String pod = note.replica() + "-0";
            writer.execute(() -> {
                Pod p = client.pods().inNamespace(chain.namespace()).withName(pod).get();
                if (p != null) {
                    write(new ObjectReferenceBuilder().withApiVersion("v1").withKind("Pod")
                                  .withNamespace(chain.namespace()).withName(pod)
                                  .withUid(p.getMetadata().getUid()).build(), note);
                }
            });
        }
    }

    private void write(ObjectReference about, ChainNote note) {
        long now = System.currentTimeMillis();
        String type = note.warning() ? "Warning" : "Normal";
        String key = about.getUid() + "|" + type + "|" + note.reason() + "|" + note.message();
        Sent prior;
        synchronized (this) {
            if (!buckets.computeIfAbsent(about.getUid(), u -> new Bucket(now)).take(now)) {
                dropped.incrementAndGet();
                return;
            }
            prior = sent.get(key);
            if (prior != null && now - prior.lastMs > AGGREGATE_WINDOW_MS) {
                prior = null;
            }
        }
        String ts = Instant.ofEpochMilli(now).truncatedTo(ChronoUnit.SECONDS).toString();
        try {
            if (prior != null) {
                int count = prior.count + 1;
                client.v1().events().inNamespace(about.getNamespace()).withName(prior.name)
                        .patch(PatchContext.of(PatchType.JSON_MERGE),
                               "{\"count\":" + count + ",\"lastTimestamp\":\"" + ts + "\"}");
                synchronized (this) {
                    prior.count = count;
                    prior.lastMs = now;
                }
                aggregated.incrementAndGet();
                return;
            }
            String name = about.getName() + "." + Long.toHexString(System.nanoTime());
            Event e = new EventBuilder().withNewMetadata().withName(name).withNamespace(about.getNamespace())
                    .endMetadata().withInvolvedObject(about).withType(type).withReason(note.reason())
                    .withMessage(note.message()).withFirstTimestamp(ts).withLastTimestamp(ts).withCount(1)
                    .withNewSource().withComponent(COMPONENT).withHost(instance).endSource()
                    .withReportingComponent("srv6int.org/chain-controller").withReportingInstance(instance)
                    .build();
            client.v1().events().inNamespace(about.getNamespace()).resource(e).create();
            synchronized (this) {
                sent.put(key, new Sent(name, now));
            }
            created.incrementAndGet();
        } catch (KubernetesClientException ex) {
            // The first failure is logged for the operator (RBAC?); the rest are counted.
            if (failed.getAndIncrement() == 0) {
                log.warn("Event {} on {} {} not written (later failures only counted): {}", note.reason(),
                         about.getKind(), about.getName(), ex.getMessage());
                return;
            }
            log.debug("Event {} on {} {} not written: {}", note.reason(), about.getKind(), about.getName(),
                      ex.getMessage());
        }
    }

    /**
     * Returns the counters: created, aggregated (a repeat counted on an existing Event), dropped
     * (spam filter or full backlog), failed (the API server refused or was unreachable).
     *
     * @return counter name to value
     */
    Map<String, Long> counters() {
        return Map.of("eventsCreated", created.get(), "eventsAggregated", aggregated.get(),
                      "eventsDropped", dropped.get(), "eventsFailed", failed.get());
    }

    /** Waits for the backlog to be written, at most a few seconds (tests, shutdown). */
    void flush() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while ((writer.getActiveCount() > 0 || !writer.getQueue().isEmpty()) && System.nanoTime() < deadline) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Override
    public void close() {
        writer.shutdownNow();
    }
}
