// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.telemetry;

import org.srv6int.app.api.model.VnfKey;

import java.util.Objects;

/**
 * Says which vNF replica an INT metadata entry belongs to: the entry at path position
 * {@code hop} (0 = ingress) of a report of chain {@code chainTag}, written by switch
 * {@code deviceId}, is the one the switch wrote when the packet came back from replica
 * {@code replicaId} of {@code vnf}. Built from the chain's segment lists (docs/collector.md).
 */
public final class HopBinding {

    private final int chainTag;
    private final int hop;
    private final int deviceId;
    private final VnfKey vnf;
    private final String replicaId;

    /**
     * Creates a binding.
     *
     * @param chainTag  chain id (SRH Tag)
     * @param hop       path position of the replica's SID in the segment list, 1..255
     * @param deviceId  Device_ID of the switch the replica's server hangs off
     * @param vnf       the vNF
     * @param replicaId the replica
     */
    public HopBinding(int chainTag, int hop, int deviceId, VnfKey vnf, String replicaId) {
        if (hop < 0 || hop > 0xFF) {
            throw new IllegalArgumentException("hop must be in 0..255, got " + hop);
        }
        if (deviceId < 0 || deviceId > 0xFFFF) {
            throw new IllegalArgumentException("device id must be in 0..65535, got " + deviceId);
        }
        if (vnf.sfcId().tag() != chainTag) {
            throw new IllegalArgumentException("vNF " + vnf + " is not of chain " + chainTag);
        }
        this.chainTag = chainTag;
        this.hop = hop;
        this.deviceId = deviceId;
        this.vnf = Objects.requireNonNull(vnf);
        this.replicaId = Objects.requireNonNull(replicaId);
    }

    /** @return chain tag */
    public int chainTag() {
        return chainTag;
    }

    /** @return path position, 0 = ingress */
    public int hop() {
        return hop;
    }

    /** @return switch Device_ID */
    public int deviceId() {
        return deviceId;
    }

    /** @return the vNF */
    public VnfKey vnf() {
        return vnf;
    }

    /** @return the replica id */
    public String replicaId() {
        return replicaId;
    }

    long key() {
        return key(chainTag, hop, deviceId);
    }

    static long key(int tag, int hop, int deviceId) {
        return ((long) tag << 24) | ((long) hop << 16) | deviceId;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof HopBinding)) {
            return false;
        }
        HopBinding b = (HopBinding) o;
        return chainTag == b.chainTag && hop == b.hop && deviceId == b.deviceId
                && vnf.equals(b.vnf) && replicaId.equals(b.replicaId);
    }

    @Override
    public int hashCode() {
        return Objects.hash(chainTag, hop, deviceId, vnf, replicaId);
    }

    @Override
    public String toString() {
        return "sfc" + chainTag + "/hop" + hop + "@dev" + deviceId + "->" + vnf + "/" + replicaId;
    }
}
