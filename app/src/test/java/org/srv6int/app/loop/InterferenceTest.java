// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import org.srv6int.app.testing.FakePorts;
import org.srv6int.app.testing.FakeReplicaPlatform;

import org.junit.Test;
import org.srv6int.app.api.model.InterferenceView;
import org.srv6int.app.api.model.NodeResources;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfClass;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.placement.InterferenceMatrix;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;
import static org.srv6int.app.api.model.VnfClass.FLOW_MONITORING;
import static org.srv6int.app.api.model.VnfClass.HEADER_READING;
import static org.srv6int.app.api.model.VnfClass.HEADER_REWRITING;
import static org.srv6int.app.api.model.VnfClass.PAYLOAD_INSPECTION;
import static org.srv6int.app.api.model.VnfClass.PORT_REWRITING;

/**
 * The interference matrix (seeded from vnf-interference.txt), the placement's scoring step in
 * front of the routing's own placement, and the online learner over the loop's observations.
 */
public class InterferenceTest {

    private static final VnfKey NEW = VnfKey.of(SfcId.of(9), 0);

    /** Where each vNF runs and its class; placement: most free CPU, as the fakes of the loop. */
    static final class Nodes implements NodeResidents, Colocation {
        final Map<VnfKey, VnfClass> cls = new HashMap<>();
        final Map<VnfKey, Map<String, String>> at = new HashMap<>();

        void put(VnfKey k, VnfClass c, String replica, String node) {
            cls.put(k, c);
            at.computeIfAbsent(k, x -> new TreeMap<>()).put(replica, node);
        }

        @Override
        public Map<String, List<VnfClass>> classesByNode() {
            Map<String, List<VnfClass>> out = new TreeMap<>();
            at.forEach((k, m) -> m.values().forEach(n -> out.computeIfAbsent(n, x -> new ArrayList<>())
                    .add(cls.get(k))));
            return out;
        }

        @Override
        public Optional<VnfClass> classOf(VnfKey vnf) {
            return Optional.ofNullable(cls.get(vnf));
        }

        @Override
        public Map<String, String> replicaNodes(VnfKey vnf) {
            return at.getOrDefault(vnf, Map.of());
        }

        @Override
        public long cpuRequestMillis(VnfKey vnf) {
            return 1000;
        }
    }

    @Test
    public void seedReproducesThePapersMeansAndNamedPairs() {
        InterferenceMatrix m = new InterferenceMatrix();
        double[] tableIii = {87.64, 49.69, 64.07, 64.78, 61.14};
        for (VnfClass t : VnfClass.values()) {
            double s = 0;
            for (VnfClass c : VnfClass.values()) {
                s += m.normalized(t, c);
            }
            assertEquals(t.roman(), tableIii[t.ordinal()], 100 * s / 5, 1e-9);
        }
        assertEquals(0.8541, m.normalized(HEADER_READING, PAYLOAD_INSPECTION), 1e-9);
        assertEquals(0.6153, m.normalized(FLOW_MONITORING, PAYLOAD_INSPECTION), 1e-9);
        assertEquals(0.6449, m.normalized(PAYLOAD_INSPECTION, FLOW_MONITORING), 1e-9);
        // Type I is the least aggressive competitor of IV, type V the most.
        for (VnfClass c : VnfClass.values()) {
            assertTrue(m.normalized(HEADER_REWRITING, HEADER_READING) >= m.normalized(HEADER_REWRITING, c));
            assertTrue(m.normalized(HEADER_REWRITING, PORT_REWRITING) <= m.normalized(HEADER_REWRITING, c));
        }
    }

