// SPDX-License-Identifier: Apache-2.0
package org.srv6int.testkit;

import org.onosproject.cfg.ConfigProperty;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a {@code .cfgdef} resource as onos-maven-plugin writes it: one property a line,
 * {@code name|TYPE|default|description}, {@code #} comments.
 */
final class ConfigPropertyDefinitions {

    private ConfigPropertyDefinitions() {
    }

    static List<ConfigProperty> read(InputStream in) throws IOException {
        List<ConfigProperty> out = new ArrayList<>();
        BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        for (String line = r.readLine(); line != null; line = r.readLine()) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\\|", 4);
            if (f.length < 4) {
                throw new IOException("bad cfgdef line: " + line);
            }
            out.add(ConfigProperty.defineProperty(f[0], ConfigProperty.Type.valueOf(f[1]), f[2], f[3]));
        }
        return out;
    }
}
