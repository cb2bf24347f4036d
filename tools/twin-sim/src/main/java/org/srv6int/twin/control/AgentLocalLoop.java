package org.srv6int.twin.control;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.ToDoubleFunction;
import org.srv6int.k8s.agent.loop.LocalLoop;
import org.srv6int.k8s.agent.loop.LoopListener;
import org.srv6int.k8s.agent.loop.ResourceActuator;
import org.srv6int.k8s.agent.loop.ResourcePool;
import org.srv6int.k8s.agent.loop.ResourceType;
import org.srv6int.twin.model.Fabric;
import org.srv6int.twin.model.Host;
import org.srv6int.twin.model.Resource;
import org.srv6int.twin.model.VnfInstance;

/**
 * Runs the node agent's own local loop ({@link LocalLoop}, Algorithms 1-3, unchanged) on a
 * simulated worker: its actuators write the simulated host's allocations in the agent's units
 * (millicores, ways, percent, kHz). When a pod starts on the host the loop is rebuilt with one
 * more vNF, reading every allocation back, as a restarted agent would.
 */
public final class AgentLocalLoop implements Fabric.DetectionSink {
    private static final ResourceType[] TYPES = {ResourceType.CPU_QUOTA, ResourceType.LLC,
        ResourceType.MEMORY_BANDWIDTH, ResourceType.CPU_FREQUENCY};
    private static final double[] UNIT = {1000.0, 1.0, 1.0, 1000.0};

    private final Host host;
    private final ToDoubleFunction<String> boundUs;
    private final LongSupplier clock;
    private List<VnfInstance> vnfs = new ArrayList<>();
    private LocalLoop loop;
    private long samples;

    /**
     * Creates the adapter.
     *
     * @param host the worker
     * @param boundUs Lmax of a pod id, microseconds
     * @param clock simulated nanoseconds
     */
    public AgentLocalLoop(Host host, ToDoubleFunction<String> boundUs, LongSupplier clock) {
        this.host = host;
        this.boundUs = boundUs;
        this.clock = clock;
    }

    private static Resource twin(ResourceType t) {
        return Resource.values()[t.ordinal()];
    }

    private void rebuild() {
        vnfs = host.instances();
        int n = vnfs.size();
        long[] lmax = new long[n];
        for (int i = 0; i < n; i++) {
            lmax[i] = Math.round(boundUs.applyAsDouble(vnfs.get(i).id()) * 1000);
        }
        ResourcePool[] pools = new ResourcePool[TYPES.length];
        for (ResourceType t : TYPES) {
            Resource r = twin(t);
            double u = UNIT[t.ordinal()];
            long[] floor = new long[n];
            long[] ceiling = new long[n];
            long[] initial = new long[n];
            for (int i = 0; i < n; i++) {
                floor[i] = Math.round(r.min() * u);
                ceiling[i] = Math.round(r.max() * u);
                initial[i] = Math.round(vnfs.get(i).allocation().get(r) * u);
            }
            pools[t.ordinal()] = new ResourcePool(new HostActuator(t), Math.round(r.step() * u),
                    Math.round(r.pool() * u), floor, ceiling, initial);
        }
        loop = new LocalLoop(lmax, 1500, pools, ResourceType.CPU_QUOTA, LoopListener.NONE, clock,
                1_000_000_000L, Long.MAX_VALUE);
    }

    @Override
    public void onDetection(VnfInstance instance, long latencyNs) {
        if (loop == null || host.instances().size() != vnfs.size()) {
            rebuild();
        }
        int idx = vnfs.indexOf(instance);
        if (idx < 0) {
            return;
        }
        loop.onSample(idx, latencyNs);
        if (++samples % 1000 == 0) {
            loop.tick();
        }
    }

    /** Writes one resource type into the simulated host, refusing what the host refuses. */
    private final class HostActuator implements ResourceActuator {
        private final ResourceType type;

        HostActuator(ResourceType type) {
            this.type = type;
        }

        @Override
        public ResourceType type() {
            return type;
        }

        @Override
        public long read(int vnf) {
            return Math.round(vnfs.get(vnf).allocation().get(twin(type)) * UNIT[type.ordinal()]);
        }

        @Override
        public void write(int vnf, long value, long[] allocations) throws IOException {
            String id = vnfs.get(vnf).id();
            if (!host.set(id, twin(type), value / UNIT[type.ordinal()])) {
                throw new IOException(type + " " + value + " refused for " + id);
            }
        }
    }
}
