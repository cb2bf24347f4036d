// SPDX-License-Identifier: Apache-2.0
package org.srv6int.pipeconf;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.Test;

/**
 * Fails when p4src/ changed since the committed artefacts were compiled
 * (tools/p4-build writes the fingerprint next to bmv2.json and p4info.txt).
 */
public class FingerprintTest {

    @Test
    public void committedArtefactsWereCompiledFromTheseSources() throws Exception {
        Path root = Artefacts.repoRoot();
        Path fp = Artefacts.outDir().resolve("fingerprint.sha256");
        assertTrue(fp + " missing: run tools/p4-build", Files.exists(fp));
        List<String> committed = Files.readAllLines(fp, StandardCharsets.UTF_8).stream()
                .filter(l -> !l.startsWith("#") && !l.isBlank())
                .collect(Collectors.toList());
        assertEquals("p4src/ changed since the last compile: run tools/p4-build and commit "
                + "pipeconf/src/main/resources/p4c-out/bmv2",
                String.join("\n", committed), String.join("\n", fingerprint(root)));
    }

    @Test
    public void artefactsArePresent() {
        assertTrue(Files.isRegularFile(Artefacts.outDir().resolve("bmv2.json")));
        assertTrue(Files.isRegularFile(Artefacts.outDir().resolve("p4info.txt")));
    }

    /** Same lines as tools/p4-build: "sha256  path", sorted by path (C locale). */
    static List<String> fingerprint(Path root) throws IOException, NoSuchAlgorithmException {
        List<String> paths;
        try (Stream<Path> s = Files.walk(root.resolve("p4src"))) {
            paths = s.filter(Files::isRegularFile)
                    .map(p -> root.relativize(p).toString().replace('\\', '/'))
                    .filter(p -> p.endsWith(".p4") && !p.startsWith("p4src/tests/"))
                    .sorted()
                    .collect(Collectors.toList());
        }
        List<String> lines = new ArrayList<>();
        for (String p : paths) {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(root.resolve(p)));
            StringBuilder hex = new StringBuilder();
            for (byte b : digest) {
                hex.append(String.format("%02x", b));
            }
            lines.add(hex + "  " + p);
        }
        return lines;
    }
}
