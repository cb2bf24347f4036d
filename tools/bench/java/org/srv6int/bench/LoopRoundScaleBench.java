// SPDX-License-Identifier: Apache-2.0
package org.srv6int.bench;

import com.sun.management.ThreadMXBean;
import org.onlab.packet.Ip6Address;
import org.onlab.packet.IpPrefix;
import org.onlab.packet.MacAddress;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.store.service.StorageException;
import org.srv6int.app.api.ReplicaPlatform;
import org.srv6int.app.api.model.ChainWindow;
import org.srv6int.app.api.model.CollectorCounters;
import org.srv6int.app.api.model.FlowClassifier;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.api.model.NodeResources;
import org.srv6int.app.api.model.ReplicaInfo;
import org.srv6int.app.api.model.ReplicaState;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.TelemetrySnapshot;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.api.model.VnfReplicaId;
import org.srv6int.app.api.model.VnfSpec;
import org.srv6int.app.api.model.VnfWindow;
import org.srv6int.app.assembly.AppAssembly;
import org.srv6int.app.loop.DetectionInputs;
import org.srv6int.app.loop.InventoryRouting;
import org.srv6int.app.loop.LoopClock;
import org.srv6int.app.loop.LoopCore;
import org.srv6int.app.store.DistributedEscalationStore;
import org.srv6int.cluster.atomix.AtomixConsistentMap;
import org.srv6int.cluster.atomix.AtomixMastershipService;
import org.srv6int.cluster.atomix.AtomixNode;
import org.srv6int.cluster.atomix.AtomixStorageService;
import org.srv6int.testkit.CountingStorageService;
import org.srv6int.testkit.InMemoryCoreService;
import org.srv6int.testkit.InMemoryEventDeliveryService;
import org.srv6int.testkit.InMemoryFlowRuleService;
import org.srv6int.testkit.InMemoryGroupService;
import org.srv6int.testkit.InMemoryNetworkConfigRegistry;
import org.srv6int.testkit.InMemoryTopologyService;

import java.io.File;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/**
 * Issue 33 item 4: the leader's loop round over the real store. Three Atomix 3.1.9 members in
 * this JVM (loopback, the cluster module's AtomixNode: three Raft voters, every map in the
 * 3-partition data group); the leader's app assembly (chain, replica, loop-state stores, chains,
 * inventory, paths) and its {@link LoopCore} (failure detection on window counts, the
 * escalation queue, Algorithm 4) on member 1's storage, every ConsistentMap call counted by map
 * and operation. For N chains x 4 vNFs, one replica each, spread round-robin over 64 switches (and
 * as many worker nodes), each round gets a window where every chain and vNF reported, latency
 * under the bound (steady state: nothing to decide). Prints per N: store operations per round
 * (by map.operation), the median and p99 round wall time, and the headroom against the 500 ms
 * evaluation period. Then one decision's store operations (a vNF violating for t-hat: scale-out
 * planned, platform refuses the replica, so only the store work is counted). Asserts nothing.
 *
 * <p>Usage: LoopRoundScaleBench [rounds] [N ...] (default 20 rounds; 100 250 500 1000).
 */
public final class LoopRoundScaleBench {

    private static final int SWITCHES = 64;
    private static final int VNFS = 4;
    /** -Dbench.paced=true: one round per 500 ms of real time, as the product runs them (default: back to back). */
    private static final boolean PACED = Boolean.getBoolean("bench.paced");
    private static final ThreadMXBean THREADS = (ThreadMXBean) ManagementFactory.getThreadMXBean();
    private static final long LMAX = 1_000_000;

    private LoopRoundScaleBench() {
    }

    /** Fills of the local copies from Raft so far (a read served by a filled copy makes no Raft call). */
    private static long fills(List<AtomixConsistentMap<?, ?>> built) {
        return built.stream().mapToLong(AtomixConsistentMap::localCopyFills).sum();
    }

    /** A read ("map.op") of a map with a local copy: no Raft call once the copy is filled. */
    static boolean servedLocally(String mapOp) {
        int dot = mapOp.lastIndexOf('.');
        return AtomixStorageService.LOCAL_COPIES.contains(mapOp.substring(0, dot))
                && Set.of("values", "entrySet", "keySet", "get", "containsKey", "size", "isEmpty")
                .contains(mapOp.substring(dot + 1));
    }

