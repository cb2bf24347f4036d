// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.crd;

import org.srv6int.app.testing.MapperCodecContext;
import org.srv6int.app.testing.KubernetesTestEnv;
import org.srv6int.app.testing.KubernetesTestEnv.LeaderHere;
import org.srv6int.app.testing.KubernetesTestEnv.LocalCluster;
import org.srv6int.app.testing.KubernetesTestEnv.WindowClock;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.onosproject.cluster.ClusterServiceAdapter;
import org.srv6int.app.api.SfcException;
import org.srv6int.app.api.TelemetryWindows;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.api.model.TelemetrySnapshot;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.config.Srv6IntAppConfig;
import org.srv6int.app.k8s.KubernetesMock;
import org.srv6int.app.k8s.KubernetesReplicaPlatformManager;
import org.srv6int.app.assembly.LoopAssembly;
import org.srv6int.app.loop.GlobalLoopManager;
import org.srv6int.app.testing.TestReports;
import org.srv6int.app.rest.SfcCodec;
import org.srv6int.app.telemetry.HopBinding;
import org.srv6int.app.telemetry.TelemetryEngine;
import org.srv6int.app.testing.AppHarness;
import org.srv6int.app.testing.FakeConfigService;
import org.srv6int.app.testing.PaperTestbed;
import org.srv6int.app.testing.Rules;
import org.srv6int.app.testing.WindowFeed;
import org.srv6int.k8s.bridge.ReplicaNames;
import org.srv6int.k8s.bridge.crd.ChainController;
import org.srv6int.testkit.InMemoryStorageService;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * A chain declared as a ServiceFunctionChain on the real control plane (kube-apiserver,
 * kube-controller-manager with its garbage collector, KWOK; tools/k8s-testenv, started by
 * tests/ci.d/36-crd.sh) driving the app's real managers (chains, inventory, paths, flow
 * programming, loop; ONOS services as in-memory stand-ins) through {@link ChainCrdManager}: the
 * object is applied → the chain is programmed on the switches and owned (REST/CLI edits refused)
 * → its status follows as the load rises and the loop scales out (replica StatefulSets owned by
 * the object, Events on it and on the replica's pod) → an object naming a REST chain's id is
 * refused in its status and never touches that chain → the object is deleted → its finalizer
 * removes the chain's flows, the StatefulSets go. Prints {@code kubectl get sfc -o wide} and
 * {@code kubectl describe sfc} as they stood while the chain was scaled out.
 * Runs when {@code srv6int.kubeconfig} names the bridge's kubeconfig; skipped (printing why) otherwise.
 */
public class ChainCrdEndToEndTest {

    private static final long SEC = 1_000_000_000L;
    private static final String NS = "srv6int-sfc";
    private static final VnfKey SNORT = VnfKey.of(PaperTestbed.SFC2, 0);
    private static final String CHAIN = PaperTestbed.SFC2.toString();
    private static final ObjectMapper JSON = new ObjectMapper();

    private final WindowClock clock = new WindowClock(0);
    private final WindowFeed feed = new WindowFeed();
    private final TestReports reports = new TestReports(2, 4, 3);
    private String adminKubeconfig;
    private AppHarness app;
    private TelemetryEngine engine;
    private KubernetesReplicaPlatformManager platform;
    private GlobalLoopManager loop;
    private LoopAssembly assembly;
    private ChainCrdManager crd;
    private KubernetesClient admin;
    private long seq;
    private int counter;

    @Before
    public void setUp() throws Exception {
        File bridgeKubeconfig = KubernetesTestEnv.bridgeKubeconfigOrSkip("ChainCrdEndToEndTest");
        adminKubeconfig = KubernetesTestEnv.adminKubeconfig(bridgeKubeconfig).getPath();
        admin = KubernetesTestEnv.admin(bridgeKubeconfig);
        KubernetesTestEnv.apply(admin, "../k8s-bridge/deploy/bridge-rbac.yaml",
                                "../k8s-bridge/deploy/crd/servicefunctionchains.yaml");
        admin.apiextensions().v1().customResourceDefinitions().withName("servicefunctionchains.srv6int.org")
                .waitUntilCondition(c -> c != null && c.getStatus() != null && c.getStatus().getConditions().stream()
                        .anyMatch(x -> "Established".equals(x.getType()) && "True".equals(x.getStatus())),
                                    30, TimeUnit.SECONDS);
        deleteLeftovers();

        app = new AppHarness();
        // INT reaches the loop through r0's hop only, so the INT-silence rule for replicas is off here.
        Srv6IntAppConfig cfg = KubernetesMock.testbedAppConfig("{\"loop\": {\"demandLatency\": \"measured\","
                + " \"replicaSilenceMs\": 0},"
                + " \"kubernetes\": {\"kubeconfig\": \"" + bridgeKubeconfig + "\", \"namespace\": \"" + NS + "\","
                + " \"readyTimeoutMs\": 60000, \"vnfTypes\": {\"snort\": {\"image\": \"registry.local/snort:2.9\","
                + " \"requests\": {\"cpu\": \"1\", \"memory\": \"1Gi\"}, \"limits\": {\"cpu\": \"1\","
                + " \"memory\": \"1Gi\"}}}}}");
        app.config.app = cfg; // the loop, the platform and the chains read the harness's config
        FakeConfigService config = app.config;
        KubernetesMock.Netcfg netcfg = new KubernetesMock.Netcfg();
        platform = KubernetesMock.platform(app.sfcs, config, netcfg, app.inventory, app.flows);
        engine = new TelemetryEngine(TelemetryEngine.Limits.DEFAULT, () -> clock.nanos);
        engine.setReporters(Map.of(0x7F000001, 4));
        engine.setBindings(List.of(new HopBinding(2, 1, 2, SNORT, "r0")));
        TelemetryWindows windows = feed;
        assembly = LoopAssembly.over(app.app).cluster(new LeaderHere(), new ClusterServiceAdapter())
                .windows(windows).platform(platform).clock(clock).build();
        loop = assembly.loop();
        crd = new ChainCrdManager(new LeaderHere(), new LocalCluster(), netcfg, config, app.sfcs, loop, app.inventory,
                                  windows, app.flows, new InMemoryStorageService());
        crd.setControllerSettings(new ChainController.Settings(Duration.ofSeconds(1), Duration.ofSeconds(10), 2,
                                                               Duration.ofMillis(5), Duration.ofSeconds(5)));
        crd.activate();
        waitUntil("the controller runs", 30, () -> crd.controller() != null);
    }

    @After
    public void tearDown() {
        if (crd != null) {
            crd.deactivate();
        }
        if (assembly != null) {
            assembly.stop();
        }
        if (platform != null) {
            KubernetesMock.stop(platform);
        }
        if (admin != null) {
            deleteLeftovers();
            admin.close();
        }
    }

    // Objects of an interrupted run: their finalizer would wait for a controller that is gone.
    private void deleteLeftovers() {
        for (GenericKubernetesResource r : sfcs().list().getItems()) {
            sfcs().withName(r.getMetadata().getName()).patch(PatchContext.of(PatchType.JSON_MERGE),
                                                             "{\"metadata\":{\"finalizers\":null}}");
            sfcs().withName(r.getMetadata().getName()).delete();
        }
        admin.apps().statefulSets().inNamespace(NS).withLabel(ReplicaNames.LABEL_CHAIN, CHAIN).delete();
    }

    private io.fabric8.kubernetes.client.dsl.NonNamespaceOperation<GenericKubernetesResource,
            io.fabric8.kubernetes.api.model.GenericKubernetesResourceList,
            io.fabric8.kubernetes.client.dsl.Resource<GenericKubernetesResource>> sfcs() {
        return admin.genericKubernetesResources(ChainController.CONTEXT).inNamespace(NS);
    }

    private GenericKubernetesResource object(String name, ObjectNode spec) {
        GenericKubernetesResource r = new GenericKubernetesResource();
        r.setApiVersion(ChainController.API_VERSION);
        r.setKind(ChainController.KIND);
        r.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(name).withNamespace(NS)
                              .build());
        r.setAdditionalProperty("spec", JSON.convertValue(spec, Map.class));
        return r;
    }

    /** A chain's spec as the REST takes it (the same codec writes it). */
    private static ObjectNode spec(org.srv6int.app.api.model.Sfc sfc) {
        return new SfcCodec().encode(sfc, new MapperCodecContext(JSON));
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> status(String name) {
        GenericKubernetesResource r = sfcs().withName(name).get();
        Object s = r == null ? null : r.getAdditionalProperties().get("status");
        return s instanceof Map ? (Map<String, Object>) s : Map.of();
    }

    @SuppressWarnings("unchecked")
    private String condition(String name, String type) {
        Object c = status(name).get("conditions");
        if (c instanceof List) {
            for (Object o : (List<Object>) c) {
                Map<String, Object> m = (Map<String, Object>) o;
                if (type.equals(m.get("type"))) {
                    return m.get("status") + "/" + m.get("reason");
                }
            }
        }
        return "none";
    }

    private static void waitUntil(String what, long seconds, BooleanSupplier done) throws InterruptedException {
        long deadline = System.nanoTime() + seconds * SEC;
        while (!done.getAsBoolean()) {
            assertTrue("not within " + seconds + " s: " + what, System.nanoTime() < deadline);
            Thread.sleep(50);
        }
    }

    /** One telemetry window of 100 reports at the given Snort latency, then the window closes. */
    private void window(long latency) {
        for (int i = 0; i < 100; i++) {
            counter = (counter + 10) & 0xFFFF;
            byte[] p = reports.payload(seq++, new TestReports.Hop(1, 0, 0, 0, counter),
                                       new TestReports.Hop(2, 0, 1000 + latency, latency, counter),
                                       new TestReports.Hop(4, 0, 9000 + latency, 0, counter));
            assertTrue(engine.onReport(p, 0, p.length, 0x7F000001));
        }
        clock.nanos += SEC;
        TelemetrySnapshot s = engine.roll();
        feed.push(s);
    }

    private String chainEntries() {
        app.settle();
        return app.flows.entries().stream().map(Rules::describe).filter(l -> l.contains("chain_id=" + CHAIN))
                .collect(Collectors.joining("\n"));
    }

    private List<StatefulSet> statefulSets() {
        return admin.apps().statefulSets().inNamespace(NS).withLabel(ReplicaNames.LABEL_CHAIN, CHAIN).list()
                .getItems();
    }

    private List<Event> events(String kind, String name) {
        return admin.v1().events().inNamespace(NS).list().getItems().stream()
                .filter(e -> kind.equals(e.getInvolvedObject().getKind())
                        && name.equals(e.getInvolvedObject().getName())).collect(Collectors.toList());
    }

    private String kubectl(String... args) throws Exception {
        String[] cmd = new String[args.length + 3];
        cmd[0] = "kubectl";
        cmd[1] = "--kubeconfig";
        cmd[2] = adminKubeconfig;
        System.arraycopy(args, 0, cmd, 3, args.length);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue("kubectl did not end", p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(out, 0, p.exitValue());
        return out;
    }

    @Test
    public void aChainDeclaredInKubernetesIsProgrammedScaledReportedAndCleanedUp() throws Exception {
        // A REST chain: an object naming its id is refused in its status and never changes it.
        app.sfcs.addSfc(PaperTestbed.sfc1());
        ObjectNode taken = spec(PaperTestbed.sfc1()).put("name", "not-mine");
        sfcs().resource(object("sfc1-claim", taken)).create();

        sfcs().resource(object("sfc2", spec(PaperTestbed.sfc2()))).create();
        waitUntil("the app holds chain 2", 30, () -> app.sfcs.getSfc(PaperTestbed.SFC2).isPresent());
        assertEquals(Optional.of(NS + "/sfc2"), crd.owner(PaperTestbed.SFC2));
        assertEquals(Optional.empty(), crd.owner(PaperTestbed.SFC1));
        PaperTestbed.initialReplicas().stream().filter(r -> r.vnf().sfcId().equals(PaperTestbed.SFC2))
                .forEach(app.inventory::registerReplica);
        assertFalse("chain 2's entries on the switches", chainEntries().isEmpty());
        waitUntil("Programmed=True in the status", 30, () -> condition("sfc2", "Programmed").equals("True/Installed"));
        waitUntil("the REST chain's claim refused", 30,
                  () -> condition("sfc1-claim", "Programmed").equals("False/IdTaken"));
        assertEquals("sfc1", app.sfcs.getSfc(PaperTestbed.SFC1).get().name());
        assertEquals("Refused", status("sfc1-claim").get("state"));
        assertEquals("a finalizer on every object", List.of(ChainController.FINALIZER),
                     sfcs().withName("sfc2").get().getMetadata().getFinalizers());

        // REST/CLI edits of chain 2 are refused naming its object.
        try {
            crd.checkChangeable(PaperTestbed.SFC2);
            fail("chain 2 is declared by an object");
        } catch (SfcException e) {
            assertEquals(SfcException.Reason.CONFLICT, e.reason());
            assertTrue(e.getMessage(), e.getMessage().contains("ServiceFunctionChain " + NS + "/sfc2"));
        }
        crd.checkChangeable(PaperTestbed.SFC1);

        // An invalid object never gets past the API server, naming the field.
        try {
            sfcs().resource(object("bad", spec(PaperTestbed.sfc2()).put("id", 0))).create();
            fail("spec.id 0 admitted");
        } catch (KubernetesClientException e) {
            assertEquals(422, e.getCode());
            assertTrue(e.getMessage(), e.getMessage().contains("spec.id"));
        }

        // Load rises: Snort over its bound; the status says so within a few windows.
        window(400_000);
        waitUntil("WithinBound=True at low load", 30,
                  () -> condition("sfc2", "WithinBound").equals("True/WithinBound"));
        for (int i = 0; i < 2; i++) {
            window(3 * PaperTestbed.LMAX);
        }
        waitUntil("WithinBound=False once over the bound", 30,
                  () -> condition("sfc2", "WithinBound").equals("False/OverBound"));
        System.out.println("ChainCrdEndToEndTest: over bound: state " + status("sfc2").get("state")
                                   + ", bottleneck " + status("sfc2").get("bottleneck"));
        for (int i = 0; i < 4; i++) {
            window(3 * PaperTestbed.LMAX);
        }
        waitUntil("the scale-out decision is done", 120, () -> !loop.decisions(1).isEmpty()
                && loop.decisions(1).get(0).outcome() != LoopDecision.Outcome.IN_PROGRESS);
        LoopDecision out = loop.decisions(1).get(0);
        assertEquals(out.detail(), LoopDecision.Action.SCALE_OUT, out.action());
        assertEquals(out.detail(), LoopDecision.Outcome.SUCCEEDED, out.outcome());
        int replicas = app.inventory.getReplicas(SNORT).size();
        assertTrue(replicas > 1);
        waitUntil("the status shows the scale-out", 30, () -> {
            Map<String, Object> s = status("sfc2");
            return Integer.valueOf(replicas).equals(s.get("replicas")) && String.valueOf(s.get("lastDecisions"))
                    .contains("SCALE_OUT") && condition("sfc2", "Scaling").equals("False/Idle");
        });
        String uid = sfcs().withName("sfc2").get().getMetadata().getUid();
        List<StatefulSet> sts = statefulSets();
        assertFalse(sts.isEmpty());
        for (StatefulSet s : sts) {
            assertTrue(s.getMetadata().getName() + " owned by sfc2: " + s.getMetadata().getOwnerReferences(),
                       s.getMetadata().getOwnerReferences() != null && s.getMetadata().getOwnerReferences().stream()
                               .anyMatch(r -> uid.equals(r.getUid()) && Boolean.TRUE.equals(r.getController())));
        }
        crd.controller().flushEvents();
        waitUntil("Events on the object: Created, ScaledOut, ReplicaAdded", 30, () -> {
            List<String> reasons = events(ChainController.KIND, "sfc2").stream().map(Event::getReason)
                    .collect(Collectors.toList());
            return reasons.containsAll(List.of("Created", "ScaledOut", "ReplicaAdded"));
        });
        String pod = ReplicaNames.podName(sts.get(0).getMetadata().getName());
        waitUntil("an Event on the replica's pod " + pod, 30, () -> events("Pod", pod).stream()
                .anyMatch(e -> "ReplicaAdded".equals(e.getReason()) || "ReplicaReady".equals(e.getReason())));
        System.out.println("ChainCrdEndToEndTest: kubectl get sfc -o wide\n" + kubectl("get", "sfc", "-n", NS, "-o",
                                                                                        "wide"));
        System.out.println("ChainCrdEndToEndTest: kubectl describe sfc sfc2\n" + kubectl("describe", "sfc", "-n", NS,
                                                                                          "sfc2"));
        assertTrue(kubectl("get", "sfc", "-n", NS, "sfc2", "--no-headers").contains("sfc2"));
        System.out.println("ChainCrdEndToEndTest: controller counters " + crd.counters());

        // Delete: the finalizer removes the chain and its flows before the object goes; the StatefulSets go.
        sfcs().withName("sfc2").delete();
        waitUntil("the object gone after its finalizer", 60, () -> {
            app.settle(); // the programming removes the chain's entries (ONOS runs it on the chain's events)
            return sfcs().withName("sfc2").get() == null;
        });
        assertFalse(app.sfcs.getSfc(PaperTestbed.SFC2).isPresent());
        assertEquals("no entry of chain 2 left on the switches", "", chainEntries());
        assertEquals(Optional.empty(), crd.owner(PaperTestbed.SFC2));
        waitUntil("chain 2's StatefulSets collected", 60, () -> statefulSets().isEmpty());
        // The claim on the REST chain goes without touching it.
        sfcs().withName("sfc1-claim").delete();
        waitUntil("the claim gone", 30, () -> sfcs().withName("sfc1-claim").get() == null);
        assertTrue(app.sfcs.getSfc(PaperTestbed.SFC1).isPresent());
    }
}
