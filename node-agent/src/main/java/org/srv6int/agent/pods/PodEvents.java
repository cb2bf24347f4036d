// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.pods;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Core/v1 Events on replica pods, as {@code kubectl describe pod} shows them. A failure to
 * post is counted and logged, never thrown: an event is information, not a decision.
 */
public final class PodEvents {

    private static final Logger LOG = LoggerFactory.getLogger(PodEvents.class);
    /** Event source component. */
    public static final String COMPONENT = "srv6int-node-agent";

    private final KubernetesClient client;
    private final String node;
    private final AtomicLong posted = new AtomicLong();
    private final AtomicLong seq = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();

    /**
     * Creates the publisher.
     *
     * @param client API client
     * @param node this node (the event's source host)
     */
    public PodEvents(KubernetesClient client, String node) {
        this.client = client;
        this.node = node;
    }

    /**
     * Posts an event on a pod.
     *
     * @param namespace pod namespace
     * @param name pod name
     * @param uid pod UID
     * @param warning Warning (else Normal)
     * @param reason CamelCase reason
     * @param message text
     */
    public void post(String namespace, String name, String uid, boolean warning, String reason, String message) {
        Instant now = Instant.now();
        Event e = new EventBuilder()
                .withNewMetadata()
                .withName(name + "." + Long.toHexString(now.toEpochMilli()) + Long.toHexString(seq.getAndIncrement()))
                .withNamespace(namespace)
                .endMetadata()
                .withInvolvedObject(new ObjectReferenceBuilder().withApiVersion("v1").withKind("Pod")
                        .withNamespace(namespace).withName(name).withUid(uid).build())
                .withType(warning ? "Warning" : "Normal")
                .withReason(reason)
                .withMessage(message.length() > 1000 ? message.substring(0, 1000) : message)
                .withNewSource().withComponent(COMPONENT).withHost(node).endSource()
                .withReportingComponent(COMPONENT)
                .withReportingInstance(COMPONENT + "-" + node)
                .withFirstTimestamp(now.toString())
                .withLastTimestamp(now.toString())
                .withCount(1)
                .build();
        try {
            client.v1().events().inNamespace(namespace).resource(e).create();
            posted.incrementAndGet();
        } catch (KubernetesClientException ex) {
            failed.incrementAndGet();
            LOG.warn("event {} on pod {}/{} not posted: {}", reason, namespace, name, ex.getMessage());
        }
    }

    /**
     * Posts an event on a managed replica pod.
     *
     * @param pod pod
     * @param warning Warning (else Normal)
     * @param reason reason
     * @param message text
     */
    public void post(ReplicaPod pod, boolean warning, String reason, String message) {
        post(pod.namespace(), pod.name(), pod.uid(), warning, reason, message);
    }

    /** @return events posted */
    public long posted() {
        return posted.get();
    }

    /** @return events the API server refused or that could not be sent */
    public long failed() {
        return failed.get();
    }
}
