// SPDX-License-Identifier: Apache-2.0
package org.srv6int.codec;

/**
 * Big-endian reads and writes of unsigned fields in byte arrays and the Internet
 * checksum, shared by the encoders, the behaviours and the twin's emulated switches.
 * No bounds checks beyond the array's own: callers validate offsets first.
 */
public final class Bytes {

    private Bytes() {
    }

    /**
     * Writes 8 bits.
     *
     * @param b array
     * @param i offset
     * @param v value (low 8 bits)
     */
    public static void put8(byte[] b, int i, int v) {
        b[i] = (byte) v;
    }

    /**
     * Writes 16 bits, big-endian.
     *
     * @param b array
     * @param i offset
     * @param v value (low 16 bits)
     */
    public static void put16(byte[] b, int i, int v) {
        b[i] = (byte) (v >>> 8);
        b[i + 1] = (byte) v;
    }

    /**
     * Writes 24 bits, big-endian.
     *
     * @param b array
     * @param i offset
     * @param v value (low 24 bits)
     */
    public static void put24(byte[] b, int i, int v) {
        b[i] = (byte) (v >>> 16);
        b[i + 1] = (byte) (v >>> 8);
        b[i + 2] = (byte) v;
    }

    /**
     * Writes 32 bits, big-endian.
     *
     * @param b array
     * @param i offset
     * @param v value (low 32 bits)
     */
    public static void put32(byte[] b, int i, long v) {
        b[i] = (byte) (v >>> 24);
        b[i + 1] = (byte) (v >>> 16);
        b[i + 2] = (byte) (v >>> 8);
        b[i + 3] = (byte) v;
    }

    /**
     * Writes 48 bits (a MAC address), big-endian.
     *
     * @param b array
     * @param i offset
     * @param v value (low 48 bits)
     */
    public static void put48(byte[] b, int i, long v) {
        put16(b, i, (int) (v >>> 32));
        put32(b, i + 2, v);
    }

    /**
     * Reads 8 bits.
     *
     * @param b array
     * @param i offset
     * @return 0..255
     */
    public static int get8(byte[] b, int i) {
        return b[i] & 0xFF;
    }

    /**
     * Reads 16 bits, big-endian.
     *
     * @param b array
     * @param i offset
     * @return 0..65535
     */
    public static int get16(byte[] b, int i) {
        return ((b[i] & 0xFF) << 8) | (b[i + 1] & 0xFF);
    }

    /**
     * Reads 32 bits, big-endian.
     *
     * @param b array
     * @param i offset
     * @return unsigned value
     */
    public static long get32(byte[] b, int i) {
        return ((long) get16(b, i) << 16) | get16(b, i + 2);
    }

    /**
     * Reads 48 bits (a MAC address), big-endian.
     *
     * @param b array
     * @param i offset
     * @return unsigned value
     */
    public static long get48(byte[] b, int i) {
        return ((long) get16(b, i) << 32) | get32(b, i + 2);
    }

    /**
     * Reads 64 bits (half an IPv6 address), big-endian.
     *
     * @param b array
     * @param i offset
     * @return the bits as a long
     */
    public static long get64(byte[] b, int i) {
        return (get32(b, i) << 32) | get32(b, i + 4);
    }

    /**
     * One's-complement sum of 16-bit words, not folded; an odd last byte is padded with 0.
     *
     * @param b   array
     * @param off first byte
     * @param len bytes
     * @return sum, add several before {@link #fold}
     */
    public static long sum16(byte[] b, int off, int len) {
        long s = 0;
        int i = off;
        int end = off + len;
        for (; i + 1 < end; i += 2) {
            s += get16(b, i);
        }
        if (i < end) {
            s += (b[i] & 0xFF) << 8;
        }
        return s;
    }

    /**
     * Folds a one's-complement sum and complements it (Internet checksum).
     *
     * @param sum from {@link #sum16}, possibly several added
     * @return checksum
     */
    public static int fold(long sum) {
        long s = sum;
        while ((s >>> 16) != 0) {
            s = (s & 0xFFFF) + (s >>> 16);
        }
        return (int) (~s & 0xFFFF);
    }
}
