// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api.model;

import com.google.common.base.MoreObjects;
import org.onlab.packet.IpPrefix;

import java.util.Objects;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

/**
 * Traffic class of a chain: a 5-tuple of prefixes. Source and destination are
 * IP prefixes of the same version (IPv4 or IPv6); protocol and L4 ports are
 * exact values where 0 means "any".
 */
public final class FlowClassifier {

    /** Wildcard value for protocol and ports. */
    public static final int ANY = 0;

    private final IpPrefix srcPrefix;
    private final IpPrefix dstPrefix;
    private final int ipProto;
    private final int l4SrcPort;
    private final int l4DstPort;

    /**
     * Creates a classifier.
     *
     * @param srcPrefix source prefix
     * @param dstPrefix destination prefix, same IP version as the source
     * @param ipProto   IP protocol 0..255, 0 = any
     * @param l4SrcPort L4 source port 0..65535, 0 = any
     * @param l4DstPort L4 destination port 0..65535, 0 = any
     */
    public FlowClassifier(IpPrefix srcPrefix, IpPrefix dstPrefix, int ipProto, int l4SrcPort, int l4DstPort) {
        this.srcPrefix = checkNotNull(srcPrefix, "source prefix is null");
        this.dstPrefix = checkNotNull(dstPrefix, "destination prefix is null");
        checkArgument(srcPrefix.version() == dstPrefix.version(),
                      "source and destination prefixes must be of the same IP version");
        checkArgument(ipProto >= 0 && ipProto <= 255, "IP protocol must be in 0..255, got %s", ipProto);
        checkArgument(l4SrcPort >= 0 && l4SrcPort <= 0xFFFF, "L4 source port must be in 0..65535, got %s",
                      l4SrcPort);
        checkArgument(l4DstPort >= 0 && l4DstPort <= 0xFFFF, "L4 destination port must be in 0..65535, got %s",
                      l4DstPort);
        this.ipProto = ipProto;
        this.l4SrcPort = l4SrcPort;
        this.l4DstPort = l4DstPort;
    }

    /**
     * Classifier matching every packet between two prefixes.
     *
     * @param src source prefix
     * @param dst destination prefix
     * @return classifier
     */
    public static FlowClassifier between(IpPrefix src, IpPrefix dst) {
        return new FlowClassifier(src, dst, ANY, ANY, ANY);
    }

    /**
     * Returns whether the classifier matches IPv4 (otherwise IPv6) packets.
     *
     * @return true for IPv4
     */
    public boolean isIp4() {
        return srcPrefix.isIp4();
    }

    /**
     * Returns the source prefix.
     *
     * @return prefix
     */
    public IpPrefix srcPrefix() {
        return srcPrefix;
    }

    /**
     * Returns the destination prefix.
     *
     * @return prefix
     */
    public IpPrefix dstPrefix() {
        return dstPrefix;
    }

    /**
     * Returns the IP protocol, 0 = any.
     *
     * @return protocol
     */
    public int ipProto() {
        return ipProto;
    }

    /**
     * Returns the L4 source port, 0 = any.
     *
     * @return port
     */
    public int l4SrcPort() {
        return l4SrcPort;
    }

    /**
     * Returns the L4 destination port, 0 = any.
     *
     * @return port
     */
    public int l4DstPort() {
        return l4DstPort;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof FlowClassifier)) {
            return false;
        }
        FlowClassifier that = (FlowClassifier) o;
        return ipProto == that.ipProto && l4SrcPort == that.l4SrcPort && l4DstPort == that.l4DstPort
                && srcPrefix.equals(that.srcPrefix) && dstPrefix.equals(that.dstPrefix);
    }

    @Override
    public int hashCode() {
        return Objects.hash(srcPrefix, dstPrefix, ipProto, l4SrcPort, l4DstPort);
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper(this).add("src", srcPrefix).add("dst", dstPrefix)
                .add("proto", ipProto).add("sport", l4SrcPort).add("dport", l4DstPort).toString();
    }
}
