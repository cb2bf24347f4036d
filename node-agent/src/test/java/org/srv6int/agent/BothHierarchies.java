// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent;

import org.junit.Rule;
import org.junit.rules.TemporaryFolder;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;
import org.srv6int.agent.actuate.CgroupVersion;

import java.util.List;

/**
 * A loop test run on the fake worker of each cgroup hierarchy (v2, then v1): the one place that
 * parameterises them; a subclass has a public constructor taking the version and builds its host
 * with {@link #worker()}.
 */
@RunWith(Parameterized.class)
public abstract class BothHierarchies {

    /**
     * The hierarchies.
     *
     * @return v2, v1
     */
    @Parameters(name = "cgroup {0}")
    public static List<CgroupVersion> versions() {
        return List.of(CgroupVersion.V2, CgroupVersion.V1);
    }

    @Rule
    public TemporaryFolder tmp = new TemporaryFolder();

    /** The hierarchy of this run. */
    protected final CgroupVersion version;

    protected BothHierarchies(CgroupVersion version) {
        this.version = version;
    }

    /**
     * A fresh fake worker of this run's hierarchy in the test's temporary folder.
     *
     * @return the worker
     */
    protected FakeHost worker() {
        return FakeHost.worker(tmp.getRoot().toPath(), version);
    }
}
