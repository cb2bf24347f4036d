// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent;

import org.srv6int.agent.capture.DetectionResultReader;
import org.srv6int.agent.loop.LocalLoop;
import org.srv6int.agent.loop.ResourceActuator;
import org.srv6int.agent.numa.NumaHost;
import org.srv6int.agent.obs.AgentMetrics;
import org.srv6int.agent.pods.ReplicaPod;

import java.util.List;

/** Everything {@link NodeAgent} built for one set of vNFs; replaced as a whole when the set changes. */
final class Generation {

    /** A managed vNF: its config entry and, when followed, its pod. */
    static final class Member {
        final AgentConfig.Vnf vnf;
        final ReplicaPod pod;

        Member(AgentConfig.Vnf vnf, ReplicaPod pod) {
            this.vnf = vnf;
            this.pod = pod;
        }
    }

    List<Member> members;
    AgentMetrics metrics;
    HostSetup host;
    LocalLoop loop;
    DetectionResultReader reader;
    ResourceActuator cpu;
    int[] mismatches;
    NumaHost numa;
    String numaUnavailable;
}
