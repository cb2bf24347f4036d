// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api.model;

import com.google.common.base.MoreObjects;

import java.util.Objects;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

/**
 * One position of a chain: the vNF type (e.g. "snort") and its tail-latency
 * bound Lmax, the 95th-percentile processing latency it must stay under.
 */
public final class VnfSpec {

    private final String type;
    private final long lmaxNanos;

    /**
     * Creates a vNF spec.
     *
     * @param type      vNF type name, non-empty, [A-Za-z0-9_.-]
     * @param lmaxNanos tail-latency bound in nanoseconds, &gt; 0
     */
    public VnfSpec(String type, long lmaxNanos) {
        checkNotNull(type, "vNF type is null");
        checkArgument(type.matches("[A-Za-z0-9_.-]{1,63}"),
                      "vNF type must be 1-63 characters of [A-Za-z0-9_.-], got '%s'", type);
        checkArgument(lmaxNanos > 0, "Lmax must be > 0 ns, got %s", lmaxNanos);
        this.type = type;
        this.lmaxNanos = lmaxNanos;
    }

    /**
     * Returns the vNF type name.
     *
     * @return type
     */
    public String type() {
        return type;
    }

    /**
     * Returns the tail-latency bound Lmax.
     *
     * @return nanoseconds
     */
    public long lmaxNanos() {
        return lmaxNanos;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof VnfSpec)) {
            return false;
        }
        VnfSpec that = (VnfSpec) o;
        return lmaxNanos == that.lmaxNanos && type.equals(that.type);
    }

    @Override
    public int hashCode() {
        return Objects.hash(type, lmaxNanos);
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper(this).add("type", type).add("lmaxNanos", lmaxNanos).toString();
    }
}
