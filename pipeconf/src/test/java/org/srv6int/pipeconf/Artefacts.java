// SPDX-License-Identifier: Apache-2.0
package org.srv6int.pipeconf;

import com.google.protobuf.TextFormat;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import p4.config.v1.P4InfoOuterClass.P4Info;

/** Loads the committed compiler output for the tests. */
final class Artefacts {

    private Artefacts() {
    }

    static P4Info p4info() throws IOException {
        try (InputStream in = Artefacts.class.getResourceAsStream(Srv6IntPipeconfLoader.P4INFO_PATH)) {
            if (in == null) {
                throw new IOException(Srv6IntPipeconfLoader.P4INFO_PATH + " missing: run tools/p4-build");
            }
            P4Info.Builder b = P4Info.newBuilder();
            try (Reader r = new InputStreamReader(in, StandardCharsets.UTF_8)) {
                TextFormat.getParser().merge(r, b);
            }
            return b.build();
        }
    }

    /** The repository root (the module runs its tests in pipeconf/). */
    static Path repoRoot() {
        Path dir = Paths.get(System.getProperty("user.dir")).toAbsolutePath();
        while (dir != null && !Files.isDirectory(dir.resolve("p4src"))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new IllegalStateException("p4src/ not found above " + System.getProperty("user.dir"));
        }
        return dir;
    }

    static Path outDir() {
        return repoRoot().resolve("pipeconf/src/main/resources/p4c-out/bmv2");
    }
}
