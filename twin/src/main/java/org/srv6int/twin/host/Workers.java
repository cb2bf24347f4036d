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
 * deleted on {@link #close()}.
 */
public final class Workers implements AutoCloseable {
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
            dir = Files.createTempDirectory("twin-hosts-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the simulated hosts' directory", e);
        }
        Workers w = new Workers(dir);
        for (Host h : hosts) {
            w.byName.put(h.name(), new SimulatedWorker(h, dir.resolve(h.name())));
        }
        return w;
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
