// SPDX-License-Identifier: Apache-2.0
package org.srv6int.testkit;

import org.onlab.packet.IpAddress;
import org.onosproject.cluster.ControllerNode;
import org.onosproject.cluster.DefaultControllerNode;
import org.onosproject.cluster.NodeId;

/**
 * The identity of the one controller instance the stand-ins model: node id from the system
 * property {@code srv6int.testkit.node} (default {@code testkit-1}) on 127.0.0.1.
 */
public final class TestkitNode {

    /** The local node id. */
    public static final NodeId LOCAL_ID = NodeId.nodeId(System.getProperty("srv6int.testkit.node", "testkit-1"));

    /** The local node. */
    public static final ControllerNode LOCAL =
            new DefaultControllerNode(LOCAL_ID, IpAddress.valueOf("127.0.0.1"));

    private TestkitNode() {
    }
}
