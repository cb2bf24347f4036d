// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.srv6int.twin.model.Allocation;
import org.srv6int.twin.model.Chain;
import org.srv6int.twin.model.Fabric;
import org.srv6int.twin.model.Host;
import org.srv6int.twin.model.VnfType;
import org.srv6int.twin.scenario.Scenario;
import org.srv6int.twin.scenario.Scenarios;

/**
 * Bad input (issue 22): an unknown scenario, policy or flag gets the usage text and exit status
 * 2; a scenario whose chain goes through a vNF no worker hosts is refused before anything runs,
 * with an error naming the chain and the vNF.
 */
public class BadInputTest {
    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    private static String[] run(String[] args, Function<String, Scenario> byName) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = Main.run(args, new PrintStream(out, true, "UTF-8"), new PrintStream(err, true, "UTF-8"), byName);
        return new String[] {String.valueOf(rc), out.toString(StandardCharsets.UTF_8),
            err.toString(StandardCharsets.UTF_8)};
    }

    @Test
    public void unknownScenarioPolicyOrFlagGetsUsageAndStatus2() throws Exception {
        for (String[] args : List.of(new String[] {"fig99"}, new String[] {"fig8", "--policy", "hpa"},
                new String[] {"fig8", "--fast"}, new String[] {"fig8", "--repeat", "0"},
                new String[] {"fig8", "--repeat", "many"})) {
            String[] r = run(args, Scenarios::byName);
            String what = String.join(" ", args) + ": " + r[2];
            assertEquals(what, "2", r[0]);
            assertTrue(what, r[2].startsWith("twin: "));
            assertTrue(what, r[2].contains(Main.USAGE));
            assertEquals(what, "", r[1]);
        }
        String[] r = run(new String[] {"fig99"}, Scenarios::byName);
        assertTrue(r[2], r[2].startsWith("twin: unknown scenario 'fig99'"));
    }

    /** A testbed whose chain sfc2 goes through vnf9, which no worker hosts. */
    private static Scenario inconsistent() {
        return new Scenario("broken", "a chain through a vNF nobody hosts", List.of(() -> {
            Fabric f = new Fabric();
            Host w1 = f.addHost(new Host("worker1", "sw2"));
            w1.addInstance("vnf1", VnfType.FWD, new Allocation(1, 2, 25, 1900), 0);
            f.addChain(new Chain("sfc1", List.of("vnf1"), t -> 1.0, Scenarios.SIZE, Scenarios.BOUND_US));
            f.addChain(new Chain("sfc2", List.of("vnf9"), t -> 1.0, Scenarios.SIZE, Scenarios.BOUND_US));
            return new Experiment("", f, 5);
        }));
    }

    @Test
    public void inconsistentScenarioIsNamedAndNothingRuns() throws Exception {
        Path out = tmp.newFolder("out").toPath();
        String[] r = run(new String[] {"broken", "--out", out.toString(), "--quiet"}, n -> inconsistent());
        assertEquals(r[2], "2", r[0]);
        assertEquals("twin: scenario broken is inconsistent: chain sfc2 goes through vNF vnf9, which no worker hosts\n",
                r[2]);
        assertFalse("no output written", Files.exists(out.resolve("broken")));
    }

    @Test
    public void fabricNamesEveryProblem() {
        Fabric f = new Fabric();
        Host w1 = f.addHost(new Host("worker1", "sw2"));
        w1.addInstance("vnf1", VnfType.SNORT, new Allocation(1, 2, 25, 1900), 0);
        f.addChain(new Chain("a", List.of("vnf1", "vnf2"), t -> 1.0, Scenarios.SIZE, Scenarios.BOUND_US));
        f.addChain(new Chain("b", List.of("vnf1"), t -> 1.0, Scenarios.SIZE, Scenarios.BOUND_US));
        f.addChain(new Chain("c", List.of(), t -> 1.0, Scenarios.SIZE, Scenarios.BOUND_US));
        assertEquals(List.of("chain a goes through vNF vnf2, which no worker hosts", "vNF vnf1 is in chains a and b",
                "chain c has no vNF"), f.problems());
    }

    @Test
    public void everyPaperScenarioIsConsistent() {
        for (String n : Scenarios.names()) {
            Scenarios.byName(n).check();
        }
    }
}
