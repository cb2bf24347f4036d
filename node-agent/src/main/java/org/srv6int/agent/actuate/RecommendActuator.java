// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.actuate;

import java.util.HashMap;
import java.util.Map;
import org.srv6int.agent.loop.ResourceActuator;
import org.srv6int.agent.loop.ResourceType;

import java.io.IOException;

/**
 * Recommend mode (dry run): reads pass through to the real actuator, writes are handed
 * to a {@link Sink} that publishes them and touch nothing on the host. The loop then goes
 * on as if the value held, so what it publishes is what the enforcing agent would do;
 * a value equal to what the host (or the previous recommendation) holds is not published.
 */
public final class RecommendActuator implements ResourceActuator {

    /** Receives each value the loop would write. */
    @FunctionalInterface
    public interface Sink {
        /**
         * A value the enforcing agent would write now.
         *
         * @param vnf vNF index
         * @param type resource type
         * @param value the value
         */
        void recommend(int vnf, ResourceType type, long value);
    }

    private final ResourceActuator real;
    private final Sink sink;
    private final Map<Integer, Long> last = new HashMap<>();

    /**
     * Wraps an actuator.
     *
     * @param real the actuator an enforcing agent would use (only read)
     * @param sink receives the recommendations
     */
    public RecommendActuator(ResourceActuator real, Sink sink) {
        this.real = real;
        this.sink = sink;
    }

    @Override
    public ResourceType type() {
        return real.type();
    }

    @Override
    public long read(int vnf) throws IOException {
        return real.read(vnf);
    }

    @Override
    public void write(int vnf, long value, long[] allocations) {
        Long before = last.get(vnf);
        if (before == null) {
            try {
                before = real.read(vnf);
            } catch (IOException e) {
                before = -1L;
            }
        }
        last.put(vnf, value);
        if (before.longValue() != value) {
            sink.recommend(vnf, real.type(), value); // only what would change
        }
    }
}
