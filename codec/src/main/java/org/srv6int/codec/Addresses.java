// SPDX-License-Identifier: Apache-2.0
package org.srv6int.codec;

/**
 * Text forms of the addresses the codec handles (IPv6 in RFC 5952 form, IPv4
 * dotted quad, MAC with colons) and hex dumps. For tools, configuration and
 * tests: these allocate and are not meant for the packet path.
 */
public final class Addresses {

    private Addresses() {
    }

    /**
     * Parses an IPv6 address literal (no zone, no embedded IPv4).
     *
     * @param s text such as {@code fc00:0:1::1}
     * @return 16 bytes
     * @throws IllegalArgumentException if s is not an IPv6 literal
     */
    public static byte[] ipv6(String s) {
        if (s == null) {
            throw new IllegalArgumentException("null IPv6 address");
        }
        String[] halves = s.split("::", -1);
        if (halves.length > 2) {
            throw new IllegalArgumentException("bad IPv6 address: " + s);
        }
        int[] head = groups(halves[0], s);
        int[] tail = halves.length == 2 ? groups(halves[1], s) : new int[0];
        int n = head.length + tail.length;
        if ((halves.length == 1 && n != 8) || (halves.length == 2 && n > 7)) {
            throw new IllegalArgumentException("bad IPv6 address: " + s);
        }
        byte[] b = new byte[16];
        for (int i = 0; i < head.length; i++) {
            Bytes.put16(b, 2 * i, head[i]);
        }
        for (int i = 0; i < tail.length; i++) {
            Bytes.put16(b, 16 - 2 * (tail.length - i), tail[i]);
        }
        return b;
    }

    private static int[] groups(String part, String whole) {
        if (part.isEmpty()) {
            return new int[0];
        }
        String[] g = part.split(":", -1);
        int[] r = new int[g.length];
        for (int i = 0; i < g.length; i++) {
            if (g[i].isEmpty() || g[i].length() > 4) {
                throw new IllegalArgumentException("bad IPv6 address: " + whole);
            }
            try {
                r[i] = Integer.parseInt(g[i], 16);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("bad IPv6 address: " + whole, e);
            }
        }
        return r;
    }

    /**
     * Formats 16 bytes as an IPv6 address in RFC 5952 form.
     *
     * @param b   bytes
     * @param off first byte
     * @return text
     */
    public static String ipv6ToString(byte[] b, int off) {
        int[] g = new int[8];
        for (int i = 0; i < 8; i++) {
            g[i] = Bytes.get16(b, off + 2 * i);
        }
        int bestStart = -1;
        int bestLen = 1;
        for (int i = 0; i < 8;) {
            if (g[i] != 0) {
                i++;
                continue;
            }
            int j = i;
            while (j < 8 && g[j] == 0) {
                j++;
            }
            if (j - i > bestLen) {
                bestStart = i;
                bestLen = j - i;
            }
            i = j;
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                sb.append("::");
                i += bestLen - 1;
                continue;
            }
            if (sb.length() > 0 && sb.charAt(sb.length() - 1) != ':') {
                sb.append(':');
            }
            sb.append(Integer.toHexString(g[i]));
        }
        return sb.toString();
    }

    /**
     * Formats two longs (high, low 64 bits) as an IPv6 address.
     *
     * @param hi bits 0..63
     * @param lo bits 64..127
     * @return text
     */
    public static String ipv6ToString(long hi, long lo) {
        byte[] b = new byte[16];
        Bytes.put32(b, 0, hi >>> 32);
        Bytes.put32(b, 4, hi);
        Bytes.put32(b, 8, lo >>> 32);
        Bytes.put32(b, 12, lo);
        return ipv6ToString(b, 0);
    }

    /**
     * Parses a MAC address {@code aa:bb:cc:dd:ee:ff}.
     *
     * @param s text
     * @return MAC in the low 48 bits
     * @throws IllegalArgumentException if malformed
     */
    public static long mac(String s) {
        String[] p = s == null ? new String[0] : s.split(":", -1);
        if (p.length != 6) {
            throw new IllegalArgumentException("bad MAC address: " + s);
        }
        long v = 0;
        for (String x : p) {
            if (x.isEmpty() || x.length() > 2) {
                throw new IllegalArgumentException("bad MAC address: " + s);
            }
            try {
                v = (v << 8) | Integer.parseInt(x, 16);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("bad MAC address: " + s, e);
            }
        }
        return v;
    }

    /**
     * Formats a MAC address.
     *
     * @param mac low 48 bits
     * @return text with colons, lower case
     */
    public static String macToString(long mac) {
        StringBuilder sb = new StringBuilder(17);
        for (int i = 5; i >= 0; i--) {
            int v = (int) (mac >>> (8 * i)) & 0xFF;
            sb.append(Character.forDigit(v >>> 4, 16)).append(Character.forDigit(v & 0xF, 16));
            if (i > 0) {
                sb.append(':');
            }
        }
        return sb.toString();
    }

    /**
     * Parses a dotted-quad IPv4 address.
     *
     * @param s text
     * @return address as an unsigned int in a long
     * @throws IllegalArgumentException if malformed
     */
    public static long ipv4(String s) {
        String[] p = s == null ? new String[0] : s.split("\\.", -1);
        if (p.length != 4) {
            throw new IllegalArgumentException("bad IPv4 address: " + s);
        }
        long v = 0;
        for (String x : p) {
            int o;
            try {
                o = Integer.parseInt(x);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("bad IPv4 address: " + s, e);
            }
            if (o < 0 || o > 255 || x.isEmpty() || x.length() > 3) {
                throw new IllegalArgumentException("bad IPv4 address: " + s);
            }
            v = (v << 8) | o;
        }
        return v;
    }

    /**
     * Formats an IPv4 address.
     *
     * @param a unsigned int in a long
     * @return dotted quad
     */
    public static String ipv4ToString(long a) {
        return ((a >>> 24) & 0xFF) + "." + ((a >>> 16) & 0xFF) + "." + ((a >>> 8) & 0xFF) + "." + (a & 0xFF);
    }

    /**
     * Formats bytes as lower-case hex without separators.
     *
     * @param b   bytes
     * @param off first byte
     * @param len count
     * @return hex
     */
    public static String toHex(byte[] b, int off, int len) {
        StringBuilder sb = new StringBuilder(2 * len);
        for (int i = off; i < off + len; i++) {
            sb.append(Character.forDigit((b[i] >>> 4) & 0xF, 16)).append(Character.forDigit(b[i] & 0xF, 16));
        }
        return sb.toString();
    }

    /**
     * Parses hex, ignoring white space, colons and a leading {@code 0x}.
     *
     * @param s hex text
     * @return bytes
     * @throws IllegalArgumentException on an odd digit count or a non-hex character
     */
    public static byte[] fromHex(String s) {
        String t = s.trim();
        if (t.startsWith("0x") || t.startsWith("0X")) {
            t = t.substring(2);
        }
        t = t.replaceAll("[\\s:]", "");
        if (t.length() % 2 != 0) {
            throw new IllegalArgumentException("odd number of hex digits");
        }
        byte[] b = new byte[t.length() / 2];
        for (int i = 0; i < b.length; i++) {
            int h = Character.digit(t.charAt(2 * i), 16);
            int l = Character.digit(t.charAt(2 * i + 1), 16);
            if (h < 0 || l < 0) {
                throw new IllegalArgumentException("not a hex digit at " + (2 * i));
            }
            b[i] = (byte) ((h << 4) | l);
        }
        return b;
    }
}
