// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent;

import org.srv6int.agent.loop.Decision;
import org.srv6int.agent.loop.Decision.Action;
import org.srv6int.agent.loop.LocalLoop;
import org.srv6int.agent.loop.LoopListener;
import org.srv6int.agent.loop.ResourceType;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The fake worker with CPU quota only, as the loop's tests on both hierarchies use it: step 100
 * millicores, budget 4000, floor 100, ceiling 2000, every vNF starting at 1000; the loop built by
 * {@link AgentConfig#newLoop} on the pools of {@link HostSetup}.
 */
final class CpuOnlyWorker {

    private CpuOnlyWorker() {
    }

    /**
     * The config of {@link HostSetupTest#config} on the host, CPU quota only.
     *
     * @param host fake worker
     * @param windowSize N
     * @return config, to adjust before {@link #loop}
     * @throws IOException if the host cannot be read
     */
    static AgentConfig config(FakeHost host, int windowSize) throws IOException {
        AgentConfig config = HostSetupTest.config(host.root());
        config.windowSize = windowSize;
        AgentConfig.ResourceSettings cpu = new AgentConfig.ResourceSettings();
        cpu.step = 100L;
        cpu.budget = 4000L;
        cpu.floor = 100L;
        cpu.ceiling = 2000L;
        config.resources.put(ResourceType.CPU_QUOTA, cpu);
        for (ResourceType t : List.of(ResourceType.LLC, ResourceType.MEMORY_BANDWIDTH, ResourceType.CPU_FREQUENCY)) {
            AgentConfig.ResourceSettings off = new AgentConfig.ResourceSettings();
            off.enabled = false;
            config.resources.put(t, off);
        }
        for (AgentConfig.Vnf v : config.vnfs) {
            v.initial.put(ResourceType.CPU_QUOTA, 1000L);
        }
        return config;
    }

    /**
     * Validates the config, runs the host setup and builds the loop.
     *
     * @param config config
     * @param onDecision receives every decision
     * @param clock the test's clock, ns
     * @return loop
     * @throws IOException if the setup fails
     */
    static LocalLoop loop(AgentConfig config, Consumer<Decision> onDecision, LongSupplier clock) throws IOException {
        return loop(config, onDecision, why -> { }, clock);
    }

    /**
     * Validates the config, runs the host setup and builds the loop.
     *
     * @param config config
     * @param onDecision receives every decision
     * @param onThrottleUnread receives every unreadable cpu.stat
     * @param clock the test's clock, ns
     * @return loop
     * @throws IOException if the setup fails
     */
    static LocalLoop loop(AgentConfig config, Consumer<Decision> onDecision, Consumer<String> onThrottleUnread,
                          LongSupplier clock) throws IOException {
        config.validate();
        HostSetup s = new HostSetup(config).run();
        return config.newLoop(s.pools(), new LoopListener() {
            @Override
            public void onWindow(int vnf, long l95Ns, long slackNs) {
            }

            @Override
            public void onDecision(Decision d) {
                onDecision.accept(d);
            }

            @Override
            public void onThrottleUnread(int vnf, String why) {
                onThrottleUnread.accept(vnf + ": " + why);
            }

            @Override
            public void onEscalation(int vnf, long l95Ns, long lmaxNs, int triedMask) {
            }
        }, clock);
    }

    /**
     * The quota of snort (vNF 1) in its cgroup's files.
     *
     * @param host fake worker
     * @return millicores
     */
    static long snortQuota(FakeHost host) {
        String[] f = host.cpuMax(HostSetupTest.CG_B).split(" ");
        return Long.parseLong(f[0]) * 1000 / Long.parseLong(f[1]);
    }

    /**
     * The actions of decisions, in order.
     *
     * @param decisions decisions
     * @return actions
     */
    static List<Action> actions(List<Decision> decisions) {
        List<Action> a = new ArrayList<>();
        for (Decision d : decisions) {
            a.add(d.action());
        }
        return a;
    }
}
