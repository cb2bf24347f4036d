// SPDX-License-Identifier: Apache-2.0
package org.srv6int.tests.oar;

import org.junit.BeforeClass;
import org.junit.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarInputStream;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * Opens the built .oar and checks that ONOS 2.7 could install and start it: the
 * descriptors agree with the bundles shipped, and every bundle's Import-Package
 * is satisfied by the shipped bundles plus what ONOS 2.7 exports. ONOS's
 * exports are taken from the ONOS 2.7 artefacts on Maven Central (and the
 * versions onos-dependencies pins) on this module's test classpath, plus the
 * JDK packages the OSGi system bundle exports.
 */
public class OarPackagingTest {

    // Must equal the id the app registers (Srv6IntConfigService.APP_NAME).
    private static final String APP_NAME = "org.srv6int.app";
    private static final String[] OWN_BUNDLES = {
        "srv6int-codec", "srv6int-pipeconf", "srv6int-app", "srv6int-cli", "srv6int-k8s-bridge"};

    private static ZipFile oar;
    private static Document appXml;
    private static Document featuresXml;
    /** mvn coordinates (group/artifact/version) to the bundle's manifest. */
    private static final Map<String, Manifest> SHIPPED = new TreeMap<>();

    @BeforeClass
    public static void openOar() throws Exception {
        String path = System.getProperty("srv6int.oar");
        assertNotNull("system property srv6int.oar not set", path);
        File file = new File(path);
        assertTrue("no .oar at " + file + " (run mvn package first)", file.isFile());
        oar = new ZipFile(file);
        appXml = xml("app.xml");
        featuresXml = xml("features.xml");
        Enumeration<? extends ZipEntry> entries = oar.entries();
        while (entries.hasMoreElements()) {
            ZipEntry e = entries.nextElement();
            if (e.getName().startsWith("m2/") && e.getName().endsWith(".jar")) {
                SHIPPED.put(coordinates(e.getName()), manifest(e));
            }
        }
    }

    @Test
    public void appXmlNamesTheAppAndTheOnosAppsItNeeds() {
        Element app = appXml.getDocumentElement();
        assertEquals("app", app.getTagName());
        assertEquals(APP_NAME, app.getAttribute("name"));
        assertTrue("version must be filtered", !app.getAttribute("version").contains("${"));
        Set<String> apps = new TreeSet<>(List.of(app.getAttribute("apps").split(",")));
        assertTrue("the BMv2 driver app is required: " + apps, apps.contains("org.onosproject.drivers.bmv2"));
        String repo = app.getAttribute("featuresRepo");
        assertTrue(repo.startsWith("mvn:"));
        String[] f = repo.substring(4).split("/");
        String featuresPath = "m2/" + f[0].replace('.', '/') + "/" + f[1] + "/" + f[2] + "/"
                + f[1] + "-" + f[2] + "-features.xml";
        assertNotNull("features repo " + repo + " not in the .oar at " + featuresPath, oar.getEntry(featuresPath));
        assertEquals(app.getAttribute("features"), featuresXml.getDocumentElement()
                .getElementsByTagName("feature").item(0).getAttributes().getNamedItem("name").getNodeValue());
    }

    @Test
    public void descriptorsListExactlyTheShippedBundles() {
        Set<String> artifacts = new TreeSet<>();
        NodeList list = appXml.getElementsByTagName("artifact");
        for (int i = 0; i < list.getLength(); i++) {
            artifacts.add(stripMvn(list.item(i).getTextContent().trim()));
        }
        Set<String> bundles = new TreeSet<>();
        NodeList bl = featuresXml.getElementsByTagName("bundle");
        for (int i = 0; i < bl.getLength(); i++) {
            bundles.add(stripMvn(bl.item(i).getTextContent().trim()));
        }
        Set<String> shipped = new TreeSet<>(SHIPPED.keySet());
        assertEquals("app.xml <artifact>s vs jars under m2/", shipped, artifacts);
        assertEquals("features.xml <bundle>s vs jars under m2/", shipped, bundles);
        for (String own : OWN_BUNDLES) {
            assertTrue(own + " missing from the .oar",
                    shipped.stream().anyMatch(c -> c.startsWith("org.srv6int/" + own + "/")));
        }
    }

    @Test
    public void theTestkitIsNeverShipped() {
        // srv6int-testkit stands in for ONOS's core in tests and the Karaf step; in an .oar it
        // would register a second FlowRuleService, StorageService, ... next to ONOS's own.
        Enumeration<? extends ZipEntry> entries = oar.entries();
        while (entries.hasMoreElements()) {
            String name = entries.nextElement().getName();
            assertTrue("testkit in the .oar: " + name, !name.contains("srv6int-testkit"));
        }
        assertTrue(SHIPPED.values().stream().noneMatch(m -> String.valueOf(
                m.getMainAttributes().getValue("Bundle-SymbolicName")).contains("testkit")));
    }

