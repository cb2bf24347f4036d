// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api.model;

import java.util.Objects;
import java.util.Optional;

/**
 * One edge of the replica life cycle's transition table (a step from one record state to another)
 * with how often it was taken, or refused, since the instance started.
 */
public final class ReplicaTransition {
    private final String step;
    private final ReplicaState from;
    private final ReplicaState to;
    private final long count;

    /**
     * Creates an edge count.
     *
     * @param step  the life cycle's step (RESERVE, ADD, REGISTER, ACTIVATE, DRAIN, FAIL, RESTORE, RELEASE, REMOVE)
     * @param from  the record's state before, null if there was no record
     * @param to    the record's state after, null if there is none after (or a refusal wrote nothing)
     * @param count how often
     */
    public ReplicaTransition(String step, ReplicaState from, ReplicaState to, long count) {
        this.step = Objects.requireNonNull(step, "step is null");
        this.from = from;
        this.to = to;
        this.count = count;
    }

    /**
     * The step.
     *
     * @return step name
     */
    public String step() {
        return step;
    }

    /**
     * The record's state the step started from.
     *
     * @return state, empty if there was no record
     */
    public Optional<ReplicaState> from() {
        return Optional.ofNullable(from);
    }

    /**
     * The record's state after the step.
     *
     * @return state, empty if the record is gone (or, for a refusal, nothing was written)
     */
    public Optional<ReplicaState> to() {
        return Optional.ofNullable(to);
    }

    /**
     * How often.
     *
     * @return count since start
     */
    public long count() {
        return count;
    }

    @Override
    public String toString() {
        return step + " " + from().map(Enum::name).orElse("none") + " -> " + to().map(Enum::name).orElse("none")
                + ": " + count;
    }
}
