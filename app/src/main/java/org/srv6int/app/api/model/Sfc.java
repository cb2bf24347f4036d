// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.api.model;

import com.google.common.base.MoreObjects;
import com.google.common.collect.ImmutableList;
import org.onosproject.net.ConnectPoint;

import java.util.List;
import java.util.Objects;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

/**
 * A service function chain: traffic matching the classifier that enters at
 * the ingress connect point must pass the ordered vNFs, each within its
 * tail-latency bound, and leave at the egress connect point. One in
 * {@code intSamplingRate} packets carries INT metadata.
 */
public final class Sfc {

    /** Largest number of vNFs in a chain: ingress + vNFs + egress must fit the program's segments. */
    public static final int MAX_VNFS = org.srv6int.pipeconf.Srv6IntPipelineConstants.MAX_SEGMENTS - 2;

    private final SfcId id;
    private final String name;
    private final ConnectPoint ingress;
    private final ConnectPoint egress;
    private final FlowClassifier classifier;
    private final List<VnfSpec> vnfs;
    private final int intSamplingRate;

    private Sfc(Builder b) {
        this.id = checkNotNull(b.id, "chain id is null");
        this.name = b.name == null ? "sfc-" + b.id : b.name;
        this.ingress = checkNotNull(b.ingress, "ingress is null");
        this.egress = checkNotNull(b.egress, "egress is null");
        this.classifier = checkNotNull(b.classifier, "classifier is null");
        this.vnfs = ImmutableList.copyOf(b.vnfs);
        checkArgument(vnfs.size() <= MAX_VNFS, "a chain has at most %s vNFs, got %s", MAX_VNFS, vnfs.size());
        checkArgument(b.intSamplingRate >= 1, "INT sampling rate must be >= 1 (1-in-k), got %s",
                      b.intSamplingRate);
        this.intSamplingRate = b.intSamplingRate;
    }

    /**
     * Returns a new builder.
     *
     * @return builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Returns a builder initialised from this chain.
     *
     * @return builder
     */
    public Builder toBuilder() {
        return new Builder().id(id).name(name).ingress(ingress).egress(egress).classifier(classifier)
                .vnfs(vnfs).intSamplingRate(intSamplingRate);
    }

    /**
     * Returns the chain id (the SRH Tag).
     *
     * @return id
     */
    public SfcId id() {
        return id;
    }

    /**
     * Returns the operator-given name.
     *
     * @return name
     */
    public String name() {
        return name;
    }

    /**
     * Returns the connect point where the chain's traffic enters (H.Encaps.INT).
     *
     * @return ingress
     */
    public ConnectPoint ingress() {
        return ingress;
    }

    /**
     * Returns the connect point where the chain's traffic leaves (End.DT.INT).
     *
     * @return egress
     */
    public ConnectPoint egress() {
        return egress;
    }

    /**
     * Returns the traffic classifier.
     *
     * @return classifier
     */
    public FlowClassifier classifier() {
        return classifier;
    }

    /**
     * Returns the ordered vNFs; index i here is the "vNF index" used by
     * {@link VnfKey} and {@link VnfReplica}.
     *
     * @return immutable list
     */
    public List<VnfSpec> vnfs() {
        return vnfs;
    }

    /**
     * Returns k of the 1-in-k INT sampling.
     *
     * @return k &gt;= 1
     */
    public int intSamplingRate() {
        return intSamplingRate;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof Sfc)) {
            return false;
        }
        Sfc that = (Sfc) o;
        return intSamplingRate == that.intSamplingRate && id.equals(that.id) && name.equals(that.name)
                && ingress.equals(that.ingress) && egress.equals(that.egress)
                && classifier.equals(that.classifier) && vnfs.equals(that.vnfs);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, name, ingress, egress, classifier, vnfs, intSamplingRate);
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper(this).add("id", id).add("name", name).add("ingress", ingress)
                .add("egress", egress).add("classifier", classifier).add("vnfs", vnfs)
                .add("intSamplingRate", intSamplingRate).toString();
    }

    /** Builder of chains. */
    public static final class Builder {
        private SfcId id;
        private String name;
        private ConnectPoint ingress;
        private ConnectPoint egress;
        private FlowClassifier classifier;
        private List<VnfSpec> vnfs = ImmutableList.of();
        private int intSamplingRate = 1;

        private Builder() {
        }

        /**
         * Sets the chain id.
         *
         * @param id id
         * @return this
         */
        public Builder id(SfcId id) {
            this.id = id;
            return this;
        }

        /**
         * Sets the name; defaults to "sfc-&lt;id&gt;".
         *
         * @param name name
         * @return this
         */
        public Builder name(String name) {
            this.name = name;
            return this;
        }

        /**
         * Sets the ingress connect point.
         *
         * @param ingress connect point
         * @return this
         */
        public Builder ingress(ConnectPoint ingress) {
            this.ingress = ingress;
            return this;
        }

        /**
         * Sets the egress connect point.
         *
         * @param egress connect point
         * @return this
         */
        public Builder egress(ConnectPoint egress) {
            this.egress = egress;
            return this;
        }

        /**
         * Sets the classifier.
         *
         * @param classifier classifier
         * @return this
         */
        public Builder classifier(FlowClassifier classifier) {
            this.classifier = classifier;
            return this;
        }

        /**
         * Sets the ordered vNFs.
         *
         * @param vnfs vNFs
         * @return this
         */
        public Builder vnfs(List<VnfSpec> vnfs) {
            this.vnfs = checkNotNull(vnfs, "vNF list is null");
            return this;
        }

        /**
         * Sets k of the 1-in-k INT sampling; default 1 (every packet).
         *
         * @param k k &gt;= 1
         * @return this
         */
        public Builder intSamplingRate(int k) {
            this.intSamplingRate = k;
            return this;
        }

        /**
         * Builds the chain.
         *
         * @return chain
         * @throws NullPointerException     if a required field is missing
         * @throws IllegalArgumentException if a field is invalid
         */
        public Sfc build() {
            return new Sfc(this);
        }
    }
}