    @Test
    public void everyShippedJarIsAnOsgiBundleOrWrapped() {
        Set<String> wrapped = new TreeSet<>();
        NodeList bl = featuresXml.getElementsByTagName("bundle");
        for (int i = 0; i < bl.getLength(); i++) {
            String b = bl.item(i).getTextContent().trim();
            if (b.startsWith("wrap:")) {
                wrapped.add(stripMvn(b));
            }
        }
        for (Map.Entry<String, Manifest> e : SHIPPED.entrySet()) {
            boolean bundle = e.getValue() != null
                    && e.getValue().getMainAttributes().getValue("Bundle-SymbolicName") != null;
            assertTrue(e.getKey() + " is neither an OSGi bundle nor wrap:-ped in features.xml",
                    bundle || wrapped.contains(e.getKey()));
        }
    }

    @Test
    public void everyImportIsSatisfiedByShippedBundlesOrOnos() throws IOException {
        Map<String, List<String>> exports = new HashMap<>();
        for (Manifest m : SHIPPED.values()) {
            addExports(exports, m);
        }
        addOnosRuntimeExports(exports);
        addSystemBundleExports(exports);
        // Guard against a vacuous pass: the ONOS and framework exports must be there.
        for (String must : new String[]{"org.onosproject.net", "org.onosproject.cli",
                "org.osgi.framework", "com.google.common.collect", "javax.ws.rs", "javax.xml.parsers"}) {
            assertTrue("expected ONOS runtime to export " + must, exports.containsKey(must));
        }

        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, Manifest> e : SHIPPED.entrySet()) {
            if (e.getValue() == null) {
                continue;
            }
            String imports = e.getValue().getMainAttributes().getValue("Import-Package");
            for (OsgiHeader.Entry imp : OsgiHeader.parse(imports)) {
                if (imp.optional() || imp.name.startsWith("java.")) {
                    continue;
                }
                List<String> versions = exports.get(imp.name);
                if (versions == null) {
                    problems.add(e.getKey() + ": nobody exports " + imp.name);
                } else if (versions.stream().noneMatch(v -> OsgiHeader.inRange(imp.version(), v))) {
                    problems.add(e.getKey() + ": " + imp.name + " " + imp.version()
                            + " not matched by exported versions " + versions);
                }
            }
        }
        if (!problems.isEmpty()) {
            fail("unsatisfied Import-Package entries:\n  " + String.join("\n  ", problems));
        }
    }

    @Test
    public void noShippedBundleOutbidsAnExportOfOnos() throws IOException {
        // Karaf wires an import to the highest matching export: a shipped bundle exporting a
        // package of ONOS's at the same or a higher version makes ONOS's bundles, which import
        // their own packages, rewire and restart on every install of the app (docs/karaf.md).
        Set<String> shipped = new HashSet<>();
        SHIPPED.values().stream().filter(Objects::nonNull).forEach(m -> shipped.add(symbolicName(m)));
        Map<String, List<String>> onos = new HashMap<>();
        addOnosRuntimeExports(onos, shipped);
        assertTrue("expected ONOS runtime to export com.fasterxml.jackson.databind",
                   onos.containsKey("com.fasterxml.jackson.databind"));
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, Manifest> e : SHIPPED.entrySet()) {
            if (e.getValue() == null) {
                continue;
            }
            for (OsgiHeader.Entry ex : OsgiHeader.parse(e.getValue().getMainAttributes().getValue("Export-Package"))) {
                String mine = ex.version() == null ? "0.0.0" : ex.version();
                for (String theirs : onos.getOrDefault(ex.name, List.of())) {
                    if (OsgiHeader.inRange(theirs, mine)) {
                        problems.add(e.getKey() + " exports " + ex.name + " " + mine + ", ONOS exports it at "
                                + theirs);
                    }
                }
            }
        }
        if (!problems.isEmpty()) {
            fail("shipped bundles would take packages over from ONOS's own bundles:\n  "
                         + String.join("\n  ", problems));
        }
    }

    @Test
    public void noBundleImportsAPackageTwice() {
        // Felix refuses such a bundle at install time; nothing but a running container saw it before.
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, Manifest> e : SHIPPED.entrySet()) {
            if (e.getValue() == null) {
                continue;
            }
            Map<String, Integer> seen = new HashMap<>();
            for (OsgiHeader.Entry imp : OsgiHeader.parse(e.getValue().getMainAttributes().getValue("Import-Package"))) {
                seen.merge(imp.name, 1, Integer::sum);
            }
            seen.forEach((name, n) -> {
                if (n > 1) {
                    problems.add(e.getKey() + " imports " + name + " " + n + " times");
                }
            });
        }
        assertTrue(String.join("\n", problems), problems.isEmpty());
    }

    @Test
    public void versionRangesFollowOsgiSemantics() {
        assertTrue(OsgiHeader.inRange("[2.7,3)", "2.7.0"));
        assertTrue(!OsgiHeader.inRange("[2.7,3)", "3.0.0"));
        assertTrue(!OsgiHeader.inRange("(2.7,3)", "2.7.0"));
        assertTrue(OsgiHeader.inRange("1.2", "1.10.0"));
        assertTrue(!OsgiHeader.inRange("1.2", "1.1.9"));
        assertEquals(2, OsgiHeader.parse("a.b;version=\"[1,2)\",c.d;resolution:=optional").size());
        assertTrue(OsgiHeader.parse("c.d;resolution:=optional").get(0).optional());
    }

    // Exports of the ONOS 2.7 artefacts (and pinned third-party bundles) on the test classpath.
    private static void addOnosRuntimeExports(Map<String, List<String>> exports) throws IOException {
        addOnosRuntimeExports(exports, Set.of());
    }

    // The same, leaving out these bundles (symbolic name/version: the .oar's own, also on the class path).
    private static void addOnosRuntimeExports(Map<String, List<String>> exports, Set<String> except)
            throws IOException {
        for (String p : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!p.endsWith(".jar")) {
                continue;
            }
            try (JarFile jar = new JarFile(p)) {
                Manifest m = jar.getManifest();
                if (m != null && except.contains(symbolicName(m))) {
                    continue;
                }
                if (m != null && m.getMainAttributes().getValue("Export-Package") != null) {
                    addExports(exports, m);
                    continue;
                }
                // API jars such as org.osgi.core carry their versions in packageinfo files.
                Enumeration<JarEntry> es = jar.entries();
                while (es.hasMoreElements()) {
                    JarEntry je = es.nextElement();
                    if (je.getName().endsWith("/packageinfo")) {
                        String pkg = je.getName().substring(0, je.getName().length() - "/packageinfo".length())
                                .replace('/', '.');
                        String v = new String(jar.getInputStream(je).readAllBytes(), StandardCharsets.UTF_8)
                                .replace("version", "").trim();
                        exports.computeIfAbsent(pkg, k -> new ArrayList<>()).add(v);
                    }
                }
            }
        }
    }

    // Symbolic name and version: ONOS's Jackson 2.11 and a shipped 2.21 share the name.
    private static String symbolicName(Manifest m) {
        String bsn = m.getMainAttributes().getValue("Bundle-SymbolicName");
        return (bsn == null ? "" : bsn.split(";")[0].trim()) + "/" + m.getMainAttributes().getValue("Bundle-Version");
    }

    // The OSGi system bundle exports the JDK's non-java.* packages at version 0.0.0.
    private static void addSystemBundleExports(Map<String, List<String>> exports) {
        for (Module m : ModuleLayer.boot().modules()) {
            for (ModuleDescriptor.Exports ex : m.getDescriptor().exports()) {
                if (!ex.isQualified()) {
                    exports.computeIfAbsent(ex.source(), k -> new ArrayList<>()).add("0.0.0");
                }
            }
        }
    }

    private static void addExports(Map<String, List<String>> exports, Manifest m) {
        if (m == null) {
            return;
        }
        for (OsgiHeader.Entry ex : OsgiHeader.parse(m.getMainAttributes().getValue("Export-Package"))) {
            exports.computeIfAbsent(ex.name, k -> new ArrayList<>())
                    .add(ex.version() == null ? "0.0.0" : ex.version());
        }
    }

    private static String stripMvn(String url) {
        String s = url.startsWith("wrap:") ? url.substring(5) : url;
        s = s.startsWith("mvn:") ? s.substring(4) : s;
        int bang = s.indexOf('$');
        return bang >= 0 ? s.substring(0, bang) : s;
    }

    // m2/org/srv6int/srv6int-app/1.0.0-SNAPSHOT/srv6int-app-1.0.0-SNAPSHOT.jar ->
    // org.srv6int/srv6int-app/1.0.0-SNAPSHOT
    private static String coordinates(String entry) {
        String[] parts = entry.substring(3).split("/");
        int n = parts.length;
        String version = parts[n - 2];
        String artifact = parts[n - 3];
        StringBuilder group = new StringBuilder();
        for (int i = 0; i < n - 3; i++) {
            group.append(i > 0 ? "." : "").append(parts[i]);
        }
        String file = parts[n - 1];
        String base = artifact + "-" + version;
        String rest = file.substring(base.length(), file.length() - ".jar".length());
        return group + "/" + artifact + "/" + version + (rest.startsWith("-") ? "/jar/" + rest.substring(1) : "");
    }

    private static Manifest manifest(ZipEntry e) throws IOException {
        try (InputStream in = oar.getInputStream(e); JarInputStream jar = new JarInputStream(in)) {
            Manifest m = jar.getManifest();
            if (m == null) {
                return null;
            }
            Attributes a = m.getMainAttributes();
            return a.isEmpty() ? null : m;
        }
    }

    private static Document xml(String name) throws Exception {
        ZipEntry e = oar.getEntry(name);
        assertNotNull(name + " missing from the .oar", e);
        byte[] bytes = oar.getInputStream(e).readAllBytes();
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(bytes));
    }
}
