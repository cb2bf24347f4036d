// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.control;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.api.model.ReplicaInfo;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.loop.LoopParams;
import org.srv6int.twin.dataplane.EmulatedDataplane;
import org.srv6int.twin.model.Chain;
import org.srv6int.twin.model.Fabric;
import org.srv6int.agent.actuate.CgroupLocator;
import org.srv6int.agent.actuate.HostFiles;
import org.srv6int.twin.host.SimulatedWorker;
import org.srv6int.twin.model.Allocation;
import org.srv6int.twin.model.Host;
import org.srv6int.twin.model.Resource;
import org.srv6int.twin.model.VnfInstance;
import org.srv6int.twin.model.VnfType;

/** The node agent on a simulated worker changes a vNF only through the worker's files. */
public class NodeAgentOnWorkerTest {
    @Rule
    public TemporaryFolder tmp = new TemporaryFolder();

    /** worker1 with a Snort at 4.5 cores and a Fwd at 0.5: 5 of its 10 cores. */
    private static Host worker() {
        Host h = new Host("worker1", "sw2");
        h.addInstance("vnf3", VnfType.SNORT, new Allocation(4.5, 4, 40, 2100), 0);
        h.addInstance("vnf1", VnfType.FWD, new Allocation(0.5, 1, 10, 1500), 0);
        return h;
    }

    @Test
    public void anOverBoundVnfGetsACpuStepWrittenToCpuMaxAndTheModelFollowsTheFile() throws Exception {
        Host h = worker();
        VnfInstance snort = h.instances().get(0);
        SimulatedWorker w = new SimulatedWorker(h, tmp.getRoot().toPath());
        List<String> events = new ArrayList<>();
        NodeAgentOnWorker agent = new NodeAgentOnWorker(w, id -> 900.0, v -> VnfKey.of(SfcId.of(1), 0),
                json -> "not expected: " + json, () -> 0L, () -> 0.0, events);
        for (int k = 0; k < 1500; k++) {
            agent.onDetection(snort, 2_000_000); // 2 ms, over the 0.9 ms bound
        }
        assertEquals(1, agent.starts());
        assertEquals(1, agent.decisions());
        HostFiles files = new HostFiles(w.root());
        SimulatedWorker.Pod p = w.pods().get(0);
        String cpuMax = HostFiles.read(new CgroupLocator(files).locate(p.uid(), p.containerId()).dir()
                .resolve("cpu.max"));
        assertEquals("the agent's CpuQuotaActuator wrote one step (250 m) more", "475000 100000", cpuMax);
        assertEquals("its start-up pinned the pod to its own cores", "0-9",
                HostFiles.read(new CgroupLocator(files).locate(p.uid(), p.containerId()).dir().resolve("cpuset.cpus")));
        assertEquals("not applied before the tick", 4.5, snort.allocation().get(Resource.CPU_QUOTA), 0);
        w.apply();
        assertEquals(4.75, snort.allocation().get(Resource.CPU_QUOTA), 1e-9);
        assertTrue(events.isEmpty());
        // a new pod on the worker restarts the agent, which reads the allocations back
        h.addInstance("vnf5", VnfType.NDPI, new Allocation(2.0, 3, 25, 2000), 0);
        agent.onDetection(snort, 100_000);
        assertEquals(2, agent.starts());
        w.apply();
        assertEquals(4.75, snort.allocation().get(Resource.CPU_QUOTA), 1e-9);
        assertEquals(3, w.pods().size());
    }

