// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin;

import java.util.LinkedHashMap;
import java.util.Map;
import org.srv6int.twin.control.Topology;
import org.srv6int.twin.model.Allocation;
import org.srv6int.twin.model.Fabric;

/** One simulated experiment: a freshly built testbed, how long to run it, and its knobs. */
public final class Experiment {
    private final String label;
    private final Fabric fabric;
    private final Map<String, Allocation> replicaTemplates = new LinkedHashMap<>();
    private final double durationS;
    private final Map<String, Double> rampStepS = new LinkedHashMap<>();
    private double tHatS = 4.0;
    private Topology topology;

    /**
     * Creates an experiment.
     *
     * @param label sub-experiment label (empty for a scenario with one experiment)
     * @param fabric the testbed
     * @param durationS simulated seconds
     */
    public Experiment(String label, Fabric fabric, double durationS) {
        this.label = label;
        this.fabric = fabric;
        this.durationS = durationS;
    }

    /** Label. */
    public String label() {
        return label;
    }

    /** Testbed. */
    public Fabric fabric() {
        return fabric;
    }

    /**
     * Sets what a new replica of a logical vNF asks for (its pod's requests; the local loop adapts
     * it afterwards). Without one a new replica asks for what the vNF's first replica's pod asked for
     * (its request, not what the node agent has given it since).
     *
     * @param vnf logical vNF, e.g. {@code vnf3}
     * @param a   allocation
     * @return this
     */
    public Experiment withReplicaTemplate(String vnf, Allocation a) {
        replicaTemplates.put(vnf, a.copy());
        return this;
    }

    /** Replica templates by logical vNF. */
    public Map<String, Allocation> replicaTemplates() {
        return Map.copyOf(replicaTemplates);
    }

    /** Simulated seconds. */
    public double durationS() {
        return durationS;
    }

    /** t-hat of the global loop. */
    public double tHatS() {
        return tHatS;
    }

    /** Sets t-hat. */
    public Experiment withTHat(double s) {
        tHatS = s;
        return this;
    }

    /**
     * Runs the experiment on another fabric than the paper's testbed (its servers are the
     * fabric's host names).
     *
     * @param t the switches, links and netcfg
     * @return this
     */
    public Experiment withTopology(Topology t) {
        topology = t;
        return this;
    }

    /** The switches, links and netcfg the app runs on (default: the paper's testbed). */
    public Topology topology() {
        return topology != null ? topology : Topology.paperTestbed();
    }

    /** Marks a chain as a throughput ramp with steps of this length (Fig. 11 method). */
    public Experiment withRamp(String chain, double stepS) {
        rampStepS.put(chain, stepS);
        return this;
    }

    /** Ramped chains and their step lengths. */
    public Map<String, Double> ramps() {
        return Map.copyOf(rampStepS);
    }
}
