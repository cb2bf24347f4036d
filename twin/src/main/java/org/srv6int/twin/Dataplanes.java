// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin;

import org.srv6int.twin.control.Topology;
import org.srv6int.twin.bmv2.Bmv2Dataplane;
import org.srv6int.twin.dataplane.Dataplane;
import org.srv6int.twin.dataplane.EmulatedDataplane;

/**
 * The one place that turns {@code --dataplane emulated|bmv2} into a {@link Dataplane}.
 */
public final class Dataplanes {

    private Dataplanes() {
    }

    /**
     * Why a dataplane kind cannot run on this machine.
     *
     * @param kind "emulated" or "bmv2"
     * @return reason, or null if it can run
     * @throws IllegalArgumentException for an unknown kind
     */
    public static String unavailableReason(String kind) {
        switch (kind) {
            case "emulated":
                return null;
            case "bmv2":
                return Bmv2Dataplane.unavailableReason();
            default:
                throw new IllegalArgumentException("unknown dataplane '" + kind + "' (emulated, bmv2)");
        }
    }

    /**
     * Creates and starts the paper testbed's dataplane of a kind.
     *
     * @param kind "emulated" (cheap: one per run) or "bmv2" (switch processes: one for all runs)
     * @return the started dataplane; the caller closes it
     * @throws IllegalStateException if BMv2 cannot start (the message says why)
     * @throws IllegalArgumentException for an unknown kind
     */
    public static Dataplane create(String kind) {
        return create(kind, Topology.paperTestbed());
    }

    /**
     * Creates and starts a topology's dataplane of a kind.
     *
     * @param kind     "emulated" or "bmv2" (BMv2 only for the paper's testbed)
     * @param topology the switches and links
     * @return the started dataplane; the caller closes it
     * @throws IllegalStateException if BMv2 cannot start (the message says why)
     * @throws IllegalArgumentException for an unknown kind, or BMv2 on another topology
     */
    public static Dataplane create(String kind, Topology topology) {
        switch (kind) {
            case "emulated":
                return new EmulatedDataplane(topology.links());
            case "bmv2":
                if (!topology.isPaperTestbed()) {
                    throw new IllegalArgumentException("--dataplane bmv2 runs the paper's four switches only");
                }
                return Bmv2Dataplane.paperTestbed().start();
            default:
                throw new IllegalArgumentException("unknown dataplane '" + kind + "' (emulated, bmv2)");
        }
    }
}
