// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.actuate;

import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.srv6int.agent.FakeHost;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

public class LlcActuatorTest {

    @Rule
    public TemporaryFolder tmp = new TemporaryFolder();

    private long mask(FakeHost h, String group) {
        String line = h.read("/sys/fs/resctrl/" + group + "/schemata");
        String first = line.substring(line.indexOf('=') + 1, line.indexOf(';'));
        return Long.parseLong(first, 16);
    }

    @Test
    public void masksStayContiguousAndDisjointAsAllocationsMove() throws IOException {
        FakeHost h = new FakeHost(tmp.getRoot().toPath()).resctrl("g0", "g1", "g2");
        Resctrl r = new Resctrl(new HostFiles(h.root()));
        List<Path> groups = new ArrayList<>();
        for (String g : new String[] {"g0", "g1", "g2"}) {
            groups.add(r.group(g));
        }
        LlcActuator a = new LlcActuator(r, groups);
        assertEquals(20, a.totalWays());
        long[] alloc = {4, 6, 3};
        for (int i = 0; i < 3; i++) {
            a.read(i);
        }
        for (int i = 0; i < 3; i++) {
            a.write(i, alloc[i], alloc);
        }
        assertEquals(0xfL, mask(h, "g0"));
        assertEquals(0x3f0L, mask(h, "g1"));
        assertEquals(0x1c00L, mask(h, "g2"));
        int[][] moves = {{0, 5}, {1, 2}, {2, 9}, {0, 1}, {1, 10}};
        for (int[] m : moves) {
            alloc[m[0]] = m[1];
            a.write(m[0], m[1], alloc);
            long seen = 0;
            for (int g = 0; g < 3; g++) {
                long mk = mask(h, "g" + g);
                long shifted = mk >>> Long.numberOfTrailingZeros(mk);
                assertTrue("contiguous", (shifted & (shifted + 1)) == 0);
                assertEquals(alloc[g], Long.bitCount(mk));
                assertEquals("disjoint", 0, seen & mk);
                assertEquals("inside cbm_mask", 0, mk & ~0xfffffL);
                seen |= mk;
            }
        }
    }

    @Test
    public void rejectsANonContiguousCbmMask() throws IOException {
        FakeHost h = new FakeHost(tmp.getRoot().toPath()).resctrl();
        h.file("/sys/fs/resctrl/info/L3/cbm_mask", "f0f");
        try {
            new LlcActuator(new Resctrl(new HostFiles(h.root())), List.of());
            fail();
        } catch (IOException e) {
            assertTrue(e.getMessage().contains("contiguous"));
        }
    }

    @Test
    public void schemataLinesParseWithKernelPaddingAndFormatAllDomains() throws IOException {
        FakeHost h = new FakeHost(tmp.getRoot().toPath());
        h.file("/s", "L3CODE:0=ff;1=ff\nL3DATA:0=ff;1=ff\n    MB:0=70;1=90");
        assertEquals("{0=70, 1=90}", Resctrl.readLine(h.path("/s"), "MB").toString());
        assertEquals("MB:0=30;1=30", Resctrl.formatLine("MB", List.of(0, 1), "30"));
        try {
            Resctrl.readLine(h.path("/s"), "L3");
            fail();
        } catch (IOException e) {
            assertTrue(e.getMessage().contains("no L3 line"));
        }
    }

    @Test
    public void cpuListRoundTrips() {
        assertEquals("0-3,8,10-11", CpuList.format(CpuList.parse("0-3,8,10-11")));
        assertEquals("", CpuList.format(CpuList.parse("")));
        assertEquals("0-9,20-29", CpuList.format(CpuList.parse("0-9,20-29\n")));
        try {
            CpuList.parse("3-1");
            fail();
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage().contains("3-1"));
        }
    }
}
