// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import org.srv6int.codec.EndpointBehaviours;
import org.srv6int.codec.Srv6IntEncap;
import org.srv6int.agent.actuate.HostFiles;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A replayable scenario: a fake worker tree, a config for two vNFs on it and
 * a pcap of SRv6-INT frames made with the codec's own encoders (H.Encaps.INT
 * then End.T.INT's departure to the vNF, which stamps Detection Result), plus
 * noise the agent must count and survive. Used by NodeAgentTest and, through
 * {@link #main}, by tests/ci.d/40-agent.sh against the packaged jar.
 *
 * <p>Script (N = 1500, Lmax 1 ms for both): in each of 8 rounds vNF "fwd"
 * sends a window whose L95 is 2 ms - 10 µs per round (over its bound but
 * falling, so T stays CPU quota) and vNF "snort" one with L95 = 100 µs
 * (slack), except round 8 where snort's L95 is 1.5 ms (breaks its bound right
 * after a free). Algorithm 1-3 then prescribe: fwd +100 millicores each round
 * (1000 to 1800, from the free pool); snort frees 100 in rounds 1, 3, 5, 7 (on
 * trial) kept in rounds 2, 4, 6, and reverted in round 8 (T[snort] := LLC):
 * 1000 to 700.
 */
public final class ReplayFixture {

    /** Frames per class of noise. */
    public static final int UNKNOWN = 20;
    /** SRv6-INT without the SFC flag. */
    public static final int NOT_SFC = 10;
    /** Detection Result 0. */
    public static final int NO_MEASUREMENT = 5;
    /** Pass the BPF filter but fail the codec. */
    public static final int MALFORMED = 7;
    /** Rounds of one window per vNF. */
    public static final int ROUNDS = 8;
    /** Window size. */
    public static final int N = 1500;

    static final byte[] FWD_SID = sid(0x10);
    static final byte[] SNORT_SID = sid(0x11);

    private ReplayFixture() {
    }

    private static byte[] sid(int last) {
        byte[] s = new byte[16];
        s[0] = (byte) 0xfc;
        s[3] = 0x02;
        s[15] = (byte) last;
        return s;
    }

    private static byte[] inner() {
        byte[] p = new byte[28 + 64];
        p[0] = 0x45;
        p[2] = (byte) (p.length >> 8);
        p[3] = (byte) p.length;
        p[8] = 64;
        p[9] = 17;
        p[12] = 10;
        p[15] = 1;
        p[16] = 10;
        p[19] = 2;
        p[21] = 0x35;
        p[23] = 0x50;
        p[25] = (byte) (p.length - 20);
        return p;
    }

    /**
     * An SRv6-INT frame as the vNF server's switch sends it to the vNF.
     *
     * @param vnfSid active segment (the vNF replica's SID)
     * @param tag chain id
     * @param sfc S flag
     * @param detectionNs Detection Result
     * @return frame
     */
    public static byte[] frame(byte[] vnfSid, int tag, boolean sfc, long detectionNs) {
        Srv6IntEncap encap = Srv6IntEncap.builder().ingressSid(sid(0x01)).path(List.of(vnfSid, sid(0x99)))
                .tag(tag).sfcMode(sfc).build();
        byte[] f = encap.encapsulate(inner(), 0x020000000002L, 0x020000000001L, null);
        if (sfc) {
            if (new EndpointBehaviours().sfcDepart(f, 0, f.length, 2, 1000, 2000,
                    detectionNs) != org.srv6int.codec.BehaviourStatus.OK) {
                throw new IllegalStateException("sfcDepart failed");
            }
        }
        return f;
    }

    /**
     * Frames of the scripted scenario, noise interleaved.
     *
     * @return frames in capture order
     */
    public static List<byte[]> frames() {
        List<byte[]> out = new ArrayList<>();
        int noise = 0;
        for (int r = 1; r <= ROUNDS; r++) {
            long fwdLevel = 2_000_000 - 10_000L * r;
            long snortLevel = r == ROUNDS ? 1_500_000 : 100_000;
            for (int k = 0; k < N; k++) {
                out.add(frame(FWD_SID, 1, true, sample(fwdLevel, k)));
                out.add(frame(SNORT_SID, 2, true, sample(snortLevel, k)));
                if (k % 200 == 0 && noise < 8) {
                    noise++;
                    addNoise(out, noise);
                }
            }
        }
        return out;
    }

    private static long sample(long level, int k) {
        return k % 20 == 0 ? 2 * level : level - (k % 7) * 100;
    }

