// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app;

import org.junit.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * Keeps the app's layering as docs/architecture.md ("Package dependencies") writes it down: every
 * reference of a main source file to a project package ({@code org.srv6int.*}: imports, static
 * imports and qualified names in code, comments left out) must be one its package's row allows,
 * and every package of the app must have a row. The table is the one place the rules live.
 */
public class PackageDependenciesTest {

    private static final Path SOURCES = Paths.get("src/main/java/org/srv6int/app");
    private static final Path DOC = Paths.get("../docs/architecture.md");
    private static final Pattern REF = Pattern.compile("\\borg\\.srv6int\\.((?:[a-z][a-z0-9]*\\.)+)[A-Z*]");
    private static final Pattern ROW = Pattern.compile("^\\| `([a-z0-9.]+)` \\| (.+) \\|$");
    private static final Pattern COMMENT = Pattern.compile("(?s)/\\*.*?\\*/|//[^\\n]*");

    /** Package (without org.srv6int.app.) to what it may use; "any" for everything. */
    static Map<String, Set<String>> rules() throws IOException {
        List<String> lines = Files.readAllLines(DOC, StandardCharsets.UTF_8);
        int start = lines.indexOf("## Package dependencies");
        assertTrue("docs/architecture.md has no '## Package dependencies' section", start >= 0);
        Map<String, Set<String>> rules = new TreeMap<>();
        for (int i = start + 1; i < lines.size() && !lines.get(i).startsWith("## "); i++) {
            Matcher m = ROW.matcher(lines.get(i).trim());
            if (m.matches()) {
                Set<String> deps = Arrays.stream(m.group(2).split(","))
                        .map(x -> x.trim().replace("`", "")).collect(Collectors.toCollection(TreeSet::new));
                rules.put(m.group(1), deps);
            }
        }
        return rules;
    }

    /**
     * The project packages a source refers to, named as in the table: an app package without
     * its prefix, any other without {@code org.srv6int.}.
     */
    static Set<String> references(String source) {
        String code = COMMENT.matcher(source).replaceAll(" ");
        Set<String> refs = new TreeSet<>();
        Matcher m = REF.matcher(code);
        while (m.find()) {
            String pkg = m.group(1).substring(0, m.group(1).length() - 1);
            refs.add(pkg.startsWith("app.") ? pkg.substring(4) : pkg);
        }
        return refs;
    }

    static String packageOf(Path file) {
        Path dir = SOURCES.relativize(file).getParent();
        return dir == null ? "" : dir.toString().replace(file.getFileSystem().getSeparator(), ".");
    }

    @Test
    public void everyReferenceIsOneTheTableAllows() throws IOException {
        Map<String, Set<String>> rules = rules();
        assertFalse("no rows read from docs/architecture.md", rules.isEmpty());
        List<String> leaks = new ArrayList<>();
        Set<String> unlisted = new TreeSet<>();
        List<Path> files;
        try (Stream<Path> s = Files.walk(SOURCES)) {
            files = s.filter(p -> p.toString().endsWith(".java") && !p.endsWith("package-info.java"))
                    .sorted().collect(Collectors.toList());
        }
        assertTrue("no sources under " + SOURCES.toAbsolutePath(), files.size() > 50);
        for (Path f : files) {
            String pkg = packageOf(f);
            Set<String> allowed = rules.get(pkg);
            if (allowed == null) {
                unlisted.add(pkg.isEmpty() ? "(org.srv6int.app itself)" : pkg);
                continue;
            }
            if (allowed.contains("any")) {
                continue;
            }
            for (String ref : references(new String(Files.readAllBytes(f), StandardCharsets.UTF_8))) {
                if (!ref.equals(pkg) && !allowed.contains(ref)) {
                    leaks.add(SOURCES.relativize(f) + ": " + pkg + " -> " + ref);
                }
            }
        }
        assertEquals("packages with no row in docs/architecture.md's 'Package dependencies' table",
                     Set.of(), unlisted);
        assertEquals("references the table in docs/architecture.md ('Package dependencies') does not allow; "
                             + "remove the dependency, or if it is meant, add it to the table first",
                     List.of(), leaks);
    }

    @Test
    public void referencesAreReadFromImportsAndCodeNotComments() {
        String src = "package org.srv6int.app.loop;\n"
                + "import org.srv6int.app.program.SidSteering;\n"
                + "import static org.srv6int.pipeconf.Srv6IntConstants.S0;\n"
                + "/** See {@link org.srv6int.app.rest.Api}. */\n"
                + "class X { Object o = new org.srv6int.k8s.bridge.Fabric8VnfReplicaManager(); // org.srv6int.gui.Y\n"
                + "}\n";
        assertEquals(new TreeSet<>(List.of("program", "pipeconf", "k8s.bridge")), references(src));
    }
}
