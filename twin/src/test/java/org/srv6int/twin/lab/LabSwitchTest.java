// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.lab;

import static org.junit.Assert.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.Test;
import org.onosproject.net.PortNumber;
import org.srv6int.codec.Addresses;
import org.srv6int.codec.DecodeStatus;
import org.srv6int.codec.Srv6IntPacketView;
import org.srv6int.twin.dataplane.Dataplane;
import org.srv6int.twin.dataplane.DropReason;
import org.srv6int.twin.dataplane.EmulatedDataplane;

/**
 * The lab switch's program on the emulated switch (what {@link LabSwitch} runs between veths),
 * with the golden frame SW1 sends on the SFC path, and the lab report's measures.
 */
public class LabSwitchTest {

    private static byte[] vector(String name) throws Exception {
        Path p = Paths.get("").toAbsolutePath();
        while (!Files.isDirectory(p.resolve("tests/vectors"))) {
            p = p.getParent();
        }
        return Addresses.fromHex(new ObjectMapper().readTree(p.resolve("tests/vectors/" + name + ".json").toFile())
                .get("hex").asText());
    }

    /** To the vNF with the previous latency as Detection Result, back, on to the next switch. */
    @Test
    public void sendsToTheVnfMeasuresItAndRoutesOn() throws Exception {
        EmulatedDataplane dp = new EmulatedDataplane(List.of());
        LabProgram.Entries e = LabProgram.sw2(Map.of(1, "fc00:0:2::f1@3"));
        dp.program(LabSwitch.DEVICE, e.rules, e.groups);
        byte[] in = vector("sfc-1-sw1-encap");
        long t = 5_000_000L;
        List<Long> detections = new ArrayList<>();
        for (int k = 0; k < 2; k++) {
            List<Dataplane.Frame> toVnf = dp.inject(LabSwitch.DEVICE, PortNumber.portNumber(1), in, t);
            assertEquals(1, toVnf.size());
            assertEquals(PortNumber.portNumber(3), toVnf.get(0).port());
            Srv6IntPacketView v = new Srv6IntPacketView();
            byte[] f = toVnf.get(0).bytes();
            assertEquals(DecodeStatus.OK, v.wrap(f, 0, f.length));
            detections.add(v.detectionResult());
            List<Dataplane.Frame> back = dp.inject(LabSwitch.DEVICE, PortNumber.portNumber(3), f, t + 70_000 + k);
            assertEquals(1, back.size());
            assertEquals(PortNumber.portNumber(LabProgram.DOWNSTREAM), back.get(0).port());
            assertEquals(70_000 + k, dp.vnfLatency(LabSwitch.DEVICE, 1));
            t += 1_000_000;
        }
        // The second packet to the vNF carries the latency the first one measured.
        assertEquals(70_000L, (long) detections.get(1));
        for (DropReason r : DropReason.values()) {
            assertEquals(r.toString(), 0, dp.drops(LabSwitch.DEVICE, r));
        }
    }

    @Test
    public void percentileIsTheAgentsNearestRank() {
        long[] s = new long[100];
        for (int i = 0; i < 100; i++) {
            s[i] = i + 1;
        }
        assertEquals(95, LabSwitch.pct(s, 0.95), 0);
        assertEquals(0, LabSwitch.pct(new long[0], 0.95), 0);
    }

    private static List<LabReport.Bin> bins(double... p95) {
        List<LabReport.Bin> out = new ArrayList<>();
        for (int i = 0; i < p95.length; i++) {
            out.add(new LabReport.Bin(i * 0.1, 1, 10, p95[i] < 0 ? 0 : 10, Math.max(0, p95[i]), 0.5));
        }
        return out;
    }

    @Test
    public void violationsBackUnderAndCpuHeld() {
        double[] p = new double[30];
        for (int i = 0; i < 30; i++) {
            p[i] = i >= 5 && i < 12 ? 50 : 5;
        }
        p[8] = -1; // frames went to the vNF and none came back: over the bound too
        List<LabReport.Bin> b = bins(p);
        assertEquals(0.7, LabReport.violationS(b, 20, 0), 1e-9);
        assertEquals(0.7, LabReport.backUnderS(b, 20, 0.5), 1e-9);
        assertEquals(1.5, LabReport.cpuHeldS(b), 1e-9);
        // Never pushed over: 0; over to the end: -1.
        assertEquals(0, LabReport.backUnderS(bins(5, 5, 5), 20, 0), 1e-9);
        assertEquals(-1, LabReport.backUnderS(bins(5, 50, 5, 5), 20, 0), 1e-9);
    }
}
