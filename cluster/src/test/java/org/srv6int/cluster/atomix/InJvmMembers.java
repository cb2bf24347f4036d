// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cluster.atomix;

import java.io.File;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

import static org.junit.Assert.fail;

/** Three real Atomix members in this JVM on loopback ports: the in-JVM tests' cluster. */
final class InJvmMembers {

    /** How long the members may take to form (a loaded CI machine). */
    static final Duration FORM = Duration.ofMinutes(3);

    /** How long a test waits for a state the members must reach. */
    static final long DEADLINE_MS = 60_000;

    /** Member ids to host:port, m1..m3. */
    final Map<String, String> members = new LinkedHashMap<>();
    /** The members, in id order (a test may replace one it restarted). */
    final List<AtomixNode> nodes = new ArrayList<>();
    /** Where the members keep their data, one directory each. */
    final File dir;

    private InJvmMembers(File dir) {
        this.dir = dir;
    }

    /**
     * Starts three members at once and waits until they formed.
     *
     * @param name the data directory's prefix
     * @return the members
     * @throws Exception if a port or the directory cannot be had, or a start is interrupted
     */
    static InJvmMembers start(String name) throws Exception {
        InJvmMembers c = new InJvmMembers(Files.createTempDirectory(name).toFile());
        for (int i = 1; i <= 3; i++) {
            try (ServerSocket s = new ServerSocket(0)) {
                c.members.put("m" + i, "127.0.0.1:" + s.getLocalPort());
            }
        }
        List<Thread> starts = new ArrayList<>();
        for (String id : c.members.keySet()) {
            AtomixNode n = new AtomixNode(id, c.members, new File(c.dir, id));
            c.nodes.add(n);
            Thread t = new Thread(() -> n.start(FORM));
            t.start();
            starts.add(t);
        }
        for (Thread t : starts) {
            t.join();
        }
        return c;
    }

    /** Stops every member (those stopped already are skipped). */
    void stop() {
        for (AtomixNode n : nodes) {
            try {
                n.stop();
            } catch (RuntimeException e) {
                // stopped already
            }
        }
    }

    /**
     * Waits until a state the members must reach holds, polling; fails after {@link #DEADLINE_MS}.
     *
     * @param what what is awaited, for the failure
     * @param done the state
     * @throws InterruptedException if interrupted
     */
    static void await(String what, BooleanSupplier done) throws InterruptedException {
        long end = System.currentTimeMillis() + DEADLINE_MS;
        while (!done.getAsBoolean()) {
            if (System.currentTimeMillis() > end) {
                fail(what + " not within " + DEADLINE_MS + " ms");
            }
            Thread.sleep(50);
        }
    }
}