    static long total(Map<String, Long> m) {
        return m.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Settable loop clock (the rounds come as fast as they run; the loop's timers see 500 ms each). */
    static final class Clock implements LoopClock {
        volatile long nanos = 1_000_000_000L;

        @Override
        public long nanoTime() {
            return nanos;
        }

        @Override
        public long currentTimeMillis() {
            return 1_700_000_000_000L + nanos / 1_000_000;
        }
    }

    static final ReplicaPlatform REFUSING = new ReplicaPlatform() {
        @Override
        public List<NodeResources> nodeFreeResources() {
            List<NodeResources> n = new ArrayList<>();
            for (int i = 0; i < SWITCHES; i++) {
                n.add(new NodeResources("w" + i, 64_000, 1L << 36));
            }
            return n;
        }

        @Override
        public CompletionStage<ReplicaInfo> createReplica(VnfKey vnf, String node, String requestId) {
            return CompletableFuture.failedFuture(new IllegalStateException("bench: no pods"));
        }

        @Override
        public CompletionStage<Void> deleteReplica(VnfKey vnf, String replicaId) {
            return CompletableFuture.completedFuture(null);
        }
    };

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        List<Integer> sizes = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            sizes.add(Integer.parseInt(args[i]));
        }
        if (sizes.isEmpty()) {
            sizes = List.of(100, 250, 500, 1000);
        }
        File dir = Files.createTempDirectory("bench-atomix").toFile();
        Map<String, String> members = new LinkedHashMap<>();
        for (int i = 1; i <= 3; i++) {
            try (ServerSocket s = new ServerSocket(0)) {
                members.put("m" + i, "127.0.0.1:" + s.getLocalPort());
            }
        }
        List<AtomixNode> nodes = new ArrayList<>();
        List<Thread> starts = new ArrayList<>();
        for (String id : members.keySet()) {
            AtomixNode n = new AtomixNode(id, members, new File(dir, id));
            nodes.add(n);
            Thread t = new Thread(() -> n.start(Duration.ofMinutes(3)));
            t.start();
            starts.add(t);
        }
        for (Thread t : starts) {
            t.join();
        }
        System.out.println("bench: three Atomix members up " + members);
        try {
            System.out.println("chains x vNFs | replicas | store ops/round (total) | round p50 ms | p99 ms | "
                                       + "headroom vs 500 ms | ops by map.op");
            for (int n : sizes) {
                run(nodes.get(0), n, rounds);
            }
        } finally {
            for (AtomixNode n : nodes) {
                n.stop();
            }
        }
        System.exit(0);
    }

    private static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Collection time of every collector so far (the JVM's own accounting; includes concurrent phases). */
    private static long gcMillis() {
        long t = 0;
        for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
            t += Math.max(0, b.getCollectionTime());
        }
        return t;
    }

    /** Attributes the slow rounds: which of them had a collection inside, and what a round allocates. */
    private static void reportGc(long[] ns, long[] gcMs, long[] allocated) {
        int n = ns.length;
        List<Long> clean = new ArrayList<>();
        int withGc = 0;
        long gcTotal = 0;
        for (int r = 0; r < n; r++) {
            if (gcMs[r] > 0) {
                withGc++;
                gcTotal += gcMs[r];
            } else {
                clean.add(ns[r]);
            }
        }
        long[] alloc = allocated.clone();
        Arrays.sort(alloc);
        String cleanP = "none";
        if (!clean.isEmpty()) {
            clean.sort(null);
            cleanP = String.format("p50 %.1f ms, max %.1f ms", clean.get(clean.size() / 2) / 1e6,
                                   clean.get(clean.size() - 1) / 1e6);
        }
        System.out.printf("  rounds %s: %d of %d had a collection inside (%d ms of GC in them); rounds without: "
                                  + "%s; allocated by the loop thread per round p50 %.1f MB%n",
                          PACED ? "paced at 500 ms" : "back to back", withGc, n, gcTotal, cleanP,
                          alloc[n / 2] / 1e6);
    }

    /** A loading write, retried on a store timeout (a Raft election under load); the answer is not needed. */
    private static void retried(Supplier<Boolean> write) {
        for (int i = 0;; i++) {
            try {
                write.get();
                return;
            } catch (StorageException e) {
                if (i == 4) {
                    throw e;
                }
            }
        }
    }