    /**
     * The escalation joint in the twin: a worker's agent whose local loop tried every resource
     * type sends the body its EscalationClient builds, with the vNF's chain and index, to the app,
     * which takes it as its REST resource does and records it in the global loop for that vNF.
     */
    @Test
    public void anExhaustedLocalLoopEscalatesToTheAppsGlobalLoop() throws Exception {
        Fabric fabric = new Fabric();
        Host w1 = fabric.addHost(new Host("worker1", "sw2"));
        fabric.addHost(new Host("worker2", "sw3"));
        w1.addInstance("vnf1", VnfType.FWD, new Allocation(1.0, 2, 25, 1900), 0);
        VnfInstance snort = w1.addInstance("vnf3", VnfType.SNORT, new Allocation(2.5, 3, 25, 1900), 0);
        fabric.addChain(new Chain("sfc1", List.of("vnf1"), t -> 1.0, 1024, 1000));
        fabric.addChain(new Chain("sfc2", List.of("vnf3"), t -> 1.0, 1024, 1000));
        List<String> events = new ArrayList<>();
        try (EmulatedDataplane dp = new EmulatedDataplane(TestbedNetcfg.links())) {
            AppControl control = new AppControl(fabric, Map.of(), dp, () -> 0.0);
            try (GlobalControl global = new GlobalControl(control, new SimulatedPlatform(fabric.hosts(),
                    control::requestMillis, control.events()), LoopParams.builder().build(), () -> 0.0)) {
                long[] clockNs = {0};
                NodeAgentOnWorker agent = new NodeAgentOnWorker(new SimulatedWorker(w1, tmp.getRoot().toPath()),
                        id -> 900.0, control::key, global::escalate, () -> clockNs[0], () -> 0.0, events);
                // Snort stays at 2 ms whatever the agent gives it (the model does not run here), a
                // packet every 5 us (2 Gbit/s of 1,024-byte packets, about 8 ms a window)
                int k = 0;
                for (; k < 400_000 && agent.escalations() == 0; k++) {
                    agent.onDetection(snort, 2_000_000);
                    clockNs[0] += 5_000;
                }
                assertEquals(1, agent.escalations());
                // not before its loop gave it nothing for the agent's escalation hold (1 s)
                assertTrue("escalated after " + clockNs[0] / 1e6 + " ms", clockNs[0] > 1_000_000_000L);
                List<LoopDecision> esc = new ArrayList<>();
                for (LoopDecision d : global.decisions()) {
                    if (d.action() == LoopDecision.Action.ESCALATION) {
                        esc.add(d);
                    }
                }
                assertEquals(global.decisions().toString(), 1, esc.size());
                LoopDecision d = esc.get(0);
                assertEquals("the vNF of the agent's pod, by its chain and index", control.key("vnf3"), d.vnf());
                assertEquals(2_000_000.0, d.inputs().get(LoopDecision.IN_LATENCY), 0);
                assertEquals(900_000.0, d.inputs().get(LoopDecision.IN_LMAX), 0);
                assertEquals("local loop exhausted on worker1 (tried [CPU_QUOTA, LLC, MEMORY_BANDWIDTH, "
                        + "CPU_FREQUENCY])",
                        d.detail());
                assertEquals(1, events.size());
                assertTrue(events.get(0), events.get(0).contains("escalates vnf3@worker1")
                        && events.get(0).contains("accepted (202): local loop exhausted on worker1"));
            }
        }
    }

    /**
     * Issue 22: a replica the platform has bound to the worker but not yet started keeps its CPU
     * request out of the agent's pool, so the agent does not grow its pods into it in the 3 s
     * before the pod is Ready, and the replica starts with the cores it was scheduled with (before:
     * at the 0.1-core floor).
     */
    @Test
    public void aScheduledReplicasRequestIsHeldUntilItStartsWithIt() throws Exception {
        Host h = worker();
        VnfInstance snort = h.instances().get(0);
        SimulatedWorker w = new SimulatedWorker(h, tmp.getRoot().toPath());
        SimulatedPlatform k8s = new SimulatedPlatform(List.of(h), k -> 2000, new ArrayList<>());
        NodeAgentOnWorker agent = new NodeAgentOnWorker(w, id -> 900.0, v -> VnfKey.of(SfcId.of(1), 0),
                json -> "not expected: " + json, () -> 0L, () -> 0.0, new ArrayList<>());
        agent.follow(k8s);
        agent.onDetection(snort, 100_000);
        CompletableFuture<ReplicaInfo> f = k8s.createReplica(VnfKey.of(SfcId.of(2), 0), "worker1", "r-0")
                .toCompletableFuture();
        assertEquals("bound to worker1 at once (2 of the 5 free cores)", 1, k8s.boundTo("worker1").size());
        for (int k = 0; k < 200 * 1500; k++) {
            agent.onDetection(snort, 2_000_000); // over the bound: the agent adds every step it may
        }
        w.apply();
        double grown = snort.allocation().get(Resource.CPU_QUOTA);
        assertEquals("the snort grew up to what is not held: 10 - 0.5 - 2 cores", 7.5, grown, 1e-9);
        assertEquals(2.0, h.free(Resource.CPU_QUOTA), 1e-9);
        k8s.advanceTo(SimulatedPlatform.STARTUP_S);
        assertTrue("Ready", f.isDone());
        assertTrue(k8s.boundTo("worker1").isEmpty());
        // the routing starts the model pod of the Ready replica (AppControl), clamped to what is free
        VnfInstance replica = h.addInstance("vnf3", VnfType.SNORT, new Allocation(2.0, 1, 10, 1500), 0);
        assertEquals("started with its request, not the 0.1-core floor", 2.0,
                replica.allocation().get(Resource.CPU_QUOTA), 1e-9);
        agent.onDetection(replica, 100_000);
        w.apply();
        assertEquals("the restarted agent adopts it with its request", 2.0,
                replica.allocation().get(Resource.CPU_QUOTA), 1e-9);
        assertEquals(grown, snort.allocation().get(Resource.CPU_QUOTA), 1e-9);
        assertEquals(0.0, h.free(Resource.CPU_QUOTA), 1e-9);
    }
}
