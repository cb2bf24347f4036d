// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.host;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.srv6int.twin.model.Host;

/**
 * The simulated workers of one run: a temporary directory with one file tree per worker,
 * deleted on {@link #close()}. The directory is in memory ({@code /dev/shm}) where the machine
 * has one: the node agents' actuators open and rewrite these files thousands of times a
 * simulated second, and on a disk file system the kernel's journal made that most of a scale
 * run's system time and half its wall time (docs/twin.md section 14). The property
 * {@code srv6int.twin.hostsDir} names another parent directory.
 */
public final class Workers implements AutoCloseable {
    /** System property: the parent directory of the simulated hosts' trees. */
    public static final String HOSTS_DIR_PROPERTY = "srv6int.twin.hostsDir";

    private final Path dir;
    private final Map<String, SimulatedWorker> byName = new LinkedHashMap<>();

    private Workers(Path dir) {
        this.dir = dir;
    }

    /**
     * Creates a tree per host under a fresh temporary directory.
     *
     * @param hosts the modelled workers
     * @return the workers
     */
    public static Workers create(List<Host> hosts) {
        Path dir;
        try {
            dir = Files.createTempDirectory(parent(), "twin-hosts-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the simulated hosts' directory", e);
        }
        Workers w = new Workers(dir);
        for (Host h : hosts) {
            w.byName.put(h.name(), new SimulatedWorker(h, dir.resolve(h.name())));
        }
        return w;
    }

    /** Where the runs' directories go: the property, else /dev/shm if writable, else java.io.tmpdir. */
    static Path parent() {
        String configured = System.getProperty(HOSTS_DIR_PROPERTY);
        if (configured != null && !configured.isEmpty()) {
            return Path.of(configured);
        }
        Path shm = Path.of("/dev/shm");
        if (Files.isDirectory(shm) && Files.isWritable(shm)) {
            return shm;
        }
        return Path.of(System.getProperty("java.io.tmpdir"));
    }

    /** All workers, in host order. */
    public List<SimulatedWorker> all() {
        return new ArrayList<>(byName.values());
    }

    /**
     * A worker by host name.
     *
     * @param host node name
     * @return the worker
     */
    public SimulatedWorker get(String host) {
        SimulatedWorker w = byName.get(host);
        if (w == null) {
            throw new IllegalArgumentException("no simulated worker " + host);
        }
        return w;
    }

    /** Applies what was written to every worker's files to the model; call every tick. */
    public void apply() {
        for (SimulatedWorker w : byName.values()) {
            w.apply();
        }
    }

    /** The run's directory. */
    public Path dir() {
        return dir;
    }

    @Override
    public void close() {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a leftover temp directory is harmless
        }
    }
}
