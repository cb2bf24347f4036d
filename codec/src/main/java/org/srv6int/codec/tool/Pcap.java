// SPDX-License-Identifier: Apache-2.0
package org.srv6int.codec.tool;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * Classic libpcap files with link type 1 (Ethernet): writing (microsecond
 * timestamps, little-endian) and reading (either byte order, micro- or
 * nanosecond magic).
 */
public final class Pcap {

    /** Link type of Ethernet frames. */
    public static final int LINKTYPE_ETHERNET = 1;
    private static final int MAGIC_US = 0xA1B2C3D4;
    private static final int MAGIC_NS = 0xA1B23C4D;
    private static final int SNAPLEN = 65535;

    private Pcap() {
    }

    /**
     * Serialises frames into a pcap file image; frame i gets timestamp
     * {@code i} seconds (deterministic output).
     *
     * @param frames Ethernet frames
     * @return file bytes
     */
    public static byte[] write(List<byte[]> frames) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteBuffer h = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
        h.putInt(MAGIC_US).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0)
                .putInt(SNAPLEN).putInt(LINKTYPE_ETHERNET);
        out.write(h.array(), 0, 24);
        int i = 0;
        for (byte[] f : frames) {
            ByteBuffer r = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
            r.putInt(i++).putInt(0).putInt(f.length).putInt(f.length);
            out.write(r.array(), 0, 16);
            out.write(f, 0, f.length);
        }
        return out.toByteArray();
    }

    /**
     * Parses a pcap file image.
     *
     * @param file file bytes
     * @return the captured bytes of every record, in order
     * @throws IOException if the file is not a classic pcap of Ethernet frames, or is cut short
     */
    public static List<byte[]> read(byte[] file) throws IOException {
        if (file.length < 24) {
            throw new IOException("not a pcap file: shorter than its 24-byte header");
        }
        ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        int magic = b.getInt(0);
        if (magic != MAGIC_US && magic != MAGIC_NS) {
            b.order(ByteOrder.BIG_ENDIAN);
            magic = b.getInt(0);
            if (magic != MAGIC_US && magic != MAGIC_NS) {
                throw new IOException("not a classic pcap file (pcapng is not supported)");
            }
        }
        int link = b.getInt(20);
        if (link != LINKTYPE_ETHERNET) {
            throw new IOException("pcap link type " + link + " is not Ethernet (1)");
        }
        List<byte[]> frames = new ArrayList<>();
        int p = 24;
        while (p < file.length) {
            if (file.length - p < 16) {
                throw new IOException("pcap record header cut short at offset " + p);
            }
            long incl = b.getInt(p + 8) & 0xFFFFFFFFL;
            if (incl > file.length - p - 16) {
                throw new IOException("pcap record at offset " + p + " runs past the end of the file");
            }
            byte[] f = new byte[(int) incl];
            System.arraycopy(file, p + 16, f, 0, f.length);
            frames.add(f);
            p += 16 + (int) incl;
        }
        return frames;
    }
}
