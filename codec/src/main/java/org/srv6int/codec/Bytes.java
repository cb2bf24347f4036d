package org.srv6int.codec;

/**
 * Big-endian writes into byte arrays, shared by the encoders.
 */
final class Bytes {

    private Bytes() {
    }

    static void put8(byte[] b, int i, int v) {
        b[i] = (byte) v;
    }

    static void put16(byte[] b, int i, int v) {
        b[i] = (byte) (v >>> 8);
        b[i + 1] = (byte) v;
    }

    static void put24(byte[] b, int i, int v) {
        b[i] = (byte) (v >>> 16);
        b[i + 1] = (byte) (v >>> 8);
        b[i + 2] = (byte) v;
    }

    static void put32(byte[] b, int i, long v) {
        b[i] = (byte) (v >>> 24);
        b[i + 1] = (byte) (v >>> 16);
        b[i + 2] = (byte) (v >>> 8);
        b[i + 3] = (byte) v;
    }

    static void put48(byte[] b, int i, long v) {
        put16(b, i, (int) (v >>> 32));
        put32(b, i + 2, v);
    }

    static int get8(byte[] b, int i) {
        return b[i] & 0xFF;
    }

    static int get16(byte[] b, int i) {
        return ((b[i] & 0xFF) << 8) | (b[i + 1] & 0xFF);
    }

    static long get32(byte[] b, int i) {
        return ((long) get16(b, i) << 16) | get16(b, i + 2);
    }

    /** One's-complement sum of 16-bit words, not folded. */
    static long sum16(byte[] b, int off, int len) {
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

    /** Folds a one's-complement sum and complements it (Internet checksum). */
    static int fold(long sum) {
        long s = sum;
        while ((s >>> 16) != 0) {
            s = (s & 0xFFFF) + (s >>> 16);
        }
        return (int) (~s & 0xFFFF);
    }
}
