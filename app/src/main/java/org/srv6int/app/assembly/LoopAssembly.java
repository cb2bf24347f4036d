// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.assembly;

import org.onlab.metrics.MetricsManager;
import org.onlab.metrics.MetricsService;
import org.onosproject.cluster.ClusterService;
import org.onosproject.cluster.LeadershipService;
import org.srv6int.app.api.ReplicaPlatform;
import org.srv6int.app.api.TelemetryWindows;
import org.srv6int.app.k8s.KubernetesReplicaPlatformManager;
import org.srv6int.app.loop.GlobalLoopManager;
import org.srv6int.app.loop.LoopClock;
import org.srv6int.app.store.DistributedEscalationStore;
import org.srv6int.app.telemetry.TelemetryManager;

import java.util.ArrayDeque;
import java.util.Deque;

import static java.util.Objects.requireNonNull;

/**
 * The app's closed loop over an {@link AppAssembly}: the INT collector and telemetry windows
 * ({@link TelemetryManager}: this instance's collector entry of netcfg, the cluster-wide summary
 * exchange), the replica platform and the global loop ({@link GlobalLoopManager}, which runs
 * while this instance leads its topic), each built through its public constructor as
 * Declarative Services would wire it, activated in that order and stopped in reverse. The
 * platform is either one the host gives (a test's, the twin's) or the app's Kubernetes platform
 * ({@link KubernetesReplicaPlatformManager}, configured by netcfg's {@code kubernetes} section,
 * its request ledger in the assembly's storage). A host that feeds the windows itself (a test's
 * window feed) gives them instead of the collector ({@link Builder#windows}); one that wants each
 * window too (the lab's counts) adds a consumer to {@link #windows()}.
 */
public final class LoopAssembly {

    private final TelemetryManager telemetry;
    private final TelemetryWindows windows;
    private final ReplicaPlatform platform;
    private final GlobalLoopManager loop;
    private final Deque<Runnable> stops = new ArrayDeque<>();

    private LoopAssembly(Builder b) {
        AppAssembly app = b.app;
        MetricsService metrics = b.metrics != null ? b.metrics : new MetricsManager();
        if (b.windows != null) {
            telemetry = null;
            windows = b.windows;
        } else {
            telemetry = new TelemetryManager(app.config(), app.paths(), app.inventory(), metrics,
                                             app.mastershipService(), b.cluster, app.summaries());
            telemetry.activate();
            stops.push(telemetry::deactivate);
            windows = telemetry;
        }
        if (b.platform != null) {
            platform = b.platform;
        } else {
            KubernetesReplicaPlatformManager k8s = new KubernetesReplicaPlatformManager(
                    app.networkConfigService(), app.config(), app.sfcs(), app.storageService(), app.inventory(),
                    app.flowRuleService());
            k8s.activate();
            stops.push(k8s::deactivate);
            platform = k8s;
        }
        loop = new GlobalLoopManager(b.leadership, b.cluster, windows, app.sfcs(), app.inventory(), app.config(),
                                     platform, app.loopState(), app.paths(), app.pools(), app.flowRuleService(),
                                     null, null, app.paths(), metrics);
        if (b.clock != null) {
            loop.setClock(b.clock);
        }
        // escalations taken by any instance reach the leader through this map (issue 33, item 3)
        DistributedEscalationStore escalations = new DistributedEscalationStore(app.storageService());
        escalations.activate();
        loop.setEscalationStore(escalations);
        loop.activate();
        stops.push(loop::deactivate);
    }

    /**
     * Starts a builder over the app's core.
     *
     * @param app the assembled core (storage, config, chains, inventory, paths)
     * @return builder
     */
    public static Builder over(AppAssembly app) {
        return new Builder(requireNonNull(app, "app"));
    }

    /**
     * This instance's INT collector and telemetry windows.
     *
     * @return telemetry component, null when the host gave the windows ({@link Builder#windows})
     */
    public TelemetryManager telemetry() {
        return telemetry;
    }

    /**
     * The windows the loop takes, one period each: the collector's or the host's.
     *
     * @return window source
     */
    public TelemetryWindows windows() {
        return windows;
    }

    /**
     * The replica platform the loop scales on.
     *
     * @return platform
     */
    public ReplicaPlatform platform() {
        return platform;
    }

    /**
     * The global loop component (acting while this instance leads).
     *
     * @return loop component
     */
    public GlobalLoopManager loop() {
        return loop;
    }

    /** Deactivates the loop, the platform (if built here) and the collector, in that order. */
    public void stop() {
        while (!stops.isEmpty()) {
            stops.pop().run();
        }
    }

    /**
     * What the loop needs beyond the app's core: this instance's leadership and cluster views,
     * optionally a platform, metrics and a clock.
     */
    public static final class Builder {
        private final AppAssembly app;
        private LeadershipService leadership;
        private ClusterService cluster;
        private ReplicaPlatform platform;
        private MetricsService metrics;
        private LoopClock clock;
        private TelemetryWindows windows;

        private Builder(AppAssembly app) {
            this.app = app;
        }

        /**
         * This instance's leadership view (the loop leads its topic) and cluster view (its node id).
         *
         * @param leadership leadership service
         * @param cluster    cluster service
         * @return this
         */
        public Builder cluster(LeadershipService leadership, ClusterService cluster) {
            this.leadership = leadership;
            this.cluster = cluster;
            return this;
        }

        /**
         * The replica platform (default: the app's Kubernetes platform, configured by netcfg).
         *
         * @param platform platform
         * @return this
         */
        public Builder platform(ReplicaPlatform platform) {
            this.platform = platform;
            return this;
        }

        /**
         * Metrics the collector's and the loop's counters go to (default: a private registry).
         *
         * @param metrics metrics service
         * @return this
         */
        public Builder metrics(MetricsService metrics) {
            this.metrics = metrics;
            return this;
        }

        /**
         * The loop's clock (default the system's).
         *
         * @param clock clock
         * @return this
         */
        public Builder clock(LoopClock clock) {
            this.clock = clock;
            return this;
        }

        /**
         * The windows the loop takes, fed by the host, instead of a collector built here (a test
         * that hands the loop windows it made).
         *
         * @param windows window source
         * @return this
         */
        public Builder windows(TelemetryWindows windows) {
            this.windows = windows;
            return this;
        }

        /**
         * Builds and activates the collector, the platform and the loop.
         *
         * @return the loop's assembly
         * @throws NullPointerException if the leadership or cluster view is missing
         */
        public LoopAssembly build() {
            requireNonNull(leadership, "leadership");
            requireNonNull(cluster, "cluster");
            return new LoopAssembly(this);
        }
    }
}
