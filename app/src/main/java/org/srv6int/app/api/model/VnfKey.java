// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api.model;


import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

/**
 * One vNF of one chain: the chain id and the vNF's 0-based index in the
 * chain's ordered vNF list. Telemetry and the loops key per-vNF state by it.
 */
public final class VnfKey implements Comparable<VnfKey> {

    private final SfcId sfcId;
    private final int index;

    private VnfKey(SfcId sfcId, int index) {
        this.sfcId = checkNotNull(sfcId, "chain id is null");
        checkArgument(index >= 0 && index < Sfc.MAX_VNFS, "vNF index must be in 0..%s, got %s",
                      Sfc.MAX_VNFS - 1, index);
        this.index = index;
    }

    /**
     * Returns the key of vNF {@code index} of chain {@code sfcId}.
     *
     * @param sfcId chain id
     * @param index 0-based vNF index
     * @return key
     */
    public static VnfKey of(SfcId sfcId, int index) {
        return new VnfKey(sfcId, index);
    }

    /**
     * Parses "chain/index", e.g. "1/0".
     *
     * @param text text
     * @return key
     * @throws IllegalArgumentException if malformed
     */
    public static VnfKey valueOf(String text) {
        checkArgument(text != null && text.indexOf('/') > 0, "vNF key must look like <chain>/<index>, got %s",
                      text);
        int slash = text.indexOf('/');
        try {
            return of(SfcId.valueOf(text.substring(0, slash)), Integer.parseInt(text.substring(slash + 1)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("vNF index must be a number, got " + text, e);
        }
    }

    /**
     * Returns the chain id.
     *
     * @return chain id
     */
    public SfcId sfcId() {
        return sfcId;
    }

    /**
     * Returns the 0-based index of the vNF in its chain.
     *
     * @return index
     */
    public int index() {
        return index;
    }

    @Override
    public int compareTo(VnfKey o) {
        int c = sfcId.compareTo(o.sfcId);
        return c != 0 ? c : Integer.compare(index, o.index);
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof VnfKey)) {
            return false;
        }
        VnfKey that = (VnfKey) o;
        return index == that.index && sfcId.equals(that.sfcId);
    }

    @Override
    public int hashCode() {
        // Objects.hash(sfcId, index)'s value, without its array and boxing: hashed for every vNF every round.
        return 31 * (31 + sfcId.hashCode()) + index;
    }

    @Override
    public String toString() {
        return sfcId + "/" + index;
    }
}
