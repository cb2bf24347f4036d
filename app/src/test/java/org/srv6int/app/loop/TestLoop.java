// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import org.srv6int.app.api.NodePoolService;
import org.srv6int.app.api.ReplicaPlatform;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.store.LoopStateStore;

import java.util.List;
import java.util.function.Predicate;

/**
 * Test double around the loop core: a {@link LoopCore} from the builder whose window of each
 * round is the observations the test gives ({@link #round}), without failure detection (no
 * detection inputs) or interference learning, so tests of Algorithm 4 drive exactly the core's
 * round. Ports set before the first round; the loop's state read through {@link GlobalLoop}.
 */
final class TestLoop {

    private final LoopCoreBuilder builder;
    private List<VnfObservation> next = List.of();
    private LoopCore core;

    TestLoop(LoopParams params, LoopClock clock, ReplicaPlatform platform, ChainRouting routing) {
        this(params, clock, platform, routing, null);
    }

    TestLoop(LoopParams params, LoopClock clock, ReplicaPlatform platform, ChainRouting routing,
             LoopStateStore store) {
        builder = LoopCore.builder().params(params).clock(clock).platform(platform).routing(routing).store(store)
                .observations(s -> next);
    }

    TestLoop setColocation(Colocation c) {
        builder.colocation(c);
        return this;
    }

    TestLoop setPools(NodePoolService p) {
        builder.pools(p);
        return this;
    }

    TestLoop setSteering(SwitchSteering s) {
        builder.steering(s);
        return this;
    }

    TestLoop setNodeFilter(Predicate<String> usable) {
        builder.nodeFilter(usable);
        return this;
    }

    /** The core, built at the first use. */
    LoopCore core() {
        if (core == null) {
            core = builder.build();
        }
        return core;
    }

    /** The core's loop. */
    GlobalLoop loop() {
        return core().loop();
    }

    /**
     * One evaluation period of the core on these observations.
     *
     * @param observations the window's observations
     */
    void round(List<VnfObservation> observations) {
        next = observations;
        core().period(null);
    }

    List<LoopDecision> history() {
        return loop().history();
    }

    boolean busy(VnfKey vnf) {
        return loop().busy(vnf);
    }

    void close() {
        loop().close();
    }

    long decisionsMade(LoopDecision.Action a) {
        return loop().decisionsMade(a);
    }

    long decisionsEnded(LoopDecision.Action a, LoopDecision.Outcome o) {
        return loop().decisionsEnded(a, o);
    }

    long deletesHeld() {
        return loop().deletesHeld();
    }

    long releasesGivenUp() {
        return loop().releasesGivenUp();
    }

    long storeFailures() {
        return loop().storeFailures();
    }

    double rStar(VnfKey vnf) {
        return loop().rStar(vnf);
    }

    long lStarNanos(VnfKey vnf) {
        return loop().lStarNanos(vnf);
    }

    long violatingSinceNanos(VnfKey vnf) {
        return loop().violatingSinceNanos(vnf);
    }

    long lastActionNanos() {
        return loop().lastActionNanos();
    }

    LoopDecision escalated(VnfKey vnf, int replicas, String node, long l95Nanos, long lmaxNanos,
                           List<String> tried) {
        return loop().escalated(vnf, replicas, node, l95Nanos, lmaxNanos, tried);
    }

    List<LoopDecision> onFindings(List<ChainHealth.Finding> findings) {
        return loop().onFindings(findings);
    }
}
