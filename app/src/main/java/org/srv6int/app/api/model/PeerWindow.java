// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api.model;

/**
 * One cluster instance's contribution to a window: whose, how old, whether it was used.
 */
public final class PeerWindow {

    private final String node;
    private final long ageMillis;
    private final boolean used;
    private final int bytes;
    private final long lost;

    public PeerWindow(String node, long ageMillis, boolean used, int bytes, long lost) {
        this.node = node;
        this.ageMillis = ageMillis;
        this.used = used;
        this.bytes = bytes;
        this.lost = lost;
    }

    /** @return ONOS node id of the instance */
    public String node() {
        return node;
    }

    /** @return age of its window at merge time, ms (0 for this instance's own) */
    public long ageMillis() {
        return ageMillis;
    }

    /** @return false if it was stale and left out */
    public boolean used() {
        return used;
    }

    /** @return size of its summary, bytes */
    public int bytes() {
        return bytes;
    }

    /** @return reports its collector counted lost since start */
    public long lost() {
        return lost;
    }

    @Override
    public String toString() {
        return node + " age=" + ageMillis + "ms " + (used ? "used" : "stale") + " " + bytes + "B lost=" + lost;
    }
}
