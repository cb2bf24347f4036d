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
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;

import java.net.InetAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;

/**
 * fabric8's mock API server on 127.0.0.1 in mixed mode: scripted responses
 * (injected errors, delays) are served first, everything else by its in-memory
 * CRUD store, which behaves like the API server for create/get/list/delete
 * (including 409 AlreadyExists and label selectors).
 */
final class MockApiServer implements AutoCloseable {
    final KubernetesMockServer server;
    final KubernetesClient client;

    MockApiServer(BridgeConfig config) throws Exception {
        Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
        server = new KubernetesMockServer(new Context(), new MockWebServer(), responses,
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
        server.destroy();
    }
}
