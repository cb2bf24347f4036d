// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api.model;

import com.google.common.base.MoreObjects;
import com.google.common.collect.ImmutableList;

import java.util.List;
import java.util.Objects;

import static com.google.common.base.Preconditions.checkNotNull;

/**
 * What the failure detection remembers of one replica (docs/failures.md), kept in the cluster's
 * loop state store so that a new leader goes on from it: whether it counts dead, since when and
 * why, its recent deaths (the return hold doubles with them), whether it is on probation and
 * whether INT ever showed traffic through it. Times are wall clock, ms. Silences are not kept:
 * a new leader starts them afresh.
 */
public final class ReplicaHealthRecord {

    private final boolean dead;
    private final long deadSinceMillis;
    private final String cause;
    private final List<Long> deathsMillis;
    private final boolean probation;
    private final boolean passedTraffic;

    /**
     * Creates a record.
     *
     * @param dead            whether the replica counts dead
     * @param deadSinceMillis since when, 0 if not dead
     * @param cause           why it died last, "" if never
     * @param deathsMillis    its recent deaths, oldest first
     * @param probation       whether it returned and INT has not shown traffic through it since
     * @param passedTraffic   whether INT ever showed traffic through it
     */
    public ReplicaHealthRecord(boolean dead, long deadSinceMillis, String cause, List<Long> deathsMillis,
                               boolean probation, boolean passedTraffic) {
        this.dead = dead;
        this.deadSinceMillis = deadSinceMillis;
        this.cause = checkNotNull(cause, "cause is null");
        this.deathsMillis = ImmutableList.copyOf(checkNotNull(deathsMillis, "deaths is null"));
        this.probation = probation;
        this.passedTraffic = passedTraffic;
    }

    /** @return whether the replica counts dead */
    public boolean dead() {
        return dead;
    }

    /** @return since when it is dead, wall ms, 0 if not dead */
    public long deadSinceMillis() {
        return deadSinceMillis;
    }

    /** @return why it died last, "" if never */
    public String cause() {
        return cause;
    }

    /** @return its recent deaths, wall ms, oldest first */
    public List<Long> deathsMillis() {
        return deathsMillis;
    }

    /** @return whether it is on probation */
    public boolean probation() {
        return probation;
    }

    /** @return whether INT ever showed traffic through it */
    public boolean passedTraffic() {
        return passedTraffic;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof ReplicaHealthRecord)) {
            return false;
        }
        ReplicaHealthRecord r = (ReplicaHealthRecord) o;
        return dead == r.dead && deadSinceMillis == r.deadSinceMillis && probation == r.probation
                && passedTraffic == r.passedTraffic && cause.equals(r.cause) && deathsMillis.equals(r.deathsMillis);
    }

    @Override
    public int hashCode() {
        return Objects.hash(dead, deadSinceMillis, cause, deathsMillis, probation, passedTraffic);
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper(this).add("dead", dead).add("since", deadSinceMillis).add("cause", cause)
                .add("deaths", deathsMillis).add("probation", probation).add("passedTraffic", passedTraffic)
                .toString();
    }
}
