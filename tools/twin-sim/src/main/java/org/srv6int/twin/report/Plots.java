package org.srv6int.twin.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.srv6int.twin.Policy;
import org.srv6int.twin.RunResult;
import org.srv6int.twin.scenario.Scenario;

/** PNG plots in the style of the paper's figures (XChart). */
public final class Plots {
    private Plots() {
    }

    /** Writes the scenario's figures under dir. */
    public static void write(Scenario s, Map<Policy, List<RunResult>> runs, Path dir) throws IOException {
        // filled in below
    }
}