    private static void run(AtomixNode node, int chains, int rounds) {
        // -Dbench.localCopies=none: every read through Raft (the figures before the local copies)
        boolean copies = !"none".equals(System.getProperty("bench.localCopies"));
        List<AtomixConsistentMap<?, ?>> built = new CopyOnWriteArrayList<>();
        CountingStorageService storage = new CountingStorageService(
                copies ? new AtomixStorageService(node) : new AtomixStorageService(node, Set.of()), m -> {
                    if (m instanceof AtomixConsistentMap) {
                        built.add((AtomixConsistentMap<?, ?>) m);
                    }
                });
        InMemoryCoreService core = new InMemoryCoreService();
        InMemoryTopologyService topology = new InMemoryTopologyService();
        AppAssembly app = AppAssembly.builder().storage(storage).events(new InMemoryEventDeliveryService())
                .flowRules(new InMemoryFlowRuleService()).groups(new InMemoryGroupService())
                .mastership(new AtomixMastershipService(node))
                .topology(topology, topology)
                .netcfg(new InMemoryNetworkConfigRegistry().withCoreService(core), core).build();
        // Each size gets fresh chain tags, so the sizes do not see each other's maps' entries.
        int base = chains * 10;
        List<VnfWindow> vnfWindows = new ArrayList<>();
        List<ChainWindow> chainWindows = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int c = 0; c < chains; c++) {
            int tag = base + c;
            List<VnfSpec> specs = new ArrayList<>();
            for (int i = 0; i < VNFS; i++) {
                specs.add(new VnfSpec("snort", LMAX));
            }
            int leaf = c % SWITCHES;
            Sfc sfc = Sfc.builder().id(SfcId.of(tag)).name("sfc" + tag)
                    .ingress(ConnectPoint.deviceConnectPoint("device:leaf" + leaf + "/1"))
                    .egress(ConnectPoint.deviceConnectPoint("device:leaf" + ((leaf + 1) % SWITCHES) + "/1"))
                    .classifier(new FlowClassifier(IpPrefix.valueOf("10.1.0.0/16"), IpPrefix.valueOf("10.2.0.0/16"),
                                                   17, 0, tag))
                    .vnfs(specs).build();
            retried(() -> app.sfcStore().createSfc(sfc));
            for (int i = 0; i < VNFS; i++) {
                VnfKey k = VnfKey.of(sfc.id(), i);
                int sw = (c * VNFS + i) % SWITCHES;
                String name = "r" + i;
                VnfReplica replica = new VnfReplica(
                        VnfReplicaId.of(k, name), "w" + sw, DeviceId.deviceId("device:leaf" + sw),
                        PortNumber.portNumber(2 + i), Ip6Address.valueOf(String.format("2001:db8:%x:%x::1", tag, i)),
                        MacAddress.valueOf(String.format("00:00:%02x:%02x:%02x:%02x", (tag >> 8) & 0xff, tag & 0xff,
                                                         i, 1)), ReplicaState.ACTIVE, 1);
                retried(() -> app.replicaStore().createReplica(replica));
                vnfWindows.add(new VnfWindow(k, 100, 300_000, 400_000, 450_000, 500_000, 1000, Map.of(name, 100L)));
            }
            chainWindows.add(new ChainWindow(tag, 100, 2_000_000, 3_000_000, 1000));
        }
        long loadMs = (System.nanoTime() - t0) / 1_000_000;
        TelemetrySnapshot window = new TelemetrySnapshot(0, 500_000_000L, vnfWindows, chainWindows, List.of(),
                                                         new CollectorCounters(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                                                               0, Map.of()), List.of());
        DistributedEscalationStore escalations = new DistributedEscalationStore(storage);
        escalations.activate();
        Clock clock = new Clock();
        LoopCore loop = LoopCore.builder().clock(clock).platform(REFUSING)
                .routing(new InventoryRouting(app.inventory(), app.paths())).store(app.loopState())
                .services(app.sfcs(), app.inventory()).detection(new DetectionInputs(app.inventory()))
                .escalations(escalations, node.id()).leading(true).build();
        // Warm-up: the first round resumes from the store and writes every vNF's first record.
        Map<String, Long> before = storage.snapshot();
        clock.nanos += 500_000_000L;
        long f0 = System.nanoTime();
        loop.period(window);
        long firstMs = (System.nanoTime() - f0) / 1_000_000;
        Map<String, Long> firstOps = CountingStorageService.diff(storage.snapshot(), before);
        for (int i = 0; i < 3; i++) {
            clock.nanos += 500_000_000L;
            loop.period(window);
        }
        before = storage.snapshot();
        long fillsBefore = fills(built);
        long[] ns = new long[rounds];
        long[] gcMs = new long[rounds];
        long[] allocated = new long[rounds];
        for (int r = 0; r < rounds; r++) {
            clock.nanos += 500_000_000L;
            if (PACED) {
                // the product runs one round per 500 ms window: the JVM has the rest of it to collect
                pause(500);
            }
            long gc0 = gcMillis();
            long a0 = THREADS.getThreadAllocatedBytes(Thread.currentThread().getId());
            long s = System.nanoTime();
            loop.period(window);
            ns[r] = System.nanoTime() - s;
            allocated[r] = THREADS.getThreadAllocatedBytes(Thread.currentThread().getId()) - a0;
            gcMs[r] = gcMillis() - gc0;
        }
        reportGc(ns, gcMs, allocated);
        Map<String, Long> perRun = CountingStorageService.diff(storage.snapshot(), before);
        Map<String, Long> perRound = new TreeMap<>();
        perRun.forEach((k, v) -> perRound.put(k, Math.round((double) v / rounds)));
        Arrays.sort(ns);
        double p50 = ns[rounds / 2] / 1e6;
        double p99 = ns[Math.min(rounds - 1, (int) Math.ceil(rounds * 0.99) - 1)] / 1e6;
        System.out.printf("%d x %d | %d | %d %s | %.1f | %.1f | %.1fx | loaded in %d ms; first round %d ms, %d ops%n",
                          chains, VNFS, chains * VNFS, total(perRound), "", p50, p99, 500 / p50, loadMs, firstMs,
                          total(firstOps));
        System.out.println("  ops/round by map.op: " + perRound);
        long raftPerRun = total(perRun) - perRun.entrySet().stream()
                .filter(e -> copies && servedLocally(e.getKey()))
                .mapToLong(Map.Entry::getValue).sum();
        System.out.printf("  local copies %s: Raft calls/round %.1f (local-copy reads count none; copies refilled %d "
                                  + "times in the %d rounds)%n", copies ? "on" : "off", (double) raftPerRun / rounds,
                          fills(built) - fillsBefore, rounds);
        System.out.println("  first round by map.op: " + firstOps);

