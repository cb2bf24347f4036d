// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.k8s;

import org.srv6int.app.testing.FakeInventory;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.MockWebServerListener;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.http.RecordedHttpConnection;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.config.NetworkConfigListener;
import org.onosproject.net.config.NetworkConfigServiceAdapter;
import org.srv6int.app.api.SfcService;
import org.srv6int.app.config.Srv6IntAppConfig;
import org.srv6int.app.config.Srv6IntConfigService;
import org.srv6int.app.testing.FakeConfigService;
import org.srv6int.app.testing.PaperTestbed;
import org.srv6int.testkit.InMemoryStorageService;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * fabric8's mock API server (kube-apiserver CRUD semantics, no controllers) on 127.0.0.1 plus a
 * stand-in for the StatefulSet controller and kubelet: every 20 ms each bridge StatefulSet without
 * a pod gets its pod {@code <name>-0}, Running and Ready on the node it is pinned to. The app's
 * platform reaches it through netcfg (API server URL + bearer token file), as in ONOS.
 */
public final class KubernetesMock implements AutoCloseable {
    static final String NS = "srv6int-sfc";
    static final ObjectMapper MAPPER = new ObjectMapper();
    private static final int ADMIN_REQUEST_TIMEOUT_MS = 60_000;

    final KubernetesMockServer server;
    final NamespacedKubernetesClient admin;
    final Path tokenFile;
    private final ScheduledExecutorService kubelet = Executors.newSingleThreadScheduledExecutor();
    private final AtomicInteger openConnections = new AtomicInteger();
    private int podIps;

    public KubernetesMock() throws IOException {
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
        // The test's own client (kubelet stand-in, set-up and clean-up) waits out the mock's stall
        // of up to 30 s while it closes a stopped platform's watch (see settle): a clean-up delete
        // right after a platform's deactivate timed out at the default 10 s on 2 loaded cores. The
        // product's client keeps its own bounds.
        Config adminConfig;
        try (NamespacedKubernetesClient c = server.createClient()) {
            adminConfig = new ConfigBuilder(c.getConfiguration()).withRequestTimeout(ADMIN_REQUEST_TIMEOUT_MS).build();
        }
        admin = server.createClient(b -> b.withConfig(adminConfig));
        tokenFile = Files.createTempFile("srv6int-token", ".txt");
        Files.write(tokenFile, "test-token\n".getBytes(StandardCharsets.UTF_8));
        kubelet.scheduleWithFixedDelay(this::runPods, 20, 20, TimeUnit.MILLISECONDS);
    }

    public void addNode(String name, String cpu, String memory) {
        admin.nodes().resource(new NodeBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewSpec().endSpec().withNewStatus()
                .addToAllocatable("cpu", new Quantity(cpu)).addToAllocatable("memory", new Quantity(memory))
                .addNewCondition().withType("Ready").withStatus("True").endCondition()
                .endStatus().build()).create();
    }

    private synchronized void runPods() {
        try {
            List<StatefulSet> sets = admin.apps().statefulSets().inNamespace(NS).list().getItems();
            // Kubernetes' garbage collector deletes a StatefulSet's pod with it; without this a pod of a
            // deleted set outlived it here and a later set of the same name found the stale pod.
            Set<String> owned = sets.stream().map(s -> s.getMetadata().getName() + "-0").collect(Collectors.toSet());
            for (Pod p : admin.pods().inNamespace(NS).list().getItems()) {
                if (!owned.contains(p.getMetadata().getName())) {
                    admin.pods().inNamespace(NS).withName(p.getMetadata().getName()).delete();
                }
            }
            for (StatefulSet s : sets) {
                String pod = s.getMetadata().getName() + "-0";
                if (admin.pods().inNamespace(NS).withName(pod).get() != null) {
                    continue;
                }
                Pod p = new PodBuilder().withNewMetadata().withName(pod).withNamespace(NS)
                        .withLabels(s.getSpec().getTemplate().getMetadata().getLabels()).endMetadata()
                        .withSpec(s.getSpec().getTemplate().getSpec()).editSpec()
                        .withNodeName(s.getSpec().getTemplate().getSpec().getNodeSelector()
                                              .get("kubernetes.io/hostname")).endSpec()
                        .withNewStatus().withPhase("Running").withPodIP("10.1.0." + (++podIps))
                        .addNewCondition().withType("Ready").withStatus("True").endCondition().endStatus().build();
                admin.pods().inNamespace(NS).resource(p).create();
            }
        } catch (RuntimeException e) {
            // the next round retries, like a controller
        }
    }

    public List<String> statefulSetNames() {
        return admin.apps().statefulSets().inNamespace(NS).list().getItems().stream()
                .map(s -> s.getMetadata().getName()).sorted().collect(Collectors.toList());
    }

    public void deleteStatefulSet(String name) {
        admin.apps().statefulSets().inNamespace(NS).withName(name).delete();
    }

    public StatefulSet statefulSet(String name) {
        return admin.apps().statefulSets().inNamespace(NS).withName(name).get();
    }

