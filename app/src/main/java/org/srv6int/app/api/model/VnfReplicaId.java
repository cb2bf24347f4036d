// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api.model;


import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

/**
 * Identifier of one replica of one vNF of one chain: the vNF key plus a
 * replica name unique within that vNF (the Kubernetes bridge uses it in the
 * pod name, so it is a DNS label).
 */
public final class VnfReplicaId implements Comparable<VnfReplicaId> {

    private final VnfKey vnf;
    private final String name;

    private VnfReplicaId(VnfKey vnf, String name) {
        this.vnf = checkNotNull(vnf, "vNF key is null");
        checkNotNull(name, "replica name is null");
        checkArgument(name.matches("[a-z0-9]([-a-z0-9]{0,30}[a-z0-9])?"),
                      "replica name must be a DNS label of at most 32 characters, got '%s'", name);
        this.name = name;
    }

    /**
     * Returns the replica id.
     *
     * @param vnf  vNF key
     * @param name replica name (DNS label)
     * @return id
     */
    public static VnfReplicaId of(VnfKey vnf, String name) {
        return new VnfReplicaId(vnf, name);
    }

    /**
     * Parses "chain/index/name", e.g. "1/0/r0".
     *
     * @param text text
     * @return id
     * @throws IllegalArgumentException if malformed
     */
    public static VnfReplicaId valueOf(String text) {
        checkArgument(text != null && text.lastIndexOf('/') > 0,
                      "replica id must look like <chain>/<index>/<name>, got %s", text);
        int slash = text.lastIndexOf('/');
        return of(VnfKey.valueOf(text.substring(0, slash)), text.substring(slash + 1));
    }

    /**
     * Returns the vNF this is a replica of.
     *
     * @return vNF key
     */
    public VnfKey vnf() {
        return vnf;
    }

    /**
     * Returns the replica name.
     *
     * @return name
     */
    public String name() {
        return name;
    }

    @Override
    public int compareTo(VnfReplicaId o) {
        int c = vnf.compareTo(o.vnf);
        return c != 0 ? c : name.compareTo(o.name);
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof VnfReplicaId)) {
            return false;
        }
        VnfReplicaId that = (VnfReplicaId) o;
        return vnf.equals(that.vnf) && name.equals(that.name);
    }

    @Override
    public int hashCode() {
        // Objects.hash(vnf, name)'s value, without its array: hashed for every replica every round.
        return 31 * (31 + vnf.hashCode()) + name.hashCode();
    }

    @Override
    public String toString() {
        return vnf + "/" + name;
    }
}
