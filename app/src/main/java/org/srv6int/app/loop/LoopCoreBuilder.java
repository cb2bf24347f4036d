// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import org.srv6int.app.api.NodePoolService;
import org.srv6int.app.api.ReplicaPlatform;
import org.srv6int.app.api.SfcPathService;
import org.srv6int.app.api.SfcService;
import org.srv6int.app.api.VnfInventoryService;
import org.srv6int.app.api.model.TelemetrySnapshot;
import org.srv6int.app.store.EscalationStore;
import org.srv6int.app.store.LoopStateStore;

import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The one builder of the global loop's core ({@link LoopCore#builder()}), for ONOS, the twin, the
 * benchmarks and the tests: the ports (platform, routing, store, co-location, steering, pools, clock,
 * chain and inventory services, detection inputs) and the settings supplier.
 */
public final class LoopCoreBuilder {

    LoopClock clock = LoopClock.SYSTEM;
    ReplicaPlatform platform;
    ChainRouting routing;
    LoopStateStore store;
    Colocation colocation;
    NodeResidents residents;
    SwitchSteering steering;
    NodePoolService pools;
    Predicate<String> nodeUsable = n -> true;
    SfcService sfcs;
    VnfInventoryService inventory;
    SfcPathService segmentLists;
    DetectionInputs detection;
    Function<TelemetrySnapshot, List<VnfObservation>> observations;
    Function<TelemetrySnapshot, DetectionInputs.WindowCounts> counts = DetectionInputs.WindowCounts::of;
    Supplier<LoopSettings> settings = () -> LoopSettings.of(LoopParams.builder().build());
    Supplier<String> leaderName = () -> "none";
    boolean leading = true;
    EscalationStore escalations;
    String self = "local";

    LoopCoreBuilder() {
    }

    /**
     * The loop's clock (default the system's).
     *
     * @param c clock
     * @return this
     */
    public LoopCoreBuilder clock(LoopClock c) {
        clock = Objects.requireNonNull(c, "clock");
        return this;
    }

    /**
     * Where replicas come from (required).
     *
     * @param p replica platform
     * @return this
     */
    public LoopCoreBuilder platform(ReplicaPlatform p) {
        platform = p;
        return this;
    }

    /**
     * The chains' multipath groups and placement (required).
     *
     * @param r routing
     * @return this
     */
    public LoopCoreBuilder routing(ChainRouting r) {
        routing = r;
        return this;
    }

    /**
     * The cluster's loop state store (default none: state in this process, nothing paused).
     *
     * @param s store, null for none
     * @return this
     */
    public LoopCoreBuilder store(LoopStateStore s) {
        store = s;
        return this;
    }

    /**
     * Where replicas run and what a new one requests (push-aside, placement room; default none).
     *
     * @param c co-location view
     * @return this
     */
    public LoopCoreBuilder colocation(Colocation c) {
        colocation = c;
        return this;
    }

    /**
     * The classes of the replicas on each node: with a co-location view, the loop learns
     * interference from every window (default none: no learning).
     *
     * @param r residents
     * @return this
     */
    public LoopCoreBuilder residents(NodeResidents r) {
        residents = r;
        return this;
    }

    /**
     * The switches' view a drained replica's pod waits on (default none: the Port_Counter alone).
     *
     * @param s steering
     * @return this
     */
    public LoopCoreBuilder steering(SwitchSteering s) {
        steering = s;
        return this;
    }

    /**
     * The node agents' pool reports (default none: placement by CPU).
     *
     * @param p pools
     * @return this
     */
    public LoopCoreBuilder pools(NodePoolService p) {
        pools = p;
        return this;
    }

    /**
     * Which nodes may take a new replica (default all).
     *
     * @param usable node name to whether it may
     * @return this
     */
    public LoopCoreBuilder nodeFilter(Predicate<String> usable) {
        nodeUsable = Objects.requireNonNull(usable, "usable");
        return this;
    }

    /**
     * The chain and inventory services: the window's observations, the failure detection's
     * chains, escalations and the stored chain states read them.
     *
     * @param chains    chains
     * @param replicas  replica inventory
     * @return this
     */
    public LoopCoreBuilder services(SfcService chains, VnfInventoryService replicas) {
        sfcs = chains;
        inventory = replicas;
        return this;
    }

    /**
     * The chains' segment lists: a change after a topology event is recorded as a re-route
     * (default none).
     *
     * @param paths the placement's paths
     * @return this
     */
    public LoopCoreBuilder segmentLists(SfcPathService paths) {
        segmentLists = paths;
        return this;
    }

    /**
     * What the failure detection looks at (default none: no failure detection). Needs the
     * chain and inventory services.
     *
     * @param inputs detection inputs
     * @return this
     */
    public LoopCoreBuilder detection(DetectionInputs inputs) {
        detection = inputs;
        return this;
    }

    /**
     * How a window becomes the loop's observations (default {@link InventoryRouting#observations}
     * over the chain and inventory services).
     *
     * @param f window to observations
     * @return this
     */
    public LoopCoreBuilder observations(Function<TelemetrySnapshot, List<VnfObservation>> f) {
        observations = f;
        return this;
    }

    /**
     * How a window becomes the failure detection's counts (default {@link DetectionInputs.WindowCounts#of}).
     *
     * @param f window to counts
     * @return this
     */
    public LoopCoreBuilder windowCounts(Function<TelemetrySnapshot, DetectionInputs.WindowCounts> f) {
        counts = Objects.requireNonNull(f, "f");
        return this;
    }

    /**
     * The settings, read at every entry (default {@link LoopSettings#of} the default parameters).
     *
     * @param s settings supplier
     * @return this
     */
    public LoopCoreBuilder settings(Supplier<LoopSettings> s) {
        settings = Objects.requireNonNull(s, "settings");
        return this;
    }

    /**
     * Fixed settings of these parameters ({@link LoopSettings#of}).
     *
     * @param p parameters
     * @return this
     */
    public LoopCoreBuilder params(LoopParams p) {
        LoopSettings s = LoopSettings.of(p);
        settings = () -> s;
        return this;
    }

    /**
     * Who leads when this core does not, for the refusal of an escalation (default "none").
     *
     * @param name the leader's name
     * @return this
     */
    public LoopCoreBuilder leaderName(Supplier<String> name) {
        leaderName = Objects.requireNonNull(name, "name");
        return this;
    }

    /**
     * The cluster's store of escalations for the leader (docs/cluster.md): a core that does not
     * lead queues an escalation there instead of refusing it, and a leading one takes the queue
     * into its loop every round (default none: a core that does not lead refuses).
     *
     * @param store the escalation store
     * @param node  this instance's name, recorded on what it queues
     * @return this
     */
    public LoopCoreBuilder escalations(EscalationStore store, String node) {
        escalations = store;
        self = Objects.requireNonNull(node, "node");
        return this;
    }

    /**
     * Whether the core leads from the start (default true; ONOS starts it not leading and
     * follows the leadership service).
     *
     * @param l whether it leads
     * @return this
     */
    public LoopCoreBuilder leading(boolean l) {
        leading = l;
        return this;
    }

    /**
     * Builds the core.
     *
     * @return the core
     * @throws NullPointerException if the platform or routing is missing, or detection or
     *                              default observations lack the chain and inventory services
     */
    public LoopCore build() {
        Objects.requireNonNull(platform, "platform");
        Objects.requireNonNull(routing, "routing");
        if (detection != null || observations == null) {
            Objects.requireNonNull(sfcs, "chain service");
            Objects.requireNonNull(inventory, "inventory service");
        }
        return new LoopCore(this);
    }
}
