// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.loop;

import java.io.IOException;
import java.util.Arrays;

/**
 * One resource type on this node: a budget shared by the local vNFs, each
 * vNF's allocation between its floor (so no vNF is starved) and its ceiling,
 * and the fixed step Algorithms 1 and 2 move. A step taken from a vNF by
 * Algorithm 2 is held as {@code reserved} until the trial ends, so that the
 * revert always finds it. An amount promised to pods of the node the loop does not manage
 * (scheduled, not yet Ready; other workloads) is {@code held}: never handed to the vNFs.
 */
public final class ResourcePool {

    private final ResourceType type;
    private final ResourceActuator actuator;
    private final long step;
    private final long budget;
    private final long[] floor;
    private final long[] ceiling;
    private final long[] alloc;
    private long allocated;
    private long reserved;
    private long held;

    /**
     * Creates a pool.
     *
     * @param actuator applies allocations
     * @param step fixed step of Algorithms 1 and 2, positive
     * @param budget total the vNFs may hold together
     * @param floor per-vNF floor
     * @param ceiling per-vNF ceiling, each at least its floor
     * @param initial per-vNF allocations read back from the host; clamped into [floor, ceiling]
     */
    public ResourcePool(ResourceActuator actuator, long step, long budget,
                        long[] floor, long[] ceiling, long[] initial) {
        this(actuator, step, budget, 0, floor, ceiling, initial);
    }

    /**
     * Creates a pool with part of the budget held for pods the loop does not manage.
     *
     * @param actuator applies allocations
     * @param step fixed step of Algorithms 1 and 2, positive
     * @param budget total the vNFs and the held pods may hold together
     * @param held part of the budget the vNFs may not have, not negative
     * @param floor per-vNF floor
     * @param ceiling per-vNF ceiling, each at least its floor
     * @param initial per-vNF allocations read back from the host; clamped into [floor, ceiling]
     */
    public ResourcePool(ResourceActuator actuator, long step, long budget, long held,
                        long[] floor, long[] ceiling, long[] initial) {
        if (held < 0) {
            throw new IllegalArgumentException(actuator.type() + ": held amount " + held + " is negative");
        }
        this.held = held;
        if (step <= 0) {
            throw new IllegalArgumentException(actuator.type() + ": step must be positive");
        }
        if (floor.length != ceiling.length || floor.length != initial.length) {
            throw new IllegalArgumentException(actuator.type() + ": per-vNF arrays differ in length");
        }
        this.type = actuator.type();
        this.actuator = actuator;
        this.step = step;
        this.budget = budget;
        this.floor = floor.clone();
        this.ceiling = ceiling.clone();
        this.alloc = new long[floor.length];
        for (int i = 0; i < floor.length; i++) {
            if (ceiling[i] < floor[i]) {
                throw new IllegalArgumentException(type + ": vNF " + i + " ceiling " + ceiling[i]
                        + " below floor " + floor[i]);
            }
            alloc[i] = Math.max(floor[i], Math.min(ceiling[i], initial[i]));
            allocated += alloc[i];
        }
    }

    /**
     * Resource type.
     *
     * @return type
     */
    public ResourceType type() {
        return type;
    }

    /**
     * Fixed step.
     *
     * @return step in the type's unit
     */
    public long step() {
        return step;
    }

    /**
     * Budget of the node.
     *
     * @return budget
     */
    public long budget() {
        return budget;
    }

    /**
     * Unassigned amount: budget minus allocations minus steps held by pending trials minus
     * what is held for pods the loop does not manage. Negative if the allocations read back
     * at start exceeded the budget, or a pod was promised more than was free (until
     * {@link LocalLoop#hold} has taken it back).
     *
     * @return free amount
     */
    public long free() {
        return budget - allocated - reserved - held;
    }

    /**
     * What is held for pods of the node the loop does not manage.
     *
     * @return amount in the type's unit
     */
    public long held() {
        return held;
    }

