// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.loop;

import org.srv6int.agent.loop.Decision.Action;
import org.srv6int.agent.window.LatencyWindow;

import java.io.IOException;
import java.util.Arrays;
import java.util.function.LongSupplier;

/**
 * The local closed loop, Algorithms 1-3 of the paper, driven by latency
 * samples (Detection Results) of the vNFs of this node.
 *
 * <p>The paper writes Algorithm 2 as a blocking sub-procedure (it waits for
 * the next N packets of the donor before Algorithm 1 goes on). Here it is a
 * <em>trial</em>: the step is taken from the donor at once and held aside;
 * the donor's next full window decides (kept, or reverted and T[donor]
 * rotated), and only then does the over-bound vNF that asked for it receive it
 * (line 17-18) — exactly the order of the paper, without stopping the other
 * vNFs' loops meanwhile. A vNF waiting for a trial takes no decision; a vNF
 * under trial gives at most one step at a time. If the donor sends no packet
 * for {@code trialTimeoutNanos}, the free is kept (no evidence it hurt).
 *
 * <p>Which vNF has resource to give is decided by a {@link SlackPolicy}: the
 * listing frees on every healthy window from the largest-slack vNF î; here î
 * gives (line 24) or lends (line 16) only while its slack is above a fraction
 * of its bound, and a donor whose free of a type was reverted is skipped when
 * choosing î for that type for a number of its own windows (docs/node-agent.md
 * section 2).
 *
 * <p>One trial window can pass before a free hurts (a vNF whose backlog the larger
 * allocation just drained serves the trial window from an empty queue and fills it after),
 * so a kept free stays watched for the policy's revert horizon: a window of the donor over
 * its bound within it counts as a revert too ({@code REVERT_LATE}): what is free of the step
 * goes back to the donor and the donor cools down for that type. Each further revert of the
 * type doubles the cool-down up to a cap, and a long stretch without one resets it, as
 * Kubernetes' HPA scale-down stabilisation and FIRM's reverted actions do; without it the
 * lab's vNF swung between two quotas for seconds (docs/lab.md).
 *
 * <p>How fast it raises is a {@link RaisePolicy} (a raise in proportion to the overshoot, windows
 * closed by time too); the cool-down and the revert horizon end at a time cap as well as a
 * window count (docs/node-agent.md section 2).
 *
 * <p>Not thread-safe: one thread calls {@link #onSample} and {@link #tick}.
 */
public final class LocalLoop {

    private static final long NONE = Cooldowns.NONE;

    private final int n;
    private final long[] lmax;
    private final LatencyWindow[] windows;
    private final ResourcePool[] pools;
    private final int availableMask;
    private final LoopListener listener;
    private final LongSupplier clock;
    private final long trialTimeoutNanos;
    private final long escalationIntervalNanos;
    private final long escalationHoldNanos;
    private final SlackPolicy slackPolicy;
    private final RaisePolicy raise;
    // per vNF: when its current window's first sample came (windows closed by time)
    private final long[] windowStart;
    // per vNF: the time the revert horizon of its watched free ends at the latest (NONE: no cap)
    private final long[] watchUntil;
    // per vNF: its last window over the bound (NONE: none yet); line 24 waits the free hold after it
    private final long[] lastOver;

    // per-vNF state in the paper's names
    private final ResourceType[] t;
    private final long[] tau;
    private final long[] lastL95;
    private final boolean[] measured;
    private final int[] tried;
    private final long[] lastEscalation;
    // where the escalation hold counts from: the first window of the vNF's unbroken run of
    // over-bound windows, or the last resource it was given since; NONE while within its bound
    private final long[] holdSince;
    // Algorithm 2 trial on vNF k (k is the donor): type, amount, beneficiary, start
    private final ResourceType[] trialType;
    private final long[] trialAmount;
    private final int[] trialFor;
    private final long[] trialStart;
    private final int[] waitingOn;
    private final Cooldowns cooldowns;
    private final ThrottleGate throttle;
    // per vNF: its consecutive windows above the free margin
    private final int[] slackRun;
    // the last kept free of vNF k, watched for the revert horizon: windows left, type, amount, beneficiary
    private final int[] watchLeft;
    private final ResourceType[] watchType;
    private final long[] watchAmount;
    private final int[] watchFor;
    private int pendingTrials;

