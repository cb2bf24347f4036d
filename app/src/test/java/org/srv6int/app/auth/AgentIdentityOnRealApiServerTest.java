// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.auth;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.After;
import org.junit.Assume;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.onlab.osgi.TestServiceDirectory;
import org.srv6int.agent.obs.AppCredentials;
import org.srv6int.agent.obs.EscalationClient;
import org.srv6int.app.api.AgentAuthService;
import org.srv6int.app.api.GlobalLoopService;
import org.srv6int.app.api.NodePoolService;
import org.srv6int.app.k8s.KubernetesMock;
import org.srv6int.app.k8s.KubernetesReplicaPlatformManager;
import org.srv6int.app.pools.NodePoolManager;
import org.srv6int.app.rest.JerseyResourceTest;
import org.srv6int.app.rest.Srv6IntWebApplication;
import org.srv6int.app.testing.AppHarness;
import org.srv6int.app.testing.FakeConfigService;
import org.srv6int.app.testing.FakeGlobalLoopService;
import org.srv6int.app.testing.PaperTestbed;
import org.srv6int.k8s.bridge.TokenReviewer;
import org.srv6int.testkit.InMemoryStorageService;

import java.io.File;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * Node-bound agent identity on a real kube-apiserver (v1.36.3, tools/k8s-testenv) with KWOK
 * nodes: pods of the agents' ServiceAccount srv6int-node-agent run on worker1 and worker2, each
 * gets a token from the TokenRequest API bound to it (audience srv6int.org/agent), as the
 * kubelet does for the DaemonSet's projected volume. The app runs in this JVM: its REST
 * application on Jetty, its Kubernetes platform component built from netcfg with the bridge's
 * kubeconfig (a ServiceAccount with only bridge-rbac.yaml's rights) reviewing the tokens. The
 * requests carry the header the agent's {@link AppCredentials} reads from its token file.
 * Worker1's token posting for worker2 is 403, a pod token of another ServiceAccount is 403,
 * garbage, another audience and a deleted pod's token are 401; worker1's token for worker1 is
 * accepted, so is the rotated token, and the agent's own client gets through.
 * Skipped without -Dsrv6int.kubeconfig (tests/ci.d/30-k8s.sh sets it).
 */
public class AgentIdentityOnRealApiServerTest extends JerseyResourceTest {

    private static final String NS = "srv6int";
    private static final String AGENT_SA = "srv6int-node-agent";
    private static final String OTHER_SA = "srv6int-identity-test-other";

    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();
    private KubernetesClient admin;
    private KubernetesReplicaPlatformManager platform;
    private FakeGlobalLoopService loop;
    private NodePoolManager pools;
    private String prefix;
    private final HttpClient http = HttpClient.newHttpClient();

    public AgentIdentityOnRealApiServerTest() {
        super(ResourceConfig.forApplicationClass(Srv6IntWebApplication.class));
    }

    private static String setting(String property) {
        String v = System.getProperty(property);
        return v == null || v.isBlank() ? null : v;
    }

    @Before
    public void startApp() throws Exception {
        String kc = setting("srv6int.kubeconfig");
        if (kc == null) {
            String reason = "AgentIdentityOnRealApiServerTest skipped: no control plane "
                    + "(set -Dsrv6int.kubeconfig=<bridge kubeconfig>; tools/k8s-testenv/start makes one)";
            System.out.println(reason);
            Assume.assumeTrue(reason, false);
        }
        File bridgeKubeconfig = new File(kc).getAbsoluteFile();
        String adminKc = setting("srv6int.admin.kubeconfig");
        admin = client(adminKc != null ? new File(adminKc) : new File(bridgeKubeconfig.getParentFile(),
                "admin.kubeconfig"));
        for (String f : new String[]{"../k8s-bridge/deploy/bridge-rbac.yaml", "../k8s-bridge/deploy/agent/rbac.yaml"}) {
            try (InputStream in = Files.newInputStream(Path.of(f))) {
                admin.load(in).forceConflicts().serverSideApply();
            }
        }
        admin.serviceAccounts().inNamespace(NS).resource(new ServiceAccountBuilder().withNewMetadata()
                .withName(OTHER_SA).withNamespace(NS).endMetadata().build()).forceConflicts().serverSideApply();
        prefix = "idt" + Long.toHexString(System.nanoTime() & 0xffffff);

        // The app: its platform component, built from netcfg with the bridge's kubeconfig, authenticates the agents.
        AppHarness app = new AppHarness();
        FakeConfigService config = new FakeConfigService(PaperTestbed.devices(), KubernetesMock.appConfig(
                "{\"kubernetes\": {\"kubeconfig\": \"" + bridgeKubeconfig + "\", \"namespace\": \"srv6int-sfc\","
                        + " \"vnfTypes\": {\"snort\": {\"image\": \"registry.local/snort:2.9\"}}}}"));
        platform = KubernetesMock.platform(app.sfcs, config, new KubernetesMock.Netcfg(), app.inventory, app.flows);
        loop = new FakeGlobalLoopService();
        pools = new NodePoolManager(new InMemoryStorageService(), Set.of("worker1", "worker2")::contains,
                System::currentTimeMillis, NodePoolManager.DEFAULT_MAX_AGE_MS);
        setServiceDirectory(new TestServiceDirectory().add(GlobalLoopService.class, loop)
                .add(NodePoolService.class, pools).add(AgentAuthService.class, platform));
    }

    private static KubernetesClient client(File kubeconfig) {
        return new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(kubeconfig))
                .withHttpClientFactory(new VertxHttpClientFactory()).build();
    }

    @After
    public void stopApp() {
        if (platform != null) {
            KubernetesMock.stop(platform);
        }
        if (admin != null) {
            admin.pods().inNamespace(NS).withLabel("srv6int.org/test", prefix).withGracePeriod(0).delete();
            admin.serviceAccounts().inNamespace(NS).withName(OTHER_SA).delete();
            admin.close();
        }
    }

    /** A pod of a ServiceAccount on a KWOK node, as the DaemonSet makes the agent's. */
    private Pod pod(String name, String sa, String node) {
        Pod p = new PodBuilder().withNewMetadata().withName(prefix + "-" + name).withNamespace(NS)
                .addToLabels("srv6int.org/test", prefix).endMetadata()
                .withNewSpec().withNodeName(node).withServiceAccountName(sa).withAutomountServiceAccountToken(false)
                .addNewContainer().withName("agent").withImage("srv6int/node-agent:test").endContainer().endSpec()
                .build();
        return admin.pods().inNamespace(NS).resource(p).create();
    }

    /** A token bound to the pod, for an audience, as the kubelet requests it for a projected volume. */
    private String token(Pod pod, String audience) {
        return admin.serviceAccounts().inNamespace(NS).withName(pod.getSpec().getServiceAccountName())
                .tokenRequest(new TokenRequestBuilder().withNewSpec().withAudiences(audience)
                        .withExpirationSeconds(600L).withNewBoundObjectRef().withApiVersion("v1").withKind("Pod")
                        .withName(pod.getMetadata().getName()).withUid(pod.getMetadata().getUid())
                        .endBoundObjectRef().endSpec().build())
                .getStatus().getToken();
    }

    private static String escalation(String node) {
        return EscalationClient.body(1, 0, node, 7_200_000, 5_000_000, 1);
    }

    /** Posts with the Authorization header the agent's credentials read from the token file; the status. */
    private int post(Path tokenFile, String path, String json) throws Exception {
        AppCredentials credentials = AppCredentials.open(tokenFile.toString(), null);
        HttpRequest r = HttpRequest.newBuilder(getBaseUri().resolve(path)).header("Content-Type", "application/json")
                .header("Authorization", credentials.authorization().get())
                .POST(HttpRequest.BodyPublishers.ofString(json)).build();
        HttpResponse<String> answer = http.send(r, HttpResponse.BodyHandlers.ofString());
        System.out.println("AgentIdentityOnRealApiServerTest: " + tokenFile.getFileName() + " POST " + path + " "
                + json.replaceAll(".*\"node\":\"([^\"]*)\".*", "node $1") + " -> " + answer.statusCode() + " "
                + answer.body());
        return answer.statusCode();
    }

    private Path file(String name, String text) throws Exception {
        Path p = tmp.getRoot().toPath().resolve(name);
        Files.writeString(p, text);
        return p;
    }

    @Test
    public void aTokenSpeaksOnlyForItsOwnPodsNode() throws Exception {
        Pod a1 = pod("agent-w1", AGENT_SA, "worker1");
        Pod a2 = pod("agent-w2", AGENT_SA, "worker2");
        Pod other = pod("other-w2", OTHER_SA, "worker2");
        String t1 = token(a1, AgentAuthService.AUDIENCE);

        // What this API server says of a bound token, asked as the bridge: its ServiceAccount and its pod's node.
        try (KubernetesClient bridge = client(new File(setting("srv6int.kubeconfig")))) {
            TokenReviewer.Review r = new TokenReviewer(bridge, AgentAuthService.AUDIENCE).review(t1);
            assertTrue(r.error(), r.authenticated());
            assertEquals(AgentAuthService.AGENT_USER, r.username());
            assertEquals("worker1", r.node());
            assertEquals(a1.getMetadata().getName(), r.pod());
        }

        Path w1 = file("w1-token", t1);
        Path w2 = file("w2-token", token(a2, AgentAuthService.AUDIENCE));
        assertEquals(403, post(w1, "loop/escalations", escalation("worker2")));
        assertEquals(403, post(w1, "loop/pools", "{\"node\":\"worker2\",\"pools\":[]}"));
        assertEquals(403, post(file("other-sa-token", token(other, AgentAuthService.AUDIENCE)), "loop/escalations",
                escalation("worker2")));
        assertEquals(401, post(file("garbage-token", "not-a-token"), "loop/escalations", escalation("worker1")));
        assertEquals(401, post(file("api-audience-token", token(a1, "https://kubernetes.default.svc")),
                "loop/escalations", escalation("worker1")));
        assertEquals(List.of(), loop.escalations);
        assertTrue(pools.all().isEmpty());

        assertEquals(202, post(w1, "loop/escalations", escalation("worker1")));
        assertEquals(202, post(w2, "loop/escalations", escalation("worker2")));
        assertEquals(2, loop.escalations.size());
        assertTrue(loop.escalations.get(0), loop.escalations.get(0).contains(" worker1 "));
        // The kubelet rotates the file: the new token is read and reviewed.
        Files.writeString(w1, token(a1, AgentAuthService.AUDIENCE));
        assertEquals(202, post(w1, "loop/escalations", escalation("worker1")));

        // The agent's own client, as NodeAgent builds it: accepted for its node, rejected (final) for another.
        LinkedBlockingQueue<Integer> outcomes = new LinkedBlockingQueue<>();
        AppCredentials c = AppCredentials.open(w2.toString(), null);
        URI url = getBaseUri().resolve("loop/escalations");
        try (EscalationClient agent = new EscalationClient(url, 2, 50, c.authorization(), c.ssl(), outcomes::add)) {
            agent.send(escalation("worker2"));
            assertEquals(Integer.valueOf(EscalationClient.SENT), outcomes.poll(10, TimeUnit.SECONDS));
            agent.send(escalation("worker1"));
            assertEquals(Integer.valueOf(EscalationClient.REJECTED), outcomes.poll(10, TimeUnit.SECONDS));
        }

        // A deleted pod's tokens are no longer valid (this one never reviewed, so not in the app's cache).
        Pod gone = pod("agent-gone", AGENT_SA, "worker1");
        Path goneToken = file("deleted-pod-token", token(gone, AgentAuthService.AUDIENCE));
        admin.pods().inNamespace(NS).withName(gone.getMetadata().getName()).withGracePeriod(0).delete();
        admin.pods().inNamespace(NS).withName(gone.getMetadata().getName()).waitUntilCondition(p -> p == null,
                60, TimeUnit.SECONDS);
        assertEquals(401, post(goneToken, "loop/escalations", escalation("worker1")));

        String metrics = platform.renderMetrics();
        System.out.println("AgentIdentityOnRealApiServerTest: " + String.join("; ", metrics.lines()
                .filter(l -> l.startsWith("srv6int_agent_auth")).toArray(String[]::new)));
        assertTrue(metrics, metrics.contains("srv6int_agent_auth_requests_total{result=\"wrong_node\"} 3"));
        assertTrue(metrics, metrics.contains("srv6int_agent_auth_requests_total{result=\"wrong_account\"} 1"));
        assertTrue(metrics, metrics.contains("srv6int_agent_auth_requests_total{result=\"invalid_token\"} 3"));
        assertTrue(metrics, metrics.contains("srv6int_agent_auth_requests_total{result=\"accepted\"} 4"));
    }
}
