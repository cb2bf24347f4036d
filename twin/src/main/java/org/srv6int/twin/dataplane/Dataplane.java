// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.dataplane;

import java.util.Collection;
import java.util.List;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.group.Group;

/**
 * The twin's switches: they execute the PI flow rules and groups the app installs, with the
 * P4 program's tables and semantics. Implemented by emulated switches (the default, runs
 * anywhere) and by BMv2 {@code simple_switch_grpc} processes programmed over P4Runtime.
 */
public interface Dataplane extends AutoCloseable {

    /**
     * Replaces one switch's entries with the app's current flow rules and groups for it.
     *
     * @param device switch
     * @param rules  every PI flow rule the app has installed on it
     * @param groups every PI group (action-profile group) the app has installed on it
     */
    void program(DeviceId device, Collection<FlowRule> rules, Collection<Group> groups);

    /**
     * Sends one frame into a switch port and follows it (and any clones) across inter-switch
     * links until it leaves the fabric at an edge port: a host, a vNF server port or the
     * collector port. The caller plays the vNF and re-injects what comes back from it.
     *
     * @param device   switch
     * @param port     ingress port
     * @param frame    Ethernet frame
     * @param nowNanos switch clock for timestamps
     * @return every frame that left the fabric, in order
     */
    List<Frame> inject(DeviceId device, PortNumber port, byte[] frame, long nowNanos);

    /**
     * How many probe flows the twin traces a chain's paths with: many where a packet is cheap
     * (emulated), few where each one is a real round trip through switch processes.
     *
     * @return probe flows per chain
     */
    default int traceFlows() {
        return 256;
    }

    @Override
    void close();

    /** A frame leaving the fabric at an edge port. */
    final class Frame {
        private final DeviceId device;
        private final PortNumber port;
        private final byte[] bytes;

        /**
         * Creates a frame.
         *
         * @param device switch it left
         * @param port   edge port it left through
         * @param bytes  Ethernet frame
         */
        public Frame(DeviceId device, PortNumber port, byte[] bytes) {
            this.device = device;
            this.port = port;
            this.bytes = bytes.clone();
        }

        /** @return switch it left */
        public DeviceId device() {
            return device;
        }

        /** @return edge port */
        public PortNumber port() {
            return port;
        }

        /** @return a copy of the frame */
        public byte[] bytes() {
            return bytes.clone();
        }
    }
}
