// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cluster;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.Assert.assertTrue;

/**
 * A steady write load on a cluster: probe keys written round-robin through every live member
 * (one write per member every ~20 ms), each remembered as attempted and, if the member answered
 * 200, as accepted; then every accepted write must be in the store and nothing else under the
 * prefix (no write lost, none invented).
 */
final class ProbeWriter extends Thread {

    private final MemberProcesses cluster;
    private final AtomicBoolean stop = new AtomicBoolean();
    private final Set<String> accepted = ConcurrentHashMap.newKeySet();
    private final Set<String> attempted = ConcurrentHashMap.newKeySet();
    private final Map<String, AtomicInteger> sent = new LinkedHashMap<>();
    private final Map<String, AtomicInteger> ok = new LinkedHashMap<>();
    private final String prefix;

    ProbeWriter(MemberProcesses cluster, String prefix) {
        this.cluster = cluster;
        this.prefix = prefix;
        for (String id : cluster.ids()) {
            sent.put(id, new AtomicInteger());
            ok.put(id, new AtomicInteger());
        }
        setDaemon(true);
    }

    @Override
    public void run() {
        int n = 0;
        while (!stop.get()) {
            for (String id : cluster.ids()) {
                if (!cluster.alive(id)) {
                    continue;
                }
                String key = prefix + (n++);
                attempted.add(key);
                sent.get(id).incrementAndGet();
                if (cluster.call(id, "POST", "/probe?key=" + key + "&value=" + id) != null) {
                    accepted.add(key);
                    ok.get(id).incrementAndGet();
                }
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Stops the load and waits for the write in flight. */
    void finish() throws InterruptedException {
        stop.set(true);
        join();
    }

    int accepted() {
        return accepted.size();
    }

    int accepted(String id) {
        return ok.get(id).get();
    }

    /** Writes accepted / sent per member. */
    String counts() {
        StringBuilder b = new StringBuilder();
        sent.forEach((id, s) -> b.append(id).append(' ').append(ok.get(id)).append('/').append(s).append(' '));
        return b.toString().trim();
    }

    // A member may take a moment to answer right after a fault is healed: poll, with a deadline.
    private JsonNode read(String id) {
        long t0 = System.nanoTime();
        long end = t0 + 60_000_000_000L;
        int tries = 0;
        while (true) {
            JsonNode r = cluster.call(id, "GET", "/probe");
            tries++;
            if (r != null || System.nanoTime() > end) {
                assertTrue(id + " did not answer a read of the store within 60 s (" + tries + " tries); its status: "
                                   + cluster.status(id) + "\n" + cluster.log(id), r != null);
                return r;
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(ex);
            }
        }
    }

    /**
     * Checks, as each reader reads the store, that no accepted write is missing and no key under
     * the prefix was never written.
     *
     * @return how many refused writes are in the store all the same (outcome unknown to the writer)
     */
    int assertNothingLost(List<String> readers) {
        int refusedButStored = 0;
        for (String id : readers) {
            JsonNode e = read(id).path("entries");
            List<String> lost = new ArrayList<>();
            for (String k : accepted) {
                if (!e.has(k)) {
                    lost.add(k);
                }
            }
            List<String> invented = new ArrayList<>();
            int refused = 0;
            for (Iterator<String> it = e.fieldNames(); it.hasNext();) {
                String k = it.next();
                if (k.startsWith(prefix) && !attempted.contains(k)) {
                    invented.add(k);
                }
                refused += k.startsWith(prefix) && !accepted.contains(k) ? 1 : 0;
            }
            assertTrue(id + " lost accepted writes " + lost, lost.isEmpty());
            assertTrue(id + " holds writes nobody made " + invented, invented.isEmpty());
            refusedButStored = Math.max(refusedButStored, refused);
        }
        return refusedButStored;
    }
}