    /**
     * Creates the loop (the listing's loop: {@link SlackPolicy#LITERAL}, {@link RaisePolicy#LITERAL}).
     *
     * @param lmaxNs Lmax[i] per vNF, ns
     * @param n window size N
     * @param pools pools indexed by {@link ResourceType#ordinal()}, null where the host lacks the type
     * @param initialType the type Algorithm 1 line 1 selects "empirically" for every vNF
     *                    (must be offered; else the first offered type is used)
     * @param listener receives windows and decisions
     * @param clock monotonic nanoseconds
     * @param trialTimeoutNanos how long an Algorithm 2 trial waits for the donor's window
     * @param escalationIntervalNanos least time between two escalations of one vNF
     * @param escalationHoldNanos how long a vNF must have been over its bound before it is escalated
     * @param slackPolicy which vNF may give or lend (margins, cool-down after a revert)
     * @param raise how much an over-bound window adds, and the windows' time cap
     * @throws IllegalArgumentException if a time is out of range
     */
    public LocalLoop(long[] lmaxNs, int n, ResourcePool[] pools, ResourceType initialType,
                     LoopListener listener, LongSupplier clock, long trialTimeoutNanos,
                     long escalationIntervalNanos, long escalationHoldNanos, SlackPolicy slackPolicy,
                     RaisePolicy raise) {
        int vnfs = lmaxNs.length;
        if (trialTimeoutNanos <= 0) {
            throw new IllegalArgumentException("trial timeout must be positive, got " + trialTimeoutNanos + " ns");
        }
        if (escalationIntervalNanos < 0) {
            throw new IllegalArgumentException("escalation interval must be >= 0, got " + escalationIntervalNanos
                    + " ns");
        }
        if (escalationHoldNanos < 0) {
            throw new IllegalArgumentException("escalation hold must be >= 0, got " + escalationHoldNanos + " ns");
        }
        if (pools.length != ResourceType.all().length) {
            throw new IllegalArgumentException("need one pool slot per resource type");
        }
        int mask = 0;
        for (ResourceType type : ResourceType.all()) {
            if (pools[type.ordinal()] != null) {
                mask |= type.bit();
            }
        }
        this.availableMask = mask;
        this.n = n;
        this.lmax = lmaxNs.clone();
        this.pools = pools.clone();
        this.listener = listener;
        this.clock = clock;
        this.trialTimeoutNanos = trialTimeoutNanos;
        this.escalationIntervalNanos = escalationIntervalNanos;
        this.escalationHoldNanos = escalationHoldNanos;
        this.slackPolicy = slackPolicy;
        this.raise = raise;
        this.windowStart = new long[vnfs];
        this.watchUntil = new long[vnfs];
        this.lastOver = new long[vnfs];
        this.cooldowns = new Cooldowns(vnfs, slackPolicy, clock);
        this.throttle = new ThrottleGate(vnfs, raise.minThrottledShare(), raise.throttleSpanNanos(), clock, listener);
        this.slackRun = new int[vnfs];
        this.watchLeft = new int[vnfs];
        this.watchType = new ResourceType[vnfs];
        this.watchAmount = new long[vnfs];
        this.watchFor = new int[vnfs];
        this.windows = new LatencyWindow[vnfs];
        this.t = new ResourceType[vnfs];
        this.tau = new long[vnfs];
        this.lastL95 = new long[vnfs];
        this.measured = new boolean[vnfs];
        this.tried = new int[vnfs];
        this.lastEscalation = new long[vnfs];
        this.holdSince = new long[vnfs];
        this.trialType = new ResourceType[vnfs];
        this.trialAmount = new long[vnfs];
        this.trialFor = new int[vnfs];
        this.trialStart = new long[vnfs];
        this.waitingOn = new int[vnfs];
        ResourceType first = mask == 0 ? initialType
                : (mask & initialType.bit()) != 0 ? initialType : initialType.next(mask);
        for (int i = 0; i < vnfs; i++) {
            windows[i] = new LatencyWindow(n);
            t[i] = first; // Algorithm 1 line 1
            lastL95[i] = -1;
            trialFor[i] = -1;
            waitingOn[i] = -1;
            lastEscalation[i] = NONE;
            holdSince[i] = NONE;
            watchUntil[i] = NONE;
            lastOver[i] = NONE;
        }
    }

