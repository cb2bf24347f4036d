// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cluster.atomix;

import org.junit.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.junit.Assert.assertEquals;

/**
 * The leader's heartbeat's pacing: every led topic once per {@link LeaderHeartbeat#EVERY_MS}, one
 * beat in flight per topic, failures counted (a failing beat never stops the next).
 */
public class LeaderHeartbeatTest {

    private static final long EVERY = TimeUnit.MILLISECONDS.toNanos(LeaderHeartbeat.EVERY_MS);

    private final List<String> beaten = new ArrayList<>();
    private final Map<String, CompletableFuture<Void>> pending = new HashMap<>();

    private LeaderHeartbeat heartbeat() {
        return new LeaderHeartbeat("test", t -> {
            beaten.add(t);
            CompletableFuture<Void> f = new CompletableFuture<>();
            pending.put(t, f);
            return f;
        });
    }

    @Test
    public void everyLedTopicIsBeatenOncePerPeriod() {
        LeaderHeartbeat h = heartbeat();
        h.tick(0, () -> List.of("loop", "device-a"));
        assertEquals(List.of("loop", "device-a"), beaten);
        pending.values().forEach(f -> f.complete(null));

        h.tick(EVERY - 1, () -> List.of("loop", "device-a"));
        assertEquals("not again within the period", 2, beaten.size());

        h.tick(EVERY, () -> List.of("loop"));
        assertEquals("a topic no longer led is not beaten", List.of("loop", "device-a", "loop"), beaten);
        assertEquals(3, h.sent());
        assertEquals(0, h.failures());
    }

    @Test
    public void aBeatStillInFlightHoldsBackOnlyItsTopic() {
        LeaderHeartbeat h = heartbeat();
        h.tick(0, () -> List.of("loop", "device-a"));
        pending.get("device-a").complete(null);

        h.tick(EVERY, () -> List.of("loop", "device-a"));
        assertEquals(List.of("loop", "device-a", "device-a"), beaten);

        pending.get("loop").complete(null);
        h.tick(2 * EVERY, () -> List.of("loop", "device-a"));
        assertEquals("loop answered: beaten again; device-a's second beat still in flight",
                     List.of("loop", "device-a", "device-a", "loop"), beaten);
    }

    @Test
    public void failedBeatsAreCountedAndDoNotStopTheNext() {
        int[] calls = {0};
        LeaderHeartbeat h = new LeaderHeartbeat("test", t -> {
            calls[0]++;
            if (calls[0] == 1) {
                throw new IllegalStateException("primitive closed");
            }
            return CompletableFuture.failedFuture(new TimeoutException());
        });
        h.tick(0, () -> List.of("loop"));
        h.tick(EVERY, () -> List.of("loop"));
        h.tick(2 * EVERY, () -> List.of("loop"));
        assertEquals(3, calls[0]);
        assertEquals(3, h.sent());
        assertEquals(3, h.failures());
    }
}
