// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent;

import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.srv6int.agent.loop.Decision;
import org.srv6int.agent.loop.LocalLoop;
import org.srv6int.agent.loop.LoopListener;
import org.srv6int.agent.loop.ResourcePool;
import org.srv6int.agent.loop.ResourceType;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

import static org.junit.Assert.assertTrue;

/**
 * The invariant of the agent's pools with a node budget (CPU quota, memory bandwidth, CPU
 * frequency): the shares handed out never sum to more than the budget, neither at a start on
 * the allocations found on the host (a new replica's resctrl group can hold any MB share) nor
 * after any decision of the local loop, as replicas come and go (each change restarts the
 * agent, as the DaemonSet's rolling update does). Checked in the pools and in the files.
 */
public class PoolBudgetTest {

    private static final long MB_BUDGET = 100;
    private static final long FREQ_BUDGET = 12_000_000;
    private static final long CPU_BUDGET = 6_000;
    /** The NIC node's logical cpus of the fake worker. */
    private static final int[] NODE0 = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29};

    @Rule
    public TemporaryFolder tmp = new TemporaryFolder();

    private FakeHost host;
    private String failure;

    @Test
    public void handedOutSharesNeverExceedTheBudgetAsReplicasComeAndGo() throws IOException {
        host = new FakeHost(tmp.getRoot().toPath()).numa("eth1").resctrl().cpufreq(0, 39);
        SplittableRandom rnd = new SplittableRandom(11);
        List<AgentConfig.Vnf> running = new ArrayList<>();
        List<Integer> cpuOf = new ArrayList<>();
        long[] now = {0};
        for (int round = 0, made = 0; round < 40; round++) {
            if (running.size() < 2 || running.size() < 8 && rnd.nextInt(3) > 0) {
                // a new replica: the kubelet's cgroup, a resctrl group with whatever share it holds
                made++;
                String uid = String.format(Locale.ROOT, "00000000-0000-4000-8000-%012d", made);
                String id = String.format(Locale.ROOT, "%064x", made);
                host.container(FakeHost.SYSTEMD, uid, id, Integer.toString(1000 + made));
                String name = "r" + made;
                host.group("srv6int-" + name);
                long mb = 10 * (1 + rnd.nextInt(10));
                host.file("/sys/fs/resctrl/srv6int-" + name + "/schemata", "L3:0=fffff;1=fffff\nMB:0=" + mb
                        + ";1=" + mb);
                int cpu = freeCpu(cpuOf);
                AgentConfig.Vnf v = HostSetupTest.vnf(name, "fc00:2::" + Integer.toHexString(made), 1 + made, 0,
                                                      uid, "containerd://" + id, Integer.toString(cpu));
                running.add(v);
                cpuOf.add(cpu);
            } else {
                int k = rnd.nextInt(running.size());
                running.remove(k);
                cpuOf.remove(k);
            }
            AgentConfig c = config(running);
            HostSetup s = new HostSetup(c).run();
            check(s.pools(), running, "start of round " + round + " " + s.notes());
            int r = round;
            LocalLoop loop = c.newLoop(s.pools(), new LoopListener() {
                @Override
                public void onWindow(int vnf, long l95Ns, long slackNs) {
                }

                @Override
                public void onDecision(Decision d) {
                    check(s.pools(), running, "round " + r + " after " + d);
                }

                @Override
                public void onEscalation(int vnf, long l95Ns, long lmaxNs, int triedMask) {
                }
            }, () -> now[0]);
            // some vNFs over their bound (they take), some well within (they give)
            boolean[] hot = new boolean[running.size()];
            for (int i = 0; i < hot.length; i++) {
                hot[i] = rnd.nextBoolean();
            }
            for (int w = 0; w < 60; w++) {
                for (int i = 0; i < running.size(); i++) {
                    for (int p = 0; p < 20; p++) {
                        loop.onSample(i, hot[i] ? 1_500_000 + rnd.nextInt(500_000) : 200_000 + rnd.nextInt(100_000));
                    }
                }
                now[0] += 100_000_000;
                loop.tick();
            }
            assertTrue(failure, failure == null);
        }
    }

    private static int freeCpu(List<Integer> used) {
        for (int c : NODE0) {
            if (!used.contains(c)) {
                return c;
            }
        }
        throw new IllegalStateException("no free cpu");
    }

    private AgentConfig config(List<AgentConfig.Vnf> vnfs) throws IOException {
        AgentConfig c = new AgentConfig();
        c.node = "worker1";
        c.iface = "eth1";
        c.hostRoot = host.root().toString();
        c.decisionLog = "";
        c.metricsAddress = "127.0.0.1:0";
        c.vnfs.addAll(vnfs);
        budget(c, ResourceType.MEMORY_BANDWIDTH, MB_BUDGET);
        budget(c, ResourceType.CPU_FREQUENCY, FREQ_BUDGET);
        budget(c, ResourceType.CPU_QUOTA, CPU_BUDGET);
        c.validate();
        return c;
    }

    private static void budget(AgentConfig c, ResourceType t, long budget) {
        AgentConfig.ResourceSettings s = new AgentConfig.ResourceSettings();
        s.budget = budget;
        c.resources.put(t, s);
    }

    /** Records the first breach: in a pool, or in what the files hold. */
    private void check(ResourcePool[] pools, List<AgentConfig.Vnf> vnfs, String when) {
        if (failure != null) {
            return;
        }
        for (ResourceType t : List.of(ResourceType.CPU_QUOTA, ResourceType.MEMORY_BANDWIDTH,
                                      ResourceType.CPU_FREQUENCY)) {
            ResourcePool p = pools[t.ordinal()];
            long sum = 0;
            for (int i = 0; i < vnfs.size(); i++) {
                sum += p.allocation(i);
            }
            if (sum > p.budget()) {
                failure = t + " shares sum to " + sum + " > budget " + p.budget() + " at " + when + ": " + p;
                return;
            }
        }
        long files = 0;
        for (AgentConfig.Vnf v : vnfs) {
            String schemata = host.read("/sys/fs/resctrl/srv6int-" + v.name + "/schemata");
            for (String line : schemata.split("\n")) {
                if (line.trim().startsWith("MB:")) {
                    files += Long.parseLong(line.trim().substring(3).split(";")[0].split("=")[1]);
                }
            }
        }
        if (files > MB_BUDGET) {
            failure = "the MB lines of the groups sum to " + files + " % > " + MB_BUDGET + " at " + when;
        }
    }
}