    /**
     * Algorithm 1 line 4: one Detection Result of vNF i.
     *
     * @param vnf index of the vNF the packet was sent to
     * @param latencyNs the latency, ns
     */
    public void onSample(int vnf, long latencyNs) {
        LatencyWindow w = windows[vnf];
        long l95 = w.add(latencyNs);
        if (l95 >= 0) {
            onWindow(vnf, l95);
            return;
        }
        long cap = raise.windowMaxNanos();
        if (cap > 0) {
            int c = w.count();
            if (c == 1) {
                windowStart[vnf] = clock.getAsLong();
            } else if ((c & 7) == 0 && c >= raise.minWindowSamples()
                    && clock.getAsLong() - windowStart[vnf] >= cap) { // the clock read on every 8th sample only
                onWindow(vnf, w.closeEarly(raise.minWindowSamples()));
            }
        }
    }

    /**
     * Closes windows older than the time cap (a vNF whose packets stopped coming) and ends
     * Algorithm 2 trials whose donor sent nothing for the trial timeout.
     * Call now and then from the loop's thread (e.g. on a capture timeout).
     */
    public void tick() {
        long now = clock.getAsLong();
        long cap = raise.windowMaxNanos();
        if (cap > 0) {
            for (int k = 0; k < windows.length; k++) {
                if (windows[k].count() >= raise.minWindowSamples() && now - windowStart[k] >= cap) {
                    onWindow(k, windows[k].closeEarly(raise.minWindowSamples()));
                }
            }
        }
        if (pendingTrials == 0) {
            return;
        }
        for (int k = 0; k < trialType.length; k++) {
            if (trialType[k] != null && now - trialStart[k] >= trialTimeoutNanos) {
                endTrial(k, false, -1, "donor sent no window within the trial timeout");
            }
        }
    }

