// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.k8s;

import static org.junit.Assert.assertNotNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.Assume;

/**
 * How this package's tests get a real control plane (tools/k8s-testenv): attached to the one
 * named by {@code srv6int.twin.kubeconfig} (or {@value RealKubernetes#KUBECONFIG_ENV}), the admin
 * kubeconfig of a control plane started with SRV6INT_K8S_KWOK_STAGES=crd (tests/ci.d/30-k8s.sh),
 * or started here. A test is skipped, with the reason printed, when the binaries are not built.
 */
final class TestControlPlane {

    private TestControlPlane() {
    }

    /** The repository root (it holds tools/k8s-testenv and k8s-bridge/deploy). */
    static Path repoRoot() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.isDirectory(p.resolve("tools/k8s-testenv"))) {
            p = p.getParent();
        }
        assertNotNull("no tools/k8s-testenv above " + Path.of("").toAbsolutePath(), p);
        return p;
    }

    /**
     * Starts or attaches to the control plane, with kwok's pod start-up delay set.
     *
     * @param test  the test's name (its transcript lines start with it)
     * @param delay pod start-up delay
     * @return the control plane with the twin's platform on it; close it after the class
     * @throws Exception when it cannot be set up for another reason than missing binaries
     */
    static RealKubernetes start(String test, Duration delay) throws Exception {
        String kc = System.getProperty("srv6int.twin.kubeconfig", System.getenv(RealKubernetes.KUBECONFIG_ENV));
        RealKubernetes.Settings s = new RealKubernetes.Settings().podStartupDelay(delay);
        if (kc != null && !kc.isBlank()) {
            s.kubeconfig(Path.of(kc));
        }
        RealKubernetes k8s;
        try {
            k8s = RealKubernetes.start(repoRoot(), s);
        } catch (RealKubernetes.StartException e) {
            if (e.getMessage().contains("binaries missing") || e.getMessage().contains("etcd not found")) {
                String reason = test + " skipped: " + e.getMessage();
                System.out.println(reason);
                Assume.assumeTrue(reason, false);
            }
            throw e;
        }
        System.out.println(test + ": " + (k8s.startedControlPlane() ? "started" : "attached to")
                + " the control plane of " + k8s.adminKubeconfig());
        return k8s;
    }
}
