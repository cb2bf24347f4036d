// SPDX-License-Identifier: Apache-2.0
package org.srv6int.codec.tool;

import java.util.Arrays;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.srv6int.codec.Addresses;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/** srv6int-decode and srv6int-pcap, run in-process on the committed vectors. */
public class ToolsTest {

    @Rule
    public TemporaryFolder tmp = new TemporaryFolder();

    private static String run(int expectedStatus, String... args) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(b, true);
        assertEquals(expectedStatus, DecodeTool.run(args, out));
        return new String(b.toByteArray(), StandardCharsets.UTF_8);
    }

    @Test
    @SuppressWarnings("unchecked")
    public void decodeHexPrintsTheVectorsDecodedObject() throws IOException {
        for (VectorGenerator.Vector v : VectorGenerator.generate()) {
            byte[] b = v.bytes();
            String json = run(0, "--hex", Addresses.toHex(b, 0, b.length));
            Path f = VectorFilesTest.vectorsDir().resolve(v.name() + ".json");
            Map<String, Object> committed = (Map<String, Object>) Json.parse(
                    new String(Files.readAllBytes(f), StandardCharsets.UTF_8));
            assertEquals(v.name(), Json.write(committed.get("decoded")), json);
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    public void decodeErrorsAreJsonWithReason() {
        String s = run(1, "--hex", "02000000000202000000000186dd6000");
        assertEquals("TRUNCATED_IPV6", ((Map<String, Object>) Json.parse(s)).get("error"));
        s = run(1, "--hex", "00112233", "--payload");
        assertEquals("TRUNCATED_REPORT_HEADER", ((Map<String, Object>) Json.parse(s)).get("error"));
        run(2, "--hex", "zz");
        run(2, "--pcap");
        run(2);
        run(2, "--pcap", tmp.getRoot().toPath().resolve("missing.pcap").toString());
    }

    @Test
    @SuppressWarnings("unchecked")
    public void pcapRoundTripsTheVectorSet() throws IOException {
        Path pcap = tmp.getRoot().toPath().resolve("v.pcap");
        assertEquals(0, PcapTool.run(new String[] {VectorFilesTest.vectorsDir().toString(), pcap.toString()}));
        List<byte[]> frames = Pcap.read(Files.readAllBytes(pcap));
        List<VectorGenerator.Vector> vs = VectorGenerator.generate();
        assertEquals(vs.size(), frames.size());
        for (int i = 0; i < vs.size(); i++) {
            assertArrayEquals(vs.get(i).bytes(), frames.get(i));
        }
        List<Object> decoded = (List<Object>) Json.parse(run(0, "--pcap", pcap.toString()));
        assertEquals(vs.size(), decoded.size());
        // One vector file alone, and a broken pcap.
        Path one = VectorFilesTest.vectorsDir().resolve("sfc-7-sw4-report.json");
        assertEquals(0, PcapTool.run(new String[] {one.toString(), pcap.toString()}));
        assertEquals(1, Pcap.read(Files.readAllBytes(pcap)).size());
        byte[] cut = Files.readAllBytes(pcap);
        Files.write(pcap, Arrays.copyOf(cut, cut.length - 1));
        run(2, "--pcap", pcap.toString());
        assertEquals(1, PcapTool.run(new String[] {tmp.newFile("bad.json").toString(), pcap.toString()}));
        assertEquals(2, PcapTool.run(new String[0]));
        List<byte[]> none = new ArrayList<>();
        assertTrue(Pcap.read(Pcap.write(none)).isEmpty());
    }
}
