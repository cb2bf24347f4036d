// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.actuate;

import org.srv6int.agent.loop.ResourceActuator;
import org.srv6int.agent.loop.ResourceType;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * LLC ways through one resctrl group per vNF: allocation = number of ways,
 * laid out as contiguous, non-overlapping capacity bitmasks in vNF order
 * from the lowest way of {@code info/L3/cbm_mask} ({@code L3:<d>=<cbm>} for
 * every cache domain of the group). A change of one vNF shifts the masks of
 * the vNFs after it; the writes go in the order that never makes two masks
 * overlap when the budget is respected (downwards when growing, upwards when
 * shrinking). Each schemata write is one line, so a crash leaves each group
 * with a valid contiguous mask of at least min_cbm_bits ways; at worst two
 * groups share ways until the start-up re-layout.
 */
public final class LlcActuator implements ResourceActuator {

    private final List<Path> groups;
    private final long cbmMask;
    private final int lowestBit;
    private final int totalWays;
    private final int minBits;
    private final long[] written;

    /**
     * Creates the actuator; reads info/L3.
     *
     * @param resctrl the resctrl mount
     * @param groups group directory per vNF
     * @throws IOException if info/L3 is unreadable or the mask is not contiguous
     */
    public LlcActuator(Resctrl resctrl, List<Path> groups) throws IOException {
        this.groups = List.copyOf(groups);
        String mask = HostFiles.read(resctrl.info("L3/cbm_mask"));
        try {
            this.cbmMask = Long.parseLong(mask, 16);
        } catch (NumberFormatException e) {
            throw new IOException("resctrl info/L3/cbm_mask: not hex: '" + mask + "'", e);
        }
        if (cbmMask == 0 || !contiguous(cbmMask)) {
            throw new IOException("resctrl info/L3/cbm_mask " + mask + " is not a contiguous mask");
        }
        this.lowestBit = Long.numberOfTrailingZeros(cbmMask);
        this.totalWays = Long.bitCount(cbmMask);
        this.minBits = (int) HostFiles.readLong(resctrl.info("L3/min_cbm_bits"));
        this.written = new long[groups.size()];
    }

    private static boolean contiguous(long m) {
        long shifted = m >>> Long.numberOfTrailingZeros(m);
        return (shifted & (shifted + 1)) == 0;
    }

    /**
     * Ways in cbm_mask.
     *
     * @return total ways
     */
    public int totalWays() {
        return totalWays;
    }

    /**
     * min_cbm_bits.
     *
     * @return least ways per group
     */
    public int minBits() {
        return minBits;
    }

    @Override
    public ResourceType type() {
        return ResourceType.LLC;
    }

    @Override
    public long read(int vnf) throws IOException {
        Path f = groups.get(vnf).resolve("schemata");
        Map<Integer, String> line = Resctrl.readLine(f, "L3");
        long mask;
        try {
            mask = Long.parseLong(line.values().iterator().next(), 16);
        } catch (NumberFormatException e) {
            throw new IOException(f + ": bad L3 mask", e);
        }
        written[vnf] = mask;
        return Long.bitCount(mask);
    }

    /**
     * The masks of a layout: vNF k gets the ways after those of vNFs 0..k-1.
     * A layout past the last way (budget not respected) is pushed down so
     * every mask stays inside cbm_mask.
     *
     * @param allocations ways per vNF
     * @return mask per vNF
     */
    long[] layout(long[] allocations) {
        long[] masks = new long[allocations.length];
        int offset = 0;
        for (int k = 0; k < allocations.length; k++) {
            int ways = (int) Math.max(minBits, Math.min(totalWays, allocations[k]));
            int start = Math.min(offset, totalWays - ways);
            masks[k] = ((ways == 64 ? -1L : (1L << ways) - 1) << (start + lowestBit)) & cbmMask;
            offset += ways;
        }
        return masks;
    }

    @Override
    public void write(int vnf, long ways, long[] allocations) throws IOException {
        long[] masks = layout(allocations);
        boolean growing = Long.bitCount(masks[vnf]) >= Long.bitCount(written[vnf]);
        int n = masks.length;
        List<Integer> order = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            order.add(growing ? n - 1 - k : k);
        }
        for (int k : order) {
            if (masks[k] == written[k]) {
                continue;
            }
            Path f = groups.get(k).resolve("schemata");
            Resctrl.writeLine(f, "L3", Long.toHexString(masks[k]));
            written[k] = masks[k];
        }
    }
}
