// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.scenario;

import java.util.List;
import java.util.function.Supplier;
import org.srv6int.twin.Experiment;

/** A named scenario: one or more experiments, each built fresh for every policy. */
public final class Scenario {
    private final String name;
    private final String title;
    private final List<Supplier<Experiment>> experiments;

    /**
     * Creates a scenario.
     *
     * @param name        its command-line name
     * @param title       one line saying what it reproduces
     * @param experiments builders of its experiments (each call builds a fresh testbed)
     */
    public Scenario(String name, String title, List<Supplier<Experiment>> experiments) {
        this.name = name;
        this.title = title;
        this.experiments = List.copyOf(experiments);
    }

    /** fig8 ... fig12. */
    public String name() {
        return name;
    }

    /** One line saying what it reproduces. */
    public String title() {
        return title;
    }

    /**
     * Builds every experiment once and checks that its testbed can run.
     *
     * @throws IllegalArgumentException naming the scenario, experiment, chain and vNF of the first
     *                                  inconsistency found
     */
    public void check() {
        for (Supplier<Experiment> b : experiments) {
            Experiment e = b.get();
            List<String> problems = e.fabric().problems();
            if (!problems.isEmpty()) {
                throw new IllegalArgumentException("scenario " + name + (e.label().isEmpty() ? "" : " (" + e.label()
                        + ")") + " is inconsistent: " + String.join("; ", problems));
            }
        }
    }

    /** Builders of its experiments. */
    public List<Supplier<Experiment>> experiments() {
        return experiments;
    }
}
