// SPDX-License-Identifier: Apache-2.0
package org.srv6int.k8s.bridge;

import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import org.apache.felix.framework.FrameworkFactory;
import org.junit.Test;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.framework.launch.Framework;

import java.io.File;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarFile;
import java.util.regex.Pattern;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * Runs the built bundle in Apache Felix 6.0.3 (the framework of ONOS 2.7's Karaf):
 * installs it with the only bundle it imports from outside (slf4j, as ONOS's pax-logging
 * exports it; Jackson 2.21, Netty 4.1 and YAML are embedded, private to the bridge, so the
 * .oar ships none of them next to ONOS's own lines), checks that it resolves, and creates a
 * replica against the mock API server through the bundle's own class loader, which proves
 * the embedded fabric8 client, Vert.x, Netty and Jackson work under OSGi class loading.
 */
public class OsgiBundleIT {
    /** Runtime jars installed next to the bridge bundle. */
    static final Pattern SHIPPED = Pattern.compile("(slf4j-api|slf4j-simple)-[0-9][^/]*\\.jar");

    @Test
    public void bundleResolvesAndCreatesAReplicaInsideOsgi() throws Exception {
        String path = System.getProperty("srv6int.bundle");
        org.junit.Assume.assumeTrue("runs in the integration-test phase, after package", path != null);
        File bundleJar = new File(path);
        assertTrue("bundle not built: " + bundleJar, bundleJar.isFile());
        Path storage = Files.createTempDirectory("felix");
        Map<String, String> cfg = new HashMap<>();
        cfg.put(Constants.FRAMEWORK_STORAGE, storage.toString());
        cfg.put(Constants.FRAMEWORK_STORAGE_CLEAN, Constants.FRAMEWORK_STORAGE_CLEAN_ONFIRSTINIT);
        // Felix 6.0.3's URL handler hook cannot reach the JDK's http handler on Java 17.
        cfg.put("felix.service.urlhandlers", "false");
        Framework felix = new FrameworkFactory().newFramework(cfg);
        felix.start();
        try {
            BundleContext ctx = felix.getBundleContext();
            List<Bundle> installed = new ArrayList<>();
            List<File> jars = new ArrayList<>();
            for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
                File f = new File(entry);
                if (SHIPPED.matcher(f.getName()).matches()) {
                    jars.add(f);
                }
            }
            for (File f : jars) {
                try (JarFile jar = new JarFile(f)) {
                    if (jar.getManifest().getMainAttributes().getValue(Constants.BUNDLE_SYMBOLICNAME) == null) {
                        fail(f.getName() + " is not an OSGi bundle");
                    }
                }
                installed.add(ctx.installBundle(f.toURI().toString()));
            }
            Bundle bridge = ctx.installBundle(bundleJar.toURI().toString());
            for (Bundle b : installed) {
                if (b.getHeaders().get(Constants.FRAGMENT_HOST) == null) {
                    b.start();
                }
            }
            bridge.start(); // throws BundleException naming any missing requirement
            assertEquals(Bundle.ACTIVE, bridge.getState());

            BridgeConfig testCfg = new BridgeConfig("srv6int-sfc", 3, Duration.ofMillis(10),
                    Duration.ofMillis(50), Duration.ofSeconds(20), Duration.ofSeconds(5));
            try (MockApiServer mock = new MockApiServer(testCfg)) {
                File kubeconfig = File.createTempFile("kubeconfig", ".yaml");
                kubeconfig.deleteOnExit();
                Files.writeString(kubeconfig.toPath(), "apiVersion: v1\nkind: Config\nclusters:\n"
                        + "- name: mock\n  cluster:\n    server: " + mock.client.getMasterUrl() + "\n"
                        + "users:\n- name: u\n  user:\n    token: t\ncontexts:\n"
                        + "- name: mock\n  context: {cluster: mock, user: u}\ncurrent-context: mock\n");
                ClassLoader before = Thread.currentThread().getContextClassLoader();
                // No TCCL help: inside Karaf the caller's context loader is not the bridge's.
                Thread.currentThread().setContextClassLoader(null);
                try {
                    createReplicaThroughBundle(bridge, kubeconfig);
                } finally {
                    Thread.currentThread().setContextClassLoader(before);
                }
                StatefulSet sts = mock.client.apps().statefulSets().inNamespace("srv6int-sfc")
                        .withName("sfc-osgi-vnf0-r0").get();
                assertNotNull("replica not created through the OSGi bundle", sts);
            }
        } finally {
            felix.stop();
            felix.waitForStop(10_000);
        }
    }

    private static void createReplicaThroughBundle(Bundle bridge, File kubeconfig) throws Exception {
        Class<?> cfgClass = bridge.loadClass("org.srv6int.k8s.bridge.BridgeConfig");
        assertTrue("class came from the test class path, not the bundle",
                cfgClass.getClassLoader() != OsgiBundleIT.class.getClassLoader());
        Object cfg = cfgClass.getMethod("defaults", String.class).invoke(null, "srv6int-sfc");
        Class<?> mgr = bridge.loadClass("org.srv6int.k8s.bridge.Fabric8VnfReplicaManager");
        Object manager = mgr.getMethod("fromKubeconfig", File.class, cfgClass).invoke(null, kubeconfig, cfg);
        try {
            Class<?> req = bridge.loadClass("org.srv6int.k8s.bridge.ReplicaRequest");
            Object b = req.getMethod("builder").invoke(null);
            Class<?> bc = b.getClass();
            bc.getMethod("chainId", String.class).invoke(b, "osgi");
            bc.getMethod("vnfIndex", int.class).invoke(b, 0);
            bc.getMethod("vnfType", String.class).invoke(b, "fwd");
            bc.getMethod("replicaIndex", int.class).invoke(b, 0);
            bc.getMethod("nodeName", String.class).invoke(b, "worker1");
            bc.getMethod("image", String.class).invoke(b, "ovs:2.17");
            bc.getMethod("request", String.class, String.class).invoke(b, "cpu", "1");
            Object request = bc.getMethod("build").invoke(b);
            Method ensure = mgr.getMethod("ensureReplica", req);
            Object status = ensure.invoke(manager, request);
            assertEquals("sfc-osgi-vnf0-r0", status.getClass().getMethod("name").invoke(status));
            // The readiness watch (fabric8 informers, embedded) runs in the bundle too.
            Method watched = mgr.getMethod("watchedReplicas", String.class, int.class);
            long deadline = System.nanoTime() + 20_000_000_000L;
            Object seen = watched.invoke(manager, "osgi", 0);
            while (!String.valueOf(seen).contains("sfc-osgi-vnf0-r0") && System.nanoTime() < deadline) {
                Thread.sleep(50);
                seen = watched.invoke(manager, "osgi", 0);
            }
            assertTrue("the watch did not list the replica: " + seen,
                    String.valueOf(seen).contains("sfc-osgi-vnf0-r0"));
            // So does the free resources' watch (cluster-wide informers with fabric8's reduced item store).
            Method free = mgr.getMethod("nodeFreeResources");
            Method stats = mgr.getMethod("nodeCapacityStats");
            free.invoke(manager);
            Object st = stats.invoke(manager);
            while (String.valueOf(st).contains("problem=") && System.nanoTime() < deadline) {
                Thread.sleep(50);
                st = stats.invoke(manager);
            }
            free.invoke(manager);
            st = stats.invoke(manager);
            assertTrue("free resources not answered from the watch in the bundle: " + st,
                    String.valueOf(st).contains("fromWatch=1,"));
        } finally {
            mgr.getMethod("close").invoke(manager);
        }
    }
}
