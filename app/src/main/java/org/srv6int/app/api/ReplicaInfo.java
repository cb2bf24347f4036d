package org.srv6int.app.api;

import org.srv6int.app.api.ReplicaInfo;

/**
 * A vNF replica that the platform reported Ready.
 */
public final class ReplicaInfo {

    private final String id;
    private final String node;
    private final String podIp;

    /**
     * Creates replica information.
     *
     * @param id    replica id (the bridge's deterministic name)
     * @param node  node the pod runs on
     * @param podIp pod IP address
     */
    public ReplicaInfo(String id, String node, String podIp) {
        if (id == null || id.isEmpty()) {
            throw new IllegalArgumentException("replica id is empty");
        }
        this.id = id;
        this.node = node;
        this.podIp = podIp;
    }

    /**
     * Returns the replica id.
     *
     * @return id
     */
    public String id() {
        return id;
    }

    /**
     * Returns the node the replica runs on.
     *
     * @return node name
     */
    public String node() {
        return node;
    }

    /**
     * Returns the pod IP.
     *
     * @return pod IP
     */
    public String podIp() {
        return podIp;
    }

    @Override
    public String toString() {
        return id + "@" + node + "(" + podIp + ")";
    }
}