        // One decision: the first chain's vNF 0 violates for t-hat (4 s = 8 windows), then the loop decides.
        VnfKey hot = VnfKey.of(SfcId.of(base), 0);
        List<VnfWindow> hotWindows = new ArrayList<>(vnfWindows);
        hotWindows.set(0, new VnfWindow(hot, 100, 1_500_000, 2_000_000, 2_100_000, 2_500_000, 1000,
                                        Map.of("r0", 100L)));
        TelemetrySnapshot hotWindow = new TelemetrySnapshot(0, 500_000_000L, hotWindows, chainWindows, List.of(),
                                                            window.counters(), List.of());
        long decisionsBefore = loop.decisionsMade(LoopDecision.Action.SCALE_OUT);
        Map<String, Long> b2 = storage.snapshot();
        int hotRounds = 0;
        while (loop.decisionsMade(LoopDecision.Action.SCALE_OUT) == decisionsBefore && hotRounds < 40) {
            clock.nanos += 500_000_000L;
            loop.period(hotWindow);
            hotRounds++;
        }
        Map<String, Long> hotOps = CountingStorageService.diff(storage.snapshot(), b2);
        int steadyRounds = hotRounds;
        Map<String, Long> decisionOps = new TreeMap<>();
        hotOps.forEach((k, v) -> {
            long x = v - perRound.getOrDefault(k, 0L) * steadyRounds;
            if (x != 0) {
                decisionOps.put(k, x);
            }
        });
        System.out.println("  one scale-out decision (" + hotRounds + " violating rounds, decided "
                                   + (loop.decisionsMade(LoopDecision.Action.SCALE_OUT) - decisionsBefore)
                                   + "): ops beyond the steady rounds " + total(decisionOps) + " " + decisionOps);
    }
}
