// SPDX-License-Identifier: Apache-2.0
package org.srv6int.k8s.bridge;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.AfterClass;
import org.junit.Assume;
import org.junit.BeforeClass;
import org.junit.Test;

import java.io.File;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * Replica pods against Pod Security admission on a real kube-apiserver (tools/k8s-testenv, the
 * same settings as {@link RealApiServerTest}): in a namespace labelled
 * {@code pod-security.kubernetes.io/enforce=restricted}, the bridge's replica of a type without
 * capabilities is created, its pod admitted and Running (KWOK), with no ServiceAccount token; the
 * pod of a type that keeps NET_RAW is refused there and in a {@code baseline} namespace, and
 * admitted only at {@code privileged}; a pod without the bridge's security context is refused too
 * (enforcement is on). Skipped without a control plane.
 */
public class ReplicaPodSecurityTest {
    private static final String RESTRICTED = "srv6int-it-restricted";
    private static final String BASELINE = "srv6int-it-baseline";
    private static final String PRIVILEGED = "srv6int-it-privileged";
    private static final Duration READY = Duration.ofSeconds(90);

    private static KubernetesClient admin;
    private static Fabric8VnfReplicaManager bridge;

    @BeforeClass
    public static void connect() throws Exception {
        String kc = System.getProperty("srv6int.kubeconfig", System.getenv("SRV6INT_KUBECONFIG"));
        Assume.assumeTrue("ReplicaPodSecurityTest skipped: no control plane (-Dsrv6int.kubeconfig)",
                kc != null && !kc.isBlank());
        String adminKc = System.getProperty("srv6int.admin.kubeconfig");
        File adminFile = adminKc != null ? new File(adminKc)
                : new File(new File(kc).getParentFile(), "admin.kubeconfig");
        admin = RealApiServerTest.client(adminFile);
        for (String[] ns : new String[][] {{RESTRICTED, "restricted"}, {BASELINE, "baseline"},
                                           {PRIVILEGED, "privileged"}}) {
            admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns[0])
                    .withLabels(Map.of("pod-security.kubernetes.io/enforce", ns[1])).endMetadata().build())
                    .forceConflicts().serverSideApply();
            RealApiServerTest.waitUntil("default ServiceAccount in " + ns[0], Duration.ofSeconds(60), () ->
                    admin.serviceAccounts().inNamespace(ns[0]).withName("default").get() != null);
        }
        // The bridge's namespace-scoped rights are granted in srv6int-sfc only; here it uses the admin's.
        bridge = Fabric8VnfReplicaManager.fromKubeconfig(adminFile, new BridgeConfig(RESTRICTED, 40,
                Duration.ofMillis(100), Duration.ofSeconds(2), Duration.ofSeconds(120), Duration.ofSeconds(10)));
    }

    @AfterClass
    public static void disconnect() {
        if (bridge != null) {
            bridge.removeChain("it-psa");
            bridge.close();
        }
        if (admin != null) {
            for (String ns : List.of(RESTRICTED, BASELINE, PRIVILEGED)) {
                admin.namespaces().withName(ns).delete();
            }
            admin.close();
        }
    }

    private static ReplicaRequest.Builder replica(String type) {
        return ReplicaRequest.builder().chainId("it-psa").vnfIndex(0).vnfType(type).replicaIndex(0)
                .nodeName("worker1").image("registry.local/" + type + ":1").request("cpu", "1").request("memory", "1Gi")
                .limit("cpu", "1").limit("memory", "1Gi");
    }

    /** A pod as the StatefulSet controller makes it from the bridge's template. */
    private static Pod podOf(ReplicaRequest r, String namespace) {
        PodTemplateSpec t = Fabric8VnfReplicaManager.statefulSet(r).getSpec().getTemplate();
        return new PodBuilder().withNewMetadata().withName(r.name() + "-0").withNamespace(namespace)
                .withLabels(t.getMetadata().getLabels()).endMetadata().withSpec(t.getSpec()).build();
    }

    /** Server-side dry run: every admission plugin runs, nothing is stored. */
    private static String admission(Pod pod) {
        try {
            admin.pods().inNamespace(pod.getMetadata().getNamespace()).resource(pod).dryRun().create();
            return "admitted";
        } catch (KubernetesClientException e) {
            return e.getCode() + " " + e.getMessage();
        }
    }

    @Test
    public void replicaWithoutCapabilitiesRunsInARestrictedNamespace() throws Exception {
        ReplicaRequest r = replica("fwd").build();
        bridge.ensureReplica(r);
        ReplicaStatus s = bridge.awaitReady("it-psa", 0, 0, READY);
        assertTrue(s.ready());
        Pod pod = admin.pods().inNamespace(RESTRICTED).withName(s.podName()).get();
        assertEquals("Running", pod.getStatus().getPhase());
        assertEquals(Boolean.FALSE, pod.getSpec().getAutomountServiceAccountToken());
        assertFalse("no token volume", pod.getSpec().getVolumes().stream()
                .anyMatch(v -> v.getProjected() != null || v.getSecret() != null));
        assertEquals(Boolean.TRUE, pod.getSpec().getSecurityContext().getRunAsNonRoot());
        assertEquals("RuntimeDefault", pod.getSpec().getSecurityContext().getSeccompProfile().getType());
        SecurityContext c = pod.getSpec().getContainers().get(0).getSecurityContext();
        assertEquals(Boolean.FALSE, c.getAllowPrivilegeEscalation());
        assertEquals(List.of("ALL"), c.getCapabilities().getDrop());
        assertTrue(c.getCapabilities().getAdd().isEmpty());
        assertTrue(bridge.removeReplica("it-psa", 0, 0));
    }

    @Test
    public void netBindServiceStaysRestricted() {
        assertEquals("admitted", admission(podOf(replica("web").capability("NET_BIND_SERVICE").build(), RESTRICTED)));
    }

    @Test
    public void netRawTypeNeedsAPrivilegedNamespace() {
        ReplicaRequest raw = replica("snort").capability("NET_RAW").capability("NET_ADMIN").build();
        Pod pod = podOf(raw, RESTRICTED);
        assertNull("a type with NET_RAW cannot be non-root", pod.getSpec().getSecurityContext().getRunAsNonRoot());
        assertEquals(List.of("NET_ADMIN", "NET_RAW"), pod.getSpec().getContainers().get(0).getSecurityContext()
                .getCapabilities().getAdd());
        String restricted = admission(pod);
        assertTrue(restricted, restricted.startsWith("403") && restricted.contains("violates PodSecurity \"restricted")
                && restricted.contains("NET_RAW") && restricted.contains("runAsNonRoot"));
        String baseline = admission(podOf(raw, BASELINE));
        assertTrue(baseline, baseline.startsWith("403") && baseline.contains("violates PodSecurity \"baseline")
                && baseline.contains("NET_ADMIN") && baseline.contains("NET_RAW"));
        assertEquals("admitted", admission(podOf(raw, PRIVILEGED)));
    }

    @Test
    public void podWithoutTheSecurityContextIsRefused() {
        Pod pod = podOf(replica("fwd").build(), RESTRICTED);
        pod.getSpec().setSecurityContext(null);
        pod.getSpec().getContainers().get(0).setSecurityContext(null);
        String verdict = admission(pod);
        if (!verdict.startsWith("403")) {
            fail("the restricted namespace admitted a pod without a security context: " + verdict);
        }
        assertTrue(verdict, verdict.contains("allowPrivilegeEscalation") && verdict.contains("seccompProfile"));
    }
}
