// SPDX-License-Identifier: Apache-2.0
package org.srv6int.k8s.bridge;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.MockWebServerListener;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.http.RecordedHttpConnection;

import java.net.InetAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * fabric8's mock API server on 127.0.0.1 in mixed mode: scripted responses
 * (injected errors, delays) are served first, everything else by its in-memory
 * CRUD store, which behaves like the API server for create/get/list/delete
 * (including 409 AlreadyExists and label selectors).
 *
 * <p>Closing waits until the server has closed every connection the client had. The mock closes a
 * watch on its event loop and waits there for the watch's pending event sends, which wait (up to
 * 30 s) for that same loop: a loop stalls this way when a watch with events in flight is closed.
 * Its own shutdown gives up after 10 s ("Unable to close MockWebServer"), so it must not start
 * while a loop is still stalled.
 */
final class MockApiServer implements AutoCloseable {
    /** Longer than the mock's own stall (its 30 s send timeout). */
    private static final long DRAIN_SECONDS = 60;

    final KubernetesMockServer server;
    final KubernetesClient client;
    private final AtomicInteger openConnections = new AtomicInteger();

    MockApiServer(BridgeConfig config) throws Exception {
        Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
        MockWebServer web = new MockWebServer();
        web.addListener(new MockWebServerListener() {
            @Override
            public void onConnection(RecordedHttpConnection connection) {
                openConnections.incrementAndGet();
            }

            @Override
            public void onConnectionClosed(RecordedHttpConnection connection) {
                openConnections.decrementAndGet();
            }
        });
        server = new KubernetesMockServer(new Context(), web, responses,
                new KubernetesMixedDispatcher(responses), false);
        server.init(InetAddress.getByName("127.0.0.1"), 0);
        try (NamespacedKubernetesClient c = server.createClient()) {
            client = new KubernetesClientBuilder()
                    .withConfig(Fabric8VnfReplicaManager.tune(c.getConfiguration(), config))
                    .withHttpClientFactory(new VertxHttpClientFactory()).build();
        }
    }

    @Override
    public void close() {
        client.close();
        awaitConnectionsClosed();
        server.destroy();
    }

    /** The server runs a connection's close handler after the watch's close on the same loop. */
    private void awaitConnectionsClosed() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DRAIN_SECONDS);
        while (openConnections.get() > 0) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(openConnections.get() + " connection(s) to the mock API server"
                        + " still open " + DRAIN_SECONDS + " s after its client closed");
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
