package org.srv6int.twin;

import java.util.LinkedHashMap;
import java.util.Map;
import org.srv6int.twin.control.Orchestrator;
import org.srv6int.twin.model.Fabric;

/** One simulated experiment: a freshly built testbed, how long to run it, and its knobs. */
public final class Experiment {
    private final String label;
    private final Fabric fabric;
    private final Orchestrator orchestrator;
    private final double durationS;
    private final Map<String, Double> rampStepS = new LinkedHashMap<>();
    private double tHatS = 4.0;

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
        this.orchestrator = new Orchestrator(fabric);
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

    /** Orchestrator of this testbed. */
    public Orchestrator orchestrator() {
        return orchestrator;
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
