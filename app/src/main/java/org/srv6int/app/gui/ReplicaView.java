// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.gui;

import org.onosproject.net.DeviceId;

import java.util.Objects;

/**
 * One replica of a vNF as the overlay draws it: the worker it runs on and the
 * switch that worker hangs off (where the switch measures the vNF's latency).
 */
public final class ReplicaView {
    private final String name;
    private final String worker;
    private final DeviceId attachment;
    private final String state;
    private final int weight;
    private final boolean dead;

    /**
     * Creates a replica view.
     *
     * @param name       replica (pod) name
     * @param worker     Kubernetes worker the replica runs on
     * @param attachment switch the worker hangs off
     * @param state      replica state (PENDING, ACTIVE, DRAINING, DEAD)
     * @param weight     multipath weight of the replica
     */
    public ReplicaView(String name, String worker, DeviceId attachment, String state, int weight) {
        this(name, worker, attachment, state, weight, false);
    }

    /**
     * Creates a replica view.
     *
     * @param name       replica (pod) name
     * @param worker     Kubernetes worker the replica runs on
     * @param attachment switch the worker hangs off
     * @param state      replica state (PENDING, ACTIVE, DRAINING, DEAD)
     * @param weight     multipath weight of the replica
     * @param dead       whether the failure detection counts it dead
     */
    public ReplicaView(String name, String worker, DeviceId attachment, String state, int weight, boolean dead) {
        this.name = Objects.requireNonNull(name, "name");
        this.worker = Objects.requireNonNull(worker, "worker");
        this.attachment = Objects.requireNonNull(attachment, "attachment");
        this.state = Objects.requireNonNull(state, "state");
        this.weight = weight;
        this.dead = dead;
    }

    /** @return true if the failure detection counts the replica dead */
    public boolean dead() {
        return dead;
    }

    /** @return replica (pod) name */
    public String name() {
        return name;
    }

    /** @return worker node name */
    public String worker() {
        return worker;
    }

    /** @return switch the worker hangs off */
    public DeviceId attachment() {
        return attachment;
    }

    /** @return replica state */
    public String state() {
        return state;
    }

    /** @return multipath weight */
    public int weight() {
        return weight;
    }
}
