// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.placement;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * Drain by flows (issue 18 item 2) for one chain's bucket table: a bucket whose
 * replica is still alive moves to its new replica only once its flows are gone,
 * i.e. once the bucket's packet counter (the direct counter of its encap entry)
 * has not moved for {@code idleMs}, or when the move has waited
 * {@code deadlineMs} (then it moves anyway, counted as forced). The caller
 * says which replicas' buckets wait (scale-in, a lower weight); a bucket of
 * any other replica (dead, gone, or one that gives a share to a new replica
 * on scale-out) moves at once. A bucket that moved less than
 * {@code holdMs} ago does not move again unless its replica died (hysteresis
 * against a replica that flaps, counted).
 *
 * <p>Why the counter and not per-flow pinning: pinning needs a per-flow entry
 * (a table the data plane cannot insert into at line rate on BMv2 or Tofino, or
 * one controller write per new flow), while the per-bucket counter is already
 * counted by the switch and read by ONOS with its flow statistics. The price is
 * that a bucket with a continuous stream of new flows is never idle and moves
 * only at its deadline. See docs/failures.md, "Drain by flows".
 *
 * <p>Plain Java on a caller's clock; not thread-safe (one per chain, used by
 * the programming thread).
 *
 * @param <K> replica key
 */
public final class BucketDrain<K> {

    private long idleMs;
    private long deadlineMs;
    private long holdMs;
    private final long[] lastPackets;
    private final long[] lastChange;
    private final long[] lastRead;
    private final long[] waitingSince;
    private final long[] lastMoved;
    private final boolean[] heldCounted;
    private long drained;
    private long forced;
    private long atOnce;
    private long held;

    /**
     * Creates the drain state of one bucket table.
     *
     * @param buckets    bucket count
     * @param idleMs     a bucket whose counter did not move this long has no flows left
     * @param deadlineMs a move waits at most this long
     * @param holdMs     a bucket that moved this recently moves again only on a failure
     */
    public BucketDrain(int buckets, long idleMs, long deadlineMs, long holdMs) {
        checkArgument(buckets > 0, "buckets must be > 0");
        setTimes(idleMs, deadlineMs, holdMs);
        lastPackets = new long[buckets];
        lastChange = new long[buckets];
        lastRead = new long[buckets];
        waitingSince = new long[buckets];
        lastMoved = new long[buckets];
        heldCounted = new boolean[buckets];
        Arrays.fill(lastPackets, -1);
        Arrays.fill(lastChange, Long.MIN_VALUE);
        Arrays.fill(lastRead, Long.MIN_VALUE);
        Arrays.fill(waitingSince, Long.MIN_VALUE);
        Arrays.fill(lastMoved, Long.MIN_VALUE);
    }

    /**
     * Changes the three durations (netcfg); buckets waiting keep their wait's start, so a shorter
     * deadline may move them at the next look.
     *
     * @param idleMs     a bucket whose counter did not move this long has no flows left, &gt; 0
     * @param deadlineMs a move waits at most this long, &ge; idleMs
     * @param holdMs     a bucket that moved this recently moves again only on a failure, &ge; 0
     * @throws IllegalArgumentException on a bad value (nothing is changed)
     */
    public void setTimes(long idleMs, long deadlineMs, long holdMs) {
        checkArgument(idleMs > 0, "idleMs must be > 0, got %s", idleMs);
        checkArgument(deadlineMs >= idleMs, "deadlineMs (%s) must be >= idleMs (%s)", deadlineMs, idleMs);
        checkArgument(holdMs >= 0, "holdMs must be >= 0, got %s", holdMs);
        this.idleMs = idleMs;
        this.deadlineMs = deadlineMs;
        this.holdMs = holdMs;
    }

    /**
     * Records a reading of a bucket's packet counter.
     *
     * @param bucket  bucket
     * @param packets its counter (a counter that went back, e.g. a re-installed
     *                entry, counts as a change)
     * @param nowMs   time of the reading
     */
    public void observe(int bucket, long packets, long nowMs) {
        lastRead[bucket] = nowMs;
        if (packets != lastPackets[bucket]) {
            lastPackets[bucket] = packets;
            lastChange[bucket] = nowMs;
        }
    }

    /**
     * Decides which buckets move now.
     *
     * @param installed the replica of each bucket on the switch now (null: none)
     * @param target    where {@link BucketAssignment} wants each bucket
     * @param alive     replicas whose buckets wait for their flows (alive and
     *                  draining or losing weight); a bucket of any other replica
     *                  moves at once
     * @param nowMs     now
     * @return the replica of each bucket to install now
     */
    public List<K> step(List<K> installed, List<K> target, Set<K> alive, long nowMs) {
        checkArgument(installed.size() == lastChange.length && target.size() == lastChange.length,
                      "bucket tables of %s buckets expected", lastChange.length);
        List<K> next = new ArrayList<>(installed);
        for (int b = 0; b < lastChange.length; b++) {
            K from = installed.get(b);
            K to = target.get(b);
            if (from == null ? to == null : from.equals(to)) {
                waitingSince[b] = Long.MIN_VALUE;
                heldCounted[b] = false;
                continue;
            }
            if (from == null || !alive.contains(from)) {
                move(next, b, to, nowMs);
                if (from != null) {
                    atOnce++;
                }
                continue;
            }
            if (to == null) {
                // nowhere to go: the flows stay where they are
                continue;
            }
            if (waitingSince[b] == Long.MIN_VALUE) {
                waitingSince[b] = nowMs;
            }
            if (lastMoved[b] != Long.MIN_VALUE && nowMs - lastMoved[b] < holdMs) {
                if (!heldCounted[b]) {
                    held++;
                    heldCounted[b] = true;
                }
                continue;
            }
            // idle: a reading taken since the wait began showed no packet for idleMs (no reading, no move)
            boolean idle = lastChange[b] != Long.MIN_VALUE && lastRead[b] >= waitingSince[b]
                    && lastRead[b] - lastChange[b] >= idleMs;
            if (idle) {
                drained++;
                move(next, b, to, nowMs);
            } else if (nowMs - waitingSince[b] >= deadlineMs) {
                forced++;
                move(next, b, to, nowMs);
            }
        }
        return next;
    }

    private void move(List<K> next, int b, K to, long nowMs) {
        next.set(b, to);
        lastMoved[b] = nowMs;
        waitingSince[b] = Long.MIN_VALUE;
        heldCounted[b] = false;
    }

    /**
     * Returns how many buckets wait for their flows now.
     *
     * @return waiting buckets
     */
    public int waiting() {
        int n = 0;
        for (long w : waitingSince) {
            if (w != Long.MIN_VALUE) {
                n++;
            }
        }
        return n;
    }

    /**
     * Returns the moves made after a bucket's flows were gone.
     *
     * @return drained moves
     */
    public long drained() {
        return drained;
    }

    /**
     * Returns the moves made at the drain deadline with flows still active.
     *
     * @return forced moves
     */
    public long forced() {
        return forced;
    }

    /**
     * Returns the moves made at once: the bucket's replica was not one whose
     * flows are waited for (dead, gone, or a scale-out taking its share).
     *
     * @return moves made at once
     */
    public long movedAtOnce() {
        return atOnce;
    }

    /**
     * Returns how many moves the hold delayed (a bucket that had just moved).
     *
     * @return held moves
     */
    public long held() {
        return held;
    }
}
