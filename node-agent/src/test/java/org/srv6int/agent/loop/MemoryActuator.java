// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.loop;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** In-memory actuator for algorithm tests: records writes, can be told to fail. */
final class MemoryActuator implements ResourceActuator {
    final ResourceType type;
    final long[] values;
    final List<String> writes = new ArrayList<>();
    boolean fail;

    MemoryActuator(ResourceType type, long... initial) {
        this.type = type;
        this.values = initial.clone();
    }

    @Override
    public ResourceType type() {
        return type;
    }

    @Override
    public long read(int vnf) {
        return values[vnf];
    }

    @Override
    public void write(int vnf, long value, long[] allocations) throws IOException {
        if (fail) {
            throw new IOException("Permission denied");
        }
        values[vnf] = value;
        writes.add(vnf + "=" + value);
    }
}