    private void onWindow(int i, long l95) {
        // Algorithm 1 lines 6-7
        tau[i] = lmax[i] - l95;
        cooldowns.window(i); // counts down every cool-down of vNF i
        throttle.window(i, pools[ResourceType.CPU_QUOTA.ordinal()]);
        listener.onWindow(i, l95, tau[i]);
        long previous = measured[i] ? lastL95[i] : -1;
        lastL95[i] = l95;
        measured[i] = true;
        // every window counts, also those inside a trial: the escalation hold needs an unbroken run
        if (l95 <= lmax[i]) {
            holdSince[i] = NONE;
        } else {
            lastOver[i] = clock.getAsLong();
            if (holdSince[i] == NONE) {
                holdSince[i] = lastOver[i];
            }
        }
        slackRun[i] = slackPolicy.mayFree(tau[i], lmax[i]) ? slackRun[i] + 1 : 0;
        if (trialType[i] != null) {
            // Algorithm 2 lines 3-8: this window belongs to the trial on vNF i
            endTrial(i, l95 > lmax[i], l95, "");
            return;
        }
        if (watchLeft[i] > 0 && Cooldowns.passed(watchUntil[i], clock.getAsLong())) {
            watchLeft[i] = 0; // the horizon's time cap passed before its windows did
        }
        if (watchLeft[i] > 0) {
            if (l95 > lmax[i]) {
                if (revertLate(i, l95)) {
                    return; // the step given back is this window's action
                }
            } else {
                watchLeft[i]--;
            }
        }
        if (waitingOn[i] >= 0 || availableMask == 0) {
            return; // still inside the paper's blocking call to Algorithm 2
        }
        if (l95 > lmax[i]) { // line 9
            if (previous >= 0 && l95 >= previous) { // line 10
                tried[i] |= t[i].bit();
                rotate(i, l95, "L95 did not decrease"); // line 11: Algorithm 3
            }
            ResourceType type = t[i];
            ResourcePool pool = pools[type.ordinal()];
            int donor = argmaxSlack(type); // line 8
            String notThrottled = type == ResourceType.CPU_QUOTA && pool.addAmount(i) > 0
                    ? throttle.notThrottled(i) : null;
            if (notThrottled != null) { // more quota cannot help: neither add nor borrow
                listener.onDecision(new Decision(Action.SKIP_NOT_THROTTLED, i, type, pool.allocation(i),
                        pool.allocation(i), l95, lmax[i], -1, notThrottled));
            } else if (pool.canAdd(i)) { // line 13
                // line 14: one step, more in proportion to the overshoot when the last window was over too
                add(pool, i, l95, -1, previous > lmax[i] ? raise.amount(pool, i, l95, lmax[i]) : pool.addAmount(i));
            } else if (donor >= 0 && donor != i && slackPolicy.mayTake(tau[donor], lmax[donor])
                    && trialType[donor] == null
                    && !(type == ResourceType.CPU_QUOTA && throttle.throttled(donor))
                    && pool.addAmount(i) > 0 && pool.freeAmount(donor) > 0) {
                startTrial(pool, donor, i, l95); // line 16; lines 17-18 when it ends
            } else {
                tried[i] |= type.bit();
                listener.onDecision(new Decision(Action.NO_RESOURCE, i, type, pool.allocation(i),
                        pool.allocation(i), l95, lmax[i], donor,
                        pool.addAmount(i) == 0 ? "at ceiling" : "no free resource and no donor"));
                maybeEscalate(i, l95); // only a window that found nothing to add or borrow
            }
        } else {
            tried[i] = 0;
            // line 24: free type-T[i] resource from the vNF with the largest slack
            ResourcePool pool = pools[t[i].ordinal()];
            int donor = argmaxSlack(t[i]); // line 8
            if (donor >= 0 && slackPolicy.mayFree(tau[donor], lmax[donor]) && trialType[donor] == null
                    && slackRun[donor] >= slackPolicy.freeSlackWindows() // stabilisation: slack that persists
                    // and no free right after a violation: the backlog just drained looks like slack
                    && (lastOver[donor] == NONE || clock.getAsLong() - lastOver[donor] >= slackPolicy.freeHoldNanos())
                    && waitingOn[donor] < 0
                    && !(t[i] == ResourceType.CPU_QUOTA && throttle.throttled(donor)) // its quota binds: no slack
                    && pool.freeAmount(donor) > 0) {
                startTrial(pool, donor, -1, l95);
            }
        }
    }

    /**
     * Line 8, over the vNFs that may give a type at all: measured, and not cooling down after a
     * reverted free of that type (they showed they had none to spare; other types they may still give).
     */
    private int argmaxSlack(ResourceType type) {
        int best = -1;
        long now = clock.getAsLong();
        for (int k = 0; k < tau.length; k++) {
            cooldowns.expire(k, type, now);
            if (measured[k] && cooldown(k, type) == 0 && (best < 0 || tau[k] > tau[best])) {
                best = k;
            }
        }
        return best;
    }

    private void rotate(int i, long l95, String why) {
        ResourceType old = t[i];
        t[i] = old.next(availableMask);
        listener.onDecision(new Decision(Action.ROTATE, i, t[i], old.paperIndex(), t[i].paperIndex(),
                l95, lmax[i], -1, why));
    }

    private boolean add(ResourcePool pool, int i, long l95, int donor) {
        return add(pool, i, l95, donor, pool.addAmount(i));
    }