    /** The netcfg section pointing at this server with a bearer token, as an operator writes it. */
    public String kubernetesJson() {
        return "{\"apiServer\":\"http://127.0.0.1:" + server.getPort() + "\",\"tokenFile\":\""
                + tokenFile.toAbsolutePath() + "\",\"namespace\":\"" + NS + "\",\"readyTimeoutMs\":10000,"
                + "\"vnfTypes\":{\"snort\":{\"image\":\"registry.local/snort:2.9\","
                + "\"requests\":{\"cpu\":\"2\",\"memory\":\"4Gi\"},\"limits\":{\"cpu\":\"4\",\"memory\":\"4Gi\"}}}}";
    }

    /**
     * The paper testbed's app config (the one {@code AppHarness} starts with) with some sections
     * set over it, for a loop that runs on the harness's config.
     *
     * @param sections JSON object whose fields replace the testbed's
     * @return whole app config
     */
    public static Srv6IntAppConfig testbedAppConfig(String sections) throws IOException {
        ObjectNode app = (ObjectNode) PaperTestbed.netcfg().path("apps").path(Srv6IntConfigService.APP_NAME)
                        .path(Srv6IntAppConfig.KEY).deepCopy();
        app.setAll((ObjectNode) MAPPER.readTree(sections));
        return appConfig(app.toString());
    }

    /**
     * Parses an app netcfg JSON into the app's config object, validated like netcfg does.
     *
     * @param json whole app config
     * @return config
     */
    public static Srv6IntAppConfig appConfig(String json) throws IOException {
        Srv6IntAppConfig c = new Srv6IntAppConfig();
        JsonNode n = MAPPER.readTree(json);
        c.init(new DefaultApplicationId(1, Srv6IntConfigService.APP_NAME), Srv6IntAppConfig.KEY, n, MAPPER, x -> { });
        c.validate();
        return c;
    }

    /** Netcfg service that keeps its listeners, so a test can announce a change. */
    public static final class Netcfg extends NetworkConfigServiceAdapter {
        public final List<NetworkConfigListener> listeners = new ArrayList<>();

        @Override
        public void addListener(NetworkConfigListener l) {
            listeners.add(l);
        }

        @Override
        public void removeListener(NetworkConfigListener l) {
            listeners.remove(l);
        }
    }

    /**
     * Activates a platform component on the given app config, as ONOS would.
     *
     * @param sfcs   chains (for the vNF types)
     * @param config app config holder
     * @param netcfg netcfg service
     * @return the active component
     */
    public static KubernetesReplicaPlatformManager platform(SfcService sfcs, FakeConfigService config, Netcfg netcfg) {
        return platform(sfcs, config, netcfg, new FakeInventory());
    }

    /**
     * Activates a platform component whose replica identities come from the given inventory.
     *
     * @param sfcs      chains (for the vNF types)
     * @param config    app config holder
     * @param netcfg    netcfg service
     * @param inventory replica inventory (reserves SIDs)
     * @return the active component
     */
    public static KubernetesReplicaPlatformManager platform(SfcService sfcs, FakeConfigService config, Netcfg netcfg,
                                                     org.srv6int.app.api.VnfInventoryService inventory) {
        return platform(sfcs, config, netcfg, inventory, null);
    }

    /**
     * Activates a platform component that deletes a removed chain's workloads once the switches
     * no longer hold its entries.
     *
     * @param sfcs      chains (for the vNF types)
     * @param config    app config holder
     * @param netcfg    netcfg service
     * @param inventory replica inventory (reserves SIDs)
     * @param flows     the switches' flow rules, null to delete at once
     * @return the active component
     */
    public static KubernetesReplicaPlatformManager platform(SfcService sfcs, FakeConfigService config, Netcfg netcfg,
                                                     org.srv6int.app.api.VnfInventoryService inventory,
                                                     org.onosproject.net.flow.FlowRuleService flows) {
        KubernetesReplicaPlatformManager m = new KubernetesReplicaPlatformManager(netcfg, config, sfcs,
                new InMemoryStorageService(), inventory, flows);
        m.activate();
        return m;
    }

    /**
     * Deactivates a platform component, as ONOS does when the app stops.
     *
     * @param m component
     */
    public static void stop(KubernetesReplicaPlatformManager m) {
        m.deactivate();
    }

    public static FakeConfigService configOf(Srv6IntAppConfig app) {
        return new FakeConfigService(org.srv6int.app.testing.PaperTestbed.devices(), app);
    }

    /**
     * Waits until the mock answers again. It blocks an event loop for up to 30 s while it closes a
     * watch that had events in flight, and since the bridge watches nodes and pods, every platform
     * stopped closes some: a test that follows could time out on its first call.
     */
    public void settle() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            try {
                admin.namespaces().list();
                return;
            } catch (RuntimeException e) {
                try {
                    Thread.sleep(100);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /**
     * Closes once the server has closed every client connection: the mock closes a watch on its
     * event loop and waits there for the watch's pending sends, which wait (up to 30 s) for that
     * loop; its own shutdown gives up after 10 s, so it must not start while a loop is stalled.
     * Every platform on this mock must be stopped first.
     */
    @Override
    public void close() throws IOException {
        kubelet.shutdownNow();
        admin.close();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (openConnections.get() > 0) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(openConnections.get() + " connection(s) to the mock API server"
                        + " still open 60 s after its clients closed: a platform left running?");
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        server.destroy();
        Files.deleteIfExists(tokenFile);
    }
}
