// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.report;

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** The report page from summary.json files on disk (the browser check is tests/ci.d/55-twin-report.sh). */
public class IndexPageTest {
    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    private static void summary(Path root, String name, String json) throws Exception {
        Files.createDirectories(root.resolve(name));
        Files.writeString(root.resolve(name).resolve("summary.json"), json);
    }

    @Test
    public void ourNumbersBesideThePapersUnderEachPolicy() throws Exception {
        Path root = tmp.newFolder("out").toPath();
        summary(root, "fig10", "{\"scenario\":\"fig10\",\"title\":\"Two-vNF chain\",\"seed\":3,\"policies\":{"
                + "\"ours\":{\"Fwd+Snort\":{\"violations\":[[0,1.2]],\"recovery_s\":1.2,\"max_p95_us\":213413,"
                + "\"final_replicas\":1,\"global_trigger_s\":null}},"
                + "\"none\":{\"Fwd+Snort\":{\"violations\":[[0,20]],\"recovery_s\":null,\"max_p95_us\":276983,"
                + "\"final_replicas\":1,\"global_trigger_s\":null}}},"
                + "\"settings\":{\"repeat\":1,\"dataplane\":\"emulated\"}}");
        String html = Files.readString(IndexPage.write(root, List.of("fig8", "fig10")));
        assertTrue(html, html.contains("<h2 id=\"fig10\">"));
        assertFalse("fig8 has no summary here", html.contains("id=\"fig8\""));
        assertTrue(html.contains(IndexPage.PAPER.get("fig10")));
        // ours: 1.2 s violated, below from 1.2 s, 213.4 ms; none: 20 s, never, 277.0 ms
        assertTrue(html, html.contains("<td class=\"l\">Fwd+Snort</td><td>1.2</td><td>1.2</td><td>213.4</td><td>1</td>"
                + "<td>&ndash;</td><td>20.0</td><td>never</td><td>277.0</td>"));
        assertTrue(html, html.contains("<b>Settings:</b> seed 3, repeat 1, dataplane emulated"));
        assertFalse("no image that is not there", html.contains("<img"));
    }

    @Test
    public void anotherScenarioIsShownEscapedWithoutAPaperClaim() throws Exception {
        Path root = tmp.newFolder("out2").toPath();
        summary(root, "scale", "{\"title\":\"a <big> & wide one\",\"seed\":1,\"policies\":{}}");
        Files.createFile(root.resolve("scale").resolve("scale.png"));
        String html = Files.readString(IndexPage.write(root, List.of("scale")));
        assertTrue(html, html.contains("a &lt;big&gt; &amp; wide one"));
        assertTrue(html, html.contains("not a figure of the paper"));
        assertTrue(html, html.contains("<img src=\"scale/scale.png\""));
    }
}