    private boolean add(ResourcePool pool, int i, long l95, int donor, long amount) {
        long from = pool.allocation(i);
        long to = from + amount;
        try {
            pool.set(i, to);
        } catch (IOException | RuntimeException e) {
            listener.onDecision(new Decision(Action.ACTUATOR_ERROR, i, pool.type(), from, to, l95,
                    lmax[i], donor, String.valueOf(e.getMessage())));
            return false;
        }
        String throttled = pool.type() == ResourceType.CPU_QUOTA ? throttle.describe(i) : "";
        listener.onDecision(new Decision(Action.ADD, i, pool.type(), from, to, l95, lmax[i], donor,
                (amount > pool.step() ? (amount + pool.step() - 1) / pool.step() + " steps: L95 "
                + String.format("%.1f", (double) l95 / lmax[i]) + " x Lmax" + (throttled.isEmpty() ? "" : "; ")
                : "") + throttled));
        if (holdSince[i] != NONE) {
            holdSince[i] = clock.getAsLong(); // still absorbing: the hold starts again
        }
        return true;
    }

    private void startTrial(ResourcePool pool, int donor, int beneficiary, long l95) {
        long amount = pool.freeAmount(donor);
        long from = pool.allocation(donor);
        try {
            pool.set(donor, from - amount); // Algorithm 2 line 1
        } catch (IOException | RuntimeException e) {
            listener.onDecision(new Decision(Action.ACTUATOR_ERROR, donor, pool.type(), from,
                    from - amount, -1, lmax[donor], beneficiary, String.valueOf(e.getMessage())));
            return;
        }
        pool.reserve(amount);
        slackRun[donor] = 0; // the slack seen was at the larger allocation
        watchLeft[donor] = 0; // the new trial judges the newest free
        trialType[donor] = pool.type();
        trialAmount[donor] = amount;
        trialFor[donor] = beneficiary;
        trialStart[donor] = clock.getAsLong();
        pendingTrials++;
        if (beneficiary >= 0) {
            waitingOn[beneficiary] = donor;
        }
        windows[donor].reset(); // line 2: judge the donor on packets after the free
        listener.onDecision(new Decision(Action.FREE, donor, pool.type(), from, from - amount,
                beneficiary >= 0 ? l95 : lastL95[donor], lmax[donor], beneficiary,
                beneficiary >= 0 ? "for an over-bound vNF" : "slack"));
    }

    private void endTrial(int donor, boolean broke, long l95, String why) {
        ResourceType type = trialType[donor];
        ResourcePool pool = pools[type.ordinal()];
        long amount = trialAmount[donor];
        int beneficiary = trialFor[donor];
        trialType[donor] = null;
        trialFor[donor] = -1;
        pendingTrials--;
        pool.release(amount);
        if (beneficiary >= 0) {
            waitingOn[beneficiary] = -1;
        }
        if (broke) {
            cooldowns.start(donor, type); // nothing of it to spare
            long from = pool.allocation(donor);
            try {
                pool.set(donor, from + amount); // Algorithm 2 line 6
                listener.onDecision(new Decision(Action.REVERT, donor, type, from, from + amount, l95,
                        lmax[donor], beneficiary, "L95 above Lmax after the free"));
            } catch (IOException | RuntimeException e) {
                listener.onDecision(new Decision(Action.ACTUATOR_ERROR, donor, type, from, from + amount,
                        l95, lmax[donor], beneficiary, "revert failed: " + e.getMessage()));
            }
            rotate(donor, l95, "Algorithm 2 reverted a free"); // line 7
            return;
        }
        long now = pool.allocation(donor);
        listener.onDecision(new Decision(Action.FREE_KEPT, donor, type, now + amount, now, l95,
                lmax[donor], beneficiary, why));
        watchLeft[donor] = slackPolicy.revertHorizonWindows();
        long horizonCap = slackPolicy.revertHorizonCapNanos();
        watchUntil[donor] = horizonCap > 0 ? clock.getAsLong() + horizonCap : NONE;
        watchType[donor] = type;
        watchAmount[donor] = amount;
        watchFor[donor] = beneficiary;
        if (beneficiary >= 0 && pool.canAdd(beneficiary) && add(pool, beneficiary, lastL95[beneficiary], donor)) {
            // lines 17-18; line 10 of its next window compares packets served after the add only
            windows[beneficiary].reset();
        }
    }