    void hold(long amount) {
        if (amount < 0) {
            throw new IllegalArgumentException(type + ": held amount " + amount + " is negative");
        }
        held = amount;
    }

    /**
     * The actuator's throttling counters of a vNF ({@link ResourceActuator#throttling}).
     *
     * @param vnf index
     * @return {periods, throttled periods}, or null if the type has no such signal
     * @throws IOException if the host has the signal but it cannot be read
     */
    public long[] throttling(int vnf) throws IOException {
        return actuator.throttling(vnf);
    }

    /**
     * Allocation of a vNF.
     *
     * @param vnf index
     * @return allocation
     */
    public long allocation(int vnf) {
        return alloc[vnf];
    }

    /**
     * Floor of a vNF.
     *
     * @param vnf index
     * @return floor
     */
    public long floor(int vnf) {
        return floor[vnf];
    }

    /**
     * Ceiling of a vNF.
     *
     * @param vnf index
     * @return ceiling
     */
    public long ceiling(int vnf) {
        return ceiling[vnf];
    }

    /**
     * How much one add step may give vNF: the step, cut at the ceiling.
     *
     * @param vnf index
     * @return amount, 0 if at the ceiling
     */
    public long addAmount(int vnf) {
        return Math.max(0, Math.min(step, ceiling[vnf] - alloc[vnf]));
    }

    /**
     * How much one free step may take from vNF: the step, cut at the floor.
     *
     * @param vnf index
     * @return amount, 0 if at the floor
     */
    public long freeAmount(int vnf) {
        return Math.max(0, Math.min(step, alloc[vnf] - floor[vnf]));
    }

    /**
     * Algorithm 1 line 13: is there enough free resource to give vNF a step.
     *
     * @param vnf index
     * @return true if an add would succeed
     */
    public boolean canAdd(int vnf) {
        long a = addAmount(vnf);
        return a > 0 && free() >= a;
    }

    /**
     * Sets a vNF's allocation through the actuator; on failure nothing changes.
     *
     * @param vnf index
     * @param value new value, must be within floor and ceiling
     * @throws IOException from the actuator
     */
    void set(int vnf, long value) throws IOException {
        if (value < floor[vnf] || value > ceiling[vnf]) {
            throw new IllegalStateException(type + ": " + value + " outside [" + floor[vnf] + ", "
                    + ceiling[vnf] + "] for vNF " + vnf);
        }
        long old = alloc[vnf];
        alloc[vnf] = value;
        try {
            actuator.write(vnf, value, alloc);
        } catch (IOException | RuntimeException e) {
            alloc[vnf] = old;
            throw e;
        }
        allocated += value - old;
    }

    /**
     * Takes a value found on the host (someone else wrote it) as vNF's allocation without
     * writing anything, cut into [floor, ceiling] and to what the free budget allows, so the
     * pool never over-commits.
     *
     * @param vnf index
     * @param value value found
     * @return the allocation now held (differs from value when it was cut; then the caller writes it)
     */
    public long adopt(int vnf, long value) {
        long max = Math.min(ceiling[vnf], alloc[vnf] + Math.max(0, free()));
        long v = Math.max(floor[vnf], Math.min(max, value));
        allocated += v - alloc[vnf];
        alloc[vnf] = v;
        return v;
    }

    void reserve(long amount) {
        reserved += amount;
    }

    void release(long amount) {
        reserved -= amount;
    }

    /**
     * Writes every vNF's allocation once (after start-up clamping), so the host
     * holds exactly what the loop believes.
     *
     * @throws IOException from the actuator
     */
    public void applyAll() throws IOException {
        for (int i = 0; i < alloc.length; i++) {
            actuator.write(i, alloc[i], alloc);
        }
    }

    @Override
    public String toString() {
        return type + "{step=" + step + ", budget=" + budget + ", alloc=" + Arrays.toString(alloc)
                + ", reserved=" + reserved + ", held=" + held + "}";
    }
}
