// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.actuate;

import java.util.BitSet;

/**
 * The kernel's cpu list format ("0-3,8,10-11"), as in cpuset.cpus and
 * /sys/devices/system/node/node*&#47;cpulist.
 */
public final class CpuList {

    private CpuList() {
    }

    /**
     * Parses a cpu list.
     *
     * @param s list, may be empty
     * @return set of cpu numbers
     * @throws IllegalArgumentException on a malformed list
     */
    public static BitSet parse(String s) {
        BitSet cpus = new BitSet();
        String trimmed = s.trim();
        if (trimmed.isEmpty()) {
            return cpus;
        }
        for (String part : trimmed.split(",")) {
            String p = part.trim();
            int dash = p.indexOf('-');
            try {
                if (dash < 0) {
                    cpus.set(Integer.parseInt(p));
                } else {
                    int lo = Integer.parseInt(p.substring(0, dash));
                    int hi = Integer.parseInt(p.substring(dash + 1));
                    if (hi < lo || lo < 0) {
                        throw new IllegalArgumentException("bad cpu range '" + p + "' in '" + s + "'");
                    }
                    cpus.set(lo, hi + 1);
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("bad cpu list '" + s + "'", e);
            }
        }
        return cpus;
    }

    /**
     * Formats a cpu set as the kernel does (ranges, ascending).
     *
     * @param cpus set
     * @return list, empty for an empty set
     */
    public static String format(BitSet cpus) {
        StringBuilder sb = new StringBuilder();
        int i = cpus.nextSetBit(0);
        while (i >= 0) {
            int end = cpus.nextClearBit(i) - 1;
            if (sb.length() > 0) {
                sb.append(',');
            }
            sb.append(i);
            if (end > i) {
                sb.append('-').append(end);
            }
            i = cpus.nextSetBit(end + 1);
        }
        return sb.toString();
    }
}
