// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api.model;

import org.onlab.util.Identifier;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * Identifier of a service function chain. It is carried as the SRH Tag, so it
 * is an unsigned 16-bit number; 0 is reserved (an untagged packet).
 */
public final class SfcId extends Identifier<Integer> implements Comparable<SfcId> {

    /** Largest chain id (the SRH Tag is 16 bits wide). */
    public static final int MAX = 0xFFFF;

    private SfcId(int value) {
        super(value);
    }

    /**
     * Returns the chain id with the given SRH Tag value.
     *
     * @param value 1..65535
     * @return chain id
     * @throws IllegalArgumentException if the value is out of range
     */
    public static SfcId of(int value) {
        checkArgument(value > 0 && value <= MAX, "chain id must be in 1..%s, got %s", MAX, value);
        return new SfcId(value);
    }

    /**
     * Parses a chain id from its decimal form.
     *
     * @param text decimal text, e.g. "1"
     * @return chain id
     * @throws IllegalArgumentException if the text is not a valid chain id
     */
    public static SfcId valueOf(String text) {
        int v;
        try {
            v = Integer.parseInt(text.trim());
        } catch (NumberFormatException | NullPointerException e) {
            throw new IllegalArgumentException("chain id must be a number in 1.." + MAX + ", got " + text, e);
        }
        return of(v);
    }

    /**
     * Returns the SRH Tag value of this chain.
     *
     * @return tag 1..65535
     */
    public int tag() {
        return identifier;
    }

    @Override
    public int compareTo(SfcId o) {
        return Integer.compare(identifier, o.identifier);
    }

    @Override
    public String toString() {
        return Integer.toString(identifier);
    }
}