    /**
     * A kept free whose donor went over its bound within the revert horizon: gives the step back as far
     * as the free pool has it (a beneficiary keeps what it was given: it asked for it over its own
     * bound) and starts the donor's cool-down for the type. T[donor] is not rotated: the step given
     * back is the type it lacked.
     *
     * @return true if something was given back
     */
    private boolean revertLate(int i, long l95) {
        ResourceType type = watchType[i];
        ResourcePool pool = pools[type.ordinal()];
        int after = slackPolicy.revertHorizonWindows() - watchLeft[i] + 1;
        watchLeft[i] = 0;
        long from = pool.allocation(i);
        long back = Math.min(watchAmount[i], Math.min(pool.addAmount(i), Math.max(0, pool.free())));
        if (back > 0) {
            try {
                pool.set(i, from + back);
            } catch (IOException | RuntimeException e) {
                listener.onDecision(new Decision(Action.ACTUATOR_ERROR, i, type, from, from + back, l95, lmax[i],
                        watchFor[i], "late revert failed: " + e.getMessage()));
                back = 0;
            }
        }
        int windows = cooldowns.start(i, type);
        listener.onDecision(new Decision(Action.REVERT_LATE, i, type, from, from + back, l95, lmax[i],
                watchFor[i], "L95 above Lmax " + after + " window(s) after a kept free; cool-down " + windows
                + " windows"));
        if (back > 0 && holdSince[i] != NONE) {
            holdSince[i] = clock.getAsLong(); // given something: the escalation hold starts again
        }
        return back > 0;
    }

    /**
     * Holds an amount of a type for pods of the node the loop does not manage (what the
     * scheduler promised them: their requests), so no vNF is given it; when the vNFs hold
     * more than the rest, takes the excess back, from the vNF with the largest slack first
     * (a vNF without a window yet counts slack 0: after those with slack, before those over
     * their bound), each at most down to its floor, one write per vNF.
     *
     * @param type resource type (ignored if the host does not offer it)
     * @param amount held amount, not negative
     * @return how much of the held amount the vNFs still hold (floors, or a refused write); 0 when none
     */
    public long hold(ResourceType type, long amount) {
        ResourcePool pool = pools[type.ordinal()];
        if (pool == null) {
            return 0;
        }
        pool.hold(amount);
        long overCommit = Math.max(0, -(pool.free() + amount)); // found at start, not due to holds: not ours to cut
        Integer[] order = new Integer[lmax.length];
        for (int k = 0; k < order.length; k++) {
            order[k] = k;
        }
        Arrays.sort(order, (a, b) -> Long.compare(tau[b], tau[a])); // a vNF without a window counts slack 0
        for (int k : order) {
            long over = -pool.free() - overCommit;
            long cut = Math.min(over, pool.allocation(k) - pool.floor(k));
            if (cut <= 0) {
                continue;
            }
            long from = pool.allocation(k);
            try {
                pool.set(k, from - cut);
                listener.onDecision(new Decision(Action.RECLAIM, k, type, from, from - cut, lastL95[k], lmax[k], -1,
                        "held for pods of the node the agent does not manage"));
            } catch (IOException | RuntimeException e) {
                listener.onDecision(new Decision(Action.ACTUATOR_ERROR, k, type, from, from - cut, lastL95[k],
                        lmax[k], -1, "reclaim failed: " + e.getMessage()));
            }
        }
        return Math.max(0, -pool.free() - overCommit);
    }