    private static void addNoise(List<byte[]> out, int batch) {
        if (batch == 1) {
            for (int i = 0; i < UNKNOWN; i++) {
                out.add(frame(sid(0x55), 9, true, 123_456));
            }
        } else if (batch == 2) {
            for (int i = 0; i < NOT_SFC; i++) {
                out.add(frame(FWD_SID, 1, false, 0));
            }
        } else if (batch == 3) {
            for (int i = 0; i < NO_MEASUREMENT; i++) {
                out.add(frame(SNORT_SID, 2, true, 0));
            }
        } else if (batch == 4) {
            for (int i = 0; i < MALFORMED; i++) {
                byte[] f = frame(FWD_SID, 1, true, 999);
                f[14 + 40 + 1] = (byte) 200; // Hdr Ext Len past the frame: routing type still 4
                out.add(f);
            }
        } else if (batch == 5) {
            byte[] v4 = new byte[14 + 92];
            v4[12] = 0x08;
            System.arraycopy(inner(), 0, v4, 14, 92);
            for (int i = 0; i < 10; i++) {
                out.add(v4);
            }
        } else if (batch == 6) {
            byte[] f = frame(FWD_SID, 1, true, 777);
            f[14 + 6] = 17; // IPv6 Next Header UDP: the BPF filter drops it
            for (int i = 0; i < 10; i++) {
                out.add(f);
            }
        }
    }

    /**
     * Writes a classic pcap file (microsecond timestamps, Ethernet link type).
     *
     * @param file destination
     * @param frames frames
     * @throws IOException on write errors
     */
    public static void writePcap(Path file, List<byte[]> frames) throws IOException {
        try (OutputStream os = Files.newOutputStream(file)) {
            ByteBuffer h = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
            h.putInt(0xa1b2c3d4).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0).putInt(65535).putInt(1);
            os.write(h.array());
            long usec = 0;
            for (byte[] f : frames) {
                ByteBuffer r = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
                r.putInt((int) (1_700_000_000L + usec / 1_000_000)).putInt((int) (usec % 1_000_000))
                        .putInt(f.length).putInt(f.length);
                os.write(r.array());
                os.write(f);
                usec += 7;
            }
        }
    }

    /**
     * Builds the fake host, config and pcap under dir.
     *
     * @param dir empty directory
     * @param metricsAddress where the agent serves metrics
     * @return the config file; the pcap is dir/replay.pcap, the decision log dir/decisions.jsonl
     * @throws IOException on write errors
     */
    public static Path build(Path dir, String metricsAddress) throws IOException {
        Path root = dir.resolve("host");
        FakeHost.worker(root);
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("node", "worker1");
        c.put("iface", "eth1");
        c.put("hostRoot", root.toString());
        c.put("metricsAddress", metricsAddress);
        c.put("decisionLog", dir.resolve("decisions.jsonl").toString());
        c.put("trialTimeoutMs", 60_000);
        // the listing's one step per window: the scripted latencies do not answer the allocations, so a
        // raise in proportion to the overshoot would only reach the ceiling sooner (RaiseTest covers it)
        c.put("maxRaiseSteps", 1);
        c.put("vnfs", List.of(
                vnf("fwd", "fc00:2::10", 1, FakeHost.UID_A, "containerd://" + FakeHost.ID_A, "2-3"),
                vnf("snort", "fc00:2::11", 2, FakeHost.UID_B, FakeHost.ID_B, "4-5")));
        Path config = dir.resolve("agent.json");
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(config.toFile(), c);
        writePcap(dir.resolve("replay.pcap"), frames());
        return config;
    }

    private static Map<String, Object> vnf(String name, String sid, int chain, String uid, String id, String cpus) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("name", name);
        v.put("sid", sid);
        v.put("chainId", chain);
        v.put("vnfIndex", 1);
        v.put("lmaxNs", 1_000_000);
        v.put("podUid", uid);
        v.put("containerId", id);
        v.put("cpus", cpus);
        v.put("initial", Map.of("CPU_QUOTA", 1000));
        return v;
    }

    /**
     * Reads cpu.max of a scenario's vNF as millicores (for scripts).
     *
     * @param root host root
     * @param systemd driver of the vNF
     * @param uid pod uid
     * @param id container id
     * @return content of cpu.max
     * @throws IOException if unreadable
     */
    static String cpuMax(Path root, boolean systemd, String uid, String id) throws IOException {
        return HostFiles.read(root.resolve("sys/fs/cgroup/" + FakeHost.containerCgroup(systemd, uid, id) + "/cpu.max"));
    }

    /**
     * Builds a scenario for a script: {@code ReplayFixture <dir> <metricsAddress>}; prints the
     * paths of the two vNFs' cpu.max files.
     *
     * @param args directory and metrics address
     * @throws IOException on write errors
     */
    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0]);
        Files.createDirectories(dir);
        build(dir, args.length > 1 ? args[1] : "127.0.0.1:9464");
        Path root = dir.resolve("host/sys/fs/cgroup");
        System.out.println(root.resolve(FakeHost.containerCgroup(true, FakeHost.UID_A, FakeHost.ID_A)
                + "/cpu.max"));
        System.out.println(root.resolve(FakeHost.containerCgroup(false, FakeHost.UID_B, FakeHost.ID_B)
                + "/cpu.max"));
    }
}
