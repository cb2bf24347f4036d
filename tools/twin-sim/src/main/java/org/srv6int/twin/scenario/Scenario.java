package org.srv6int.twin.scenario;

import java.util.List;
import java.util.function.Supplier;
import org.srv6int.twin.Experiment;

/** A named scenario: one or more experiments, each built fresh for every policy. */
public final class Scenario {
    private final String name;
    private final String title;
    private final List<Supplier<Experiment>> experiments;

    Scenario(String name, String title, List<Supplier<Experiment>> experiments) {
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

    /** Builders of its experiments. */
    public List<Supplier<Experiment>> experiments() {
        return experiments;
    }
}