    /**
     * Escalates only a violation the local loop has given up on. Called from a window that found
     * nothing to add or borrow (so no Algorithm 2 trial is pending for the vNF, nor on it); it also
     * needs every offered type tried and the vNF over its bound in every window, and given nothing,
     * for the escalation hold, so a transient the loop absorbs within it stays local; then at most
     * once per interval.
     */
    private void maybeEscalate(int i, long l95) {
        if ((tried[i] & availableMask) != availableMask) {
            return;
        }
        long now = clock.getAsLong();
        long over = now - holdSince[i];
        if (over < escalationHoldNanos) {
            return;
        }
        if (lastEscalation[i] != NONE && now - lastEscalation[i] < escalationIntervalNanos) {
            return;
        }
        lastEscalation[i] = now;
        listener.onDecision(new Decision(Action.ESCALATE, i, null, -1, -1, l95, lmax[i], -1,
                "every offered resource type tried, over the bound and given nothing for " + over / 1_000_000 + " ms"));
        listener.onEscalation(i, l95, lmax[i], tried[i]);
    }

    /**
     * T[i] of a vNF.
     *
     * @param vnf index
     * @return the resource type Algorithm 1 adjusts next for it
     */
    public ResourceType resourceType(int vnf) {
        return t[vnf];
    }

    /**
     * τ[i] of the last window.
     *
     * @param vnf index
     * @return slack in ns (0 before the first window)
     */
    public long slack(int vnf) {
        return tau[vnf];
    }

    /**
     * What Algorithm 2 could take of a type for a newcomer: the allocations above their floors
     * of the vNFs whose last window leaves the slack line 16 takes from (the pool report's
     * {@code reclaimable}, docs/node-agent.md "Pool report").
     *
     * @param type resource type
     * @return amount in the type's unit, 0 if the host does not offer it
     */
    public long reclaimable(ResourceType type) {
        ResourcePool pool = pools[type.ordinal()];
        if (pool == null) {
            return 0;
        }
        long sum = 0;
        for (int i = 0; i < lmax.length; i++) {
            if (lastL95[i] >= 0 && slackPolicy.mayTake(tau[i], lmax[i])) {
                sum += Math.max(0, pool.allocation(i) - pool.floor(i));
            }
        }
        return sum;
    }

    /**
     * L95 of the last window.
     *
     * @param vnf index
     * @return ns, or -1 before the first window
     */
    public long l95(int vnf) {
        return lastL95[vnf];
    }

    /**
     * Windows left before a vNF whose free of a type was reverted may give that type again.
     *
     * @param vnf index
     * @param type resource type
     * @return 0 when it may give
     */
    public int cooldown(int vnf, ResourceType type) {
        return cooldowns.left(vnf, type);
    }

    /**
     * Reverted frees of a type in a row as counted at the last one (the cool-down's doubling).
     *
     * @param vnf index
     * @param type resource type
     * @return count
     */
    public int revertsInARow(int vnf, ResourceType type) {
        return cooldowns.revertsInARow(vnf, type);
    }

    /**
     * Windows left in which a kept free of this vNF still counts as reverted if the vNF goes over its bound.
     *
     * @param vnf index
     * @return 0 when no free is watched
     */
    public int revertWatch(int vnf) {
        return Cooldowns.passed(watchUntil[vnf], clock.getAsLong()) ? 0 : watchLeft[vnf];
    }

    /**
     * Whether an Algorithm 2 trial is pending on this vNF as donor.
     *
     * @param vnf index
     * @return true while its free waits for its next window
     */
    public boolean onTrial(int vnf) {
        return trialType[vnf] != null;
    }

    /**
     * The pool of a type.
     *
     * @param type resource type
     * @return pool, or null if the host does not offer it
     */
    public ResourcePool pool(ResourceType type) {
        return pools[type.ordinal()];
    }

    /**
     * Types the host offers.
     *
     * @return {@link ResourceType#bit()} set
     */
    public int availableMask() {
        return availableMask;
    }

    /**
     * Number of vNFs.
     *
     * @return count
     */
    public int vnfCount() {
        return lmax.length;
    }

    /**
     * Window size N.
     *
     * @return N
     */
    public int windowSize() {
        return n;
    }
}
