// SPDX-License-Identifier: Apache-2.0
package org.srv6int.codec.tool;

import org.junit.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * The committed golden vectors are exactly what the generator produces today:
 * regenerate in memory and compare byte for byte, so they can never drift.
 */
public class VectorFilesTest {

    /** tests/vectors, from the codec module's directory (where surefire runs). */
    static Path vectorsDir() {
        Path p = Paths.get("../tests/vectors");
        return Files.isDirectory(p) ? p : Paths.get("tests/vectors");
    }

    @Test
    public void committedVectorsMatchGenerator() throws IOException {
        Map<String, String> expected = VectorGenerator.files();
        Path dir = vectorsDir();
        for (Map.Entry<String, String> e : expected.entrySet()) {
            Path f = dir.resolve(e.getKey());
            assertTrue("missing " + f + ": run VectorGenerator", Files.exists(f));
            String actual = new String(Files.readAllBytes(f), StandardCharsets.UTF_8);
            assertEquals("vector " + e.getKey() + " drifted from the generator; regenerate with "
                    + "java -cp codec/target/classes " + VectorGenerator.class.getName(), e.getValue(), actual);
        }
        Set<String> present;
        try (Stream<Path> s = Files.list(dir)) {
            present = s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".json"))
                    .collect(Collectors.toCollection(TreeSet::new));
        }
        assertEquals("stale vector files", new TreeSet<>(expected.keySet()), present);
    }

    @Test
    public void everyVectorDecodesAndItsJsonParses() {
        for (VectorGenerator.Vector v : VectorGenerator.generate()) {
            byte[] b = v.bytes();
            Map<String, Object> d = PacketJson.decodeFrame(b, 0, b.length);
            assertTrue(v.name() + ": " + d, !d.containsKey(PacketJson.ERROR));
            assertEquals(Json.write(d), Json.write(Json.parse(Json.write(d))));
        }
    }
}