    @Test
    public void anObservationMovesTheRunningMeanAndBadNumbersAreRefused() {
        InterferenceMatrix m = new InterferenceMatrix();
        m.observe(PAYLOAD_INSPECTION, HEADER_READING, 0.5);
        assertEquals(0.7 * 0.72 + 0.3 * 0.5, m.normalized(PAYLOAD_INSPECTION, HEADER_READING), 1e-12);
        m.observe(PAYLOAD_INSPECTION, HEADER_READING, 7);
        assertEquals(0.7 * (0.7 * 0.72 + 0.3 * 0.5) + 0.3, m.normalized(PAYLOAD_INSPECTION, HEADER_READING), 1e-12);
        InterferenceView v = m.view();
        assertEquals(2, v.samples(PAYLOAD_INSPECTION, HEADER_READING));
        assertEquals(0.72, v.seed(PAYLOAD_INSPECTION, HEADER_READING), 1e-12);
        try {
            m.observe(PAYLOAD_INSPECTION, HEADER_READING, Double.NaN);
            fail();
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage().contains("not a number"));
        }
        assertEquals(2, m.view().samples(PAYLOAD_INSPECTION, HEADER_READING));
    }

    @Test
    public void classesParseByNumberOrNameAndRefuseOthers() {
        assertEquals(PAYLOAD_INSPECTION, VnfClass.parse("iii"));
        assertEquals(PORT_REWRITING, VnfClass.parse("PORT_REWRITING"));
        assertEquals(Optional.of(PAYLOAD_INSPECTION), VnfClass.ofType("Snort"));
        assertFalse(VnfClass.ofType("myfw").isPresent());
        try {
            VnfClass.parse("VI");
            fail();
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("got 'VI'"));
        }
    }

    @Test
    public void placementPrefersTheNodeWhoseResidentsInterfereLeastOverTheMostFree() {
        Nodes n = new Nodes();
        // w1: a NAT (type V, the most aggressive); w2: a gateway (type I), less free CPU.
        n.put(VnfKey.of(SfcId.of(1), 0), PORT_REWRITING, "a", "w1");
        n.put(VnfKey.of(SfcId.of(2), 0), HEADER_READING, "b", "w2");
        n.cls.put(NEW, HEADER_REWRITING);
        FakePorts.Routing inner = new FakePorts.Routing();
        InterferenceAwareRouting r = new InterferenceAwareRouting(inner, new InterferenceMatrix(), n);
        List<NodeResources> nodes = List.of(new NodeResources("w1", 3000, 1), new NodeResources("w2", 2000, 1));
        assertEquals(List.of("w1"), inner.placeReplicas(NEW, nodes, 1));
        assertEquals(List.of("w2"), r.placeReplicas(NEW, nodes, 1));
        assertTrue(r.placementNote(), r.placementNote().contains("interference-aware (IV): w2 (loss w1=")
                && r.placementNote().contains("w2=0."));
        // An empty node loses nothing: it wins.
        List<NodeResources> three = List.of(nodes.get(0), nodes.get(1), new NodeResources("w3", 1000, 1));
        assertEquals(List.of("w3"), r.placeReplicas(NEW, three, 1));
        // Two replicas: the second one counts the first as a resident.
        assertEquals(List.of("w3", "w2"), r.placeReplicas(NEW, three, 2));
    }

    @Test
    public void aVnfOfUnknownClassIsPlacedAsUsual() {
        Nodes n = new Nodes();
        n.put(VnfKey.of(SfcId.of(1), 0), PORT_REWRITING, "a", "w1");
        FakePorts.Routing inner = new FakePorts.Routing();
        InterferenceAwareRouting r = new InterferenceAwareRouting(inner, new InterferenceMatrix(), n);
        List<NodeResources> nodes = List.of(new NodeResources("w1", 3000, 1), new NodeResources("w2", 2000, 1));
        assertEquals(List.of("w1"), r.placeReplicas(NEW, nodes, 1));
        assertTrue(r.placementNote(), r.placementNote().contains("has no class"));
    }

    @Test
    public void whenTheLeastInterferingNodesDoNotFitThePlacementSeesAll() {
        Nodes n = new Nodes();
        n.put(VnfKey.of(SfcId.of(1), 0), PORT_REWRITING, "a", "w1");
        n.cls.put(NEW, HEADER_REWRITING);
        FakePorts.Routing most = new FakePorts.Routing();
        ChainRouting picky = new ChainRouting() {
            @Override
            public List<String> placeReplicas(VnfKey vnf, List<NodeResources> candidates, int count) {
                List<NodeResources> fit = new ArrayList<>(candidates);
                fit.removeIf(c -> c.freeCpuMillis() < 1000);
                if (fit.isEmpty()) {
                    throw new IllegalStateException("no candidate node has room");
                }
                return most.placeReplicas(vnf, fit, count);
            }

            @Override
            public void addReplicas(VnfKey vnf, List<org.srv6int.app.api.model.ReplicaInfo> replicas) {
            }

            @Override
            public void drainReplica(VnfKey vnf, String replicaId) {
            }

            @Override
            public void removeReplica(VnfKey vnf, String replicaId) {
            }
        };
        InterferenceAwareRouting r = new InterferenceAwareRouting(picky, new InterferenceMatrix(), n);
        // w2 is empty (no interference) but has no room: w1 it is.
        assertEquals(List.of("w1"), r.placeReplicas(NEW, List.of(new NodeResources("w1", 3000, 1),
                                                                 new NodeResources("w2", 500, 1)), 1));
    }

    @Test
    public void theScaleOutDecisionRecordsTheInterferenceScores() {
        Nodes n = new Nodes();
        VnfKey hot = VnfKey.of(SfcId.of(3), 0);
        n.put(VnfKey.of(SfcId.of(1), 0), PORT_REWRITING, "a", "w1");
        n.put(VnfKey.of(SfcId.of(2), 0), HEADER_READING, "b", "w2");
        n.cls.put(hot, HEADER_REWRITING);
        FakePorts.Clock clock = new FakePorts.Clock();
        FakeReplicaPlatform platform = FakeReplicaPlatform.immediate();
        platform.nodes.add(new NodeResources("w1", 3000, 1));
        platform.nodes.add(new NodeResources("w2", 2000, 1));
        FakePorts.Routing group = new FakePorts.Routing("h0");
        TestLoop loop = new TestLoop(LoopParams.builder().build(), clock, platform,
                                         new InterferenceAwareRouting(group, new InterferenceMatrix(), n));
        for (int i = 0; i < 12; i++) {
            clock.nanos += 500_000_000L;
            loop.round(List.of(new VnfObservation(hot, 1_000_000, 50_000, i == 0 ? 500_000 : 3_000_000, 100,
                                                 group.active(), Map.of())));
        }
        assertEquals(List.of("nodeFreeResources", "create " + hot + " on w2"), platform.calls);
        String detail = loop.history().get(0).detail();
        assertTrue(detail, detail.contains("+1 on w2; interference-aware (IV): w2 (loss w1="));
    }

    static VnfObservation window(VnfKey k, double pps, double mu, String replica) {
        long p95 = Math.round(Math.log(20) / (mu - pps) * 1e9);
        return new VnfObservation(k, 1_000_000, pps, p95, 100, List.of(replica), Map.of(replica, (long) (pps / 2)));
    }

    @Test
    public void learnerTurnsAResidentsSlowdownAfterAnArrivalIntoAnObservation() {
        Nodes n = new Nodes();
        VnfKey ids = VnfKey.of(SfcId.of(1), 0);
        VnfKey nat = VnfKey.of(SfcId.of(2), 0);
        n.put(ids, PAYLOAD_INSPECTION, "s0", "w1");
        InterferenceMatrix m = new InterferenceMatrix();
        InterferenceLearner l = new InterferenceLearner(m);
        // Alone: 100 kpps capacity at 20 kpps offered.
        l.observe(List.of(window(ids, 20_000, 100_000, "s0")), n, n);
        l.observe(List.of(window(ids, 20_000, 100_000, "s0")), n, n);
        // A NAT lands on w1; the IDS's capacity drops to 40 kpps.
        n.put(nat, PORT_REWRITING, "n0", "w1");
        l.observe(List.of(window(ids, 20_000, 40_000, "s0"), window(nat, 20_000, 90_000, "n0")), n, n);
        for (int i = 0; i < InterferenceLearner.SETTLE_WINDOWS; i++) {
            assertEquals(0, l.learned());
            l.observe(List.of(window(ids, 20_000, 40_000, "s0"), window(nat, 20_000, 90_000, "n0")), n, n);
        }
        assertEquals(1, l.learned());
        double seed = InterferenceMatrix.paper(PAYLOAD_INSPECTION, PORT_REWRITING);
        assertEquals(0.7 * seed + 0.3 * 0.4, m.normalized(PAYLOAD_INSPECTION, PORT_REWRITING), 1e-6);
        // The newcomer had no "before": nothing learned for it; other cells untouched.
        assertEquals(0, m.view().samples(PORT_REWRITING, PAYLOAD_INSPECTION));
        assertEquals(InterferenceMatrix.paper(HEADER_READING, HEADER_READING),
                     m.normalized(HEADER_READING, HEADER_READING), 0);
    }

    @Test
    public void twoArrivalsOnOneNodeAtOnceTeachNothing() {
        Nodes n = new Nodes();
        VnfKey ids = VnfKey.of(SfcId.of(1), 0);
        n.put(ids, PAYLOAD_INSPECTION, "s0", "w1");
        InterferenceLearner l = new InterferenceLearner(new InterferenceMatrix());
        l.observe(List.of(window(ids, 20_000, 100_000, "s0")), n, n);
        n.put(VnfKey.of(SfcId.of(2), 0), PORT_REWRITING, "n0", "w1");
        n.put(VnfKey.of(SfcId.of(3), 0), HEADER_READING, "g0", "w1");
        for (int i = 0; i < 4; i++) {
            l.observe(List.of(window(ids, 20_000, 40_000, "s0")), n, n);
        }
        assertEquals(0, l.learned());
    }
}
