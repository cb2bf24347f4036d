// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.control;

import static org.junit.Assert.assertEquals;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.Before;
import org.junit.Test;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.group.Group;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.api.model.VnfReplicaId;
import org.srv6int.app.testing.AppHarness;
import org.srv6int.app.testing.PaperTestbed;
import org.srv6int.twin.dataplane.Dataplane;

/**
 * {@link PathTracer} against a scripted data plane: flows are spread over replica sequences by
 * their UDP source port, frames leave at the replicas' server ports addressed to their SIDs,
 * and at the egress with a report clone to the collector port. The tracer must recover exactly
 * the scripted shares, follow multi-vNF paths, ignore the clone and count dropped flows nowhere,
 * also when every frame leaves one injection late (as from a BMv2 switch slower than the wait).
 */
public class PathTracerTest {
    private AppHarness app;
    private Sfc sfc1;
    private Sfc sfc2;

    @Before
    public void setUp() {
        app = new AppHarness();
        app.deployFig5();
        app.inventory.addReplica(VnfKey.of(PaperTestbed.SFC2, 0), "worker2", "r1");
        sfc1 = app.sfcs.getSfc(PaperTestbed.SFC1).orElseThrow();
        sfc2 = app.sfcs.getSfc(PaperTestbed.SFC2).orElseThrow();
    }

    private VnfReplica replica(Sfc sfc, int vnf, String name) {
        return app.inventory.getReplica(VnfReplicaId.of(VnfKey.of(sfc.id(), vnf), name)).orElseThrow();
    }

    /**
     * Flow with UDP source port p takes path {@code paths[p % paths.size()]} (null: dropped).
     * The frame carries the path and hop index in its IPv6 source address.
     */
    private static final class Scripted implements Dataplane {
        final List<List<VnfReplica>> paths;
        final Sfc sfc;

        Scripted(Sfc sfc, List<List<VnfReplica>> paths) {
            this.sfc = sfc;
            this.paths = paths;
        }

        @Override
        public void program(DeviceId device, Collection<FlowRule> rules, Collection<Group> groups) {
        }

        @Override
        public List<Frame> inject(DeviceId device, PortNumber port, byte[] frame, long nowNanos) {
            int path;
            int hop;
            if (device.equals(sfc.ingress().deviceId()) && port.equals(sfc.ingress().port())) {
                int sport = ((frame[34] & 0xFF) << 8) | (frame[35] & 0xFF);
                path = sport % paths.size();
                hop = 0;
            } else {
                path = frame[14 + 8];
                hop = frame[14 + 9] + 1;
            }
            List<VnfReplica> p = paths.get(path);
            List<Frame> out = new ArrayList<>();
            if (p == null) {
                return out;
            }
            byte[] v6 = new byte[14 + 40 + 8 + 32];
            // a switch carries the probe's UDP payload (its tag) unchanged
            System.arraycopy(frame, frame.length - 32, v6, v6.length - 32, 32);
            v6[12] = (byte) 0x86;
            v6[13] = (byte) 0xDD;
            v6[14 + 8] = (byte) path;
            v6[14 + 9] = (byte) hop;
            if (hop < p.size()) {
                System.arraycopy(p.get(hop).sid().toOctets(), 0, v6, 14 + 24, 16);
                out.add(new Frame(p.get(hop).deviceId(), p.get(hop).port(), v6));
            } else {
                out.add(new Frame(PaperTestbed.SW4, PortNumber.portNumber(10), v6));
                out.add(new Frame(sfc.egress().deviceId(), sfc.egress().port(), v6));
            }
            return out;
        }

        @Override
        public void close() {
        }
    }

    /**
     * Frames leave one injection late: each inject returns what the previous one sent out, so
     * every pass first sees the previous pass's (or probe's) frames, and its own only on a resend.
     */
    private static final class OneLate implements Dataplane {
        final Dataplane switches;
        List<Frame> inFlight = List.of();
        int injections;

        OneLate(Dataplane switches) {
            this.switches = switches;
        }

        @Override
        public void program(DeviceId device, Collection<FlowRule> rules, Collection<Group> groups) {
        }

        @Override
        public List<Frame> inject(DeviceId device, PortNumber port, byte[] frame, long nowNanos) {
            injections++;
            List<Frame> out = inFlight;
            inFlight = switches.inject(device, port, frame, nowNanos);
            return out;
        }

        @Override
        public void close() {
        }
    }

    private Map<List<String>, Double> trace(Sfc sfc, List<List<VnfReplica>> paths) {
        return trace(sfc, new Scripted(sfc, paths));
    }

    private Map<List<String>, Double> trace(Sfc sfc, Dataplane dp) {
        Map<List<String>, Double> out = new LinkedHashMap<>();
        PathTracer.trace(dp, sfc, app.inventory, app.config.devices, 0)
                .forEach((p, w) -> {
                    List<String> names = new ArrayList<>();
                    p.forEach(id -> names.add(id.toString()));
                    out.put(names, w);
                });
        return out;
    }

    @Test
    public void sharesOfTheProbeFlowsAreThePathWeights() {
        VnfReplica r0 = replica(sfc2, 0, "r0");
        VnfReplica r1 = replica(sfc2, 0, "r1");
        Map<List<String>, Double> w = trace(sfc2, List.of(List.of(r0), List.of(r0), List.of(r0), List.of(r1)));
        assertEquals(Map.of(List.of(r0.id().toString()), 0.75, List.of(r1.id().toString()), 0.25), w);
    }

    @Test
    public void followsEveryVnfOfAChain() {
        List<VnfReplica> both = List.of(replica(sfc1, 0, "r0"), replica(sfc1, 1, "r0"));
        Map<List<String>, Double> w = trace(sfc1, List.of(both));
        assertEquals(Map.of(List.of(both.get(0).id().toString(), both.get(1).id().toString()), 1.0), w);
    }

    @Test
    public void droppedFlowsCountTowardsNoPath() {
        VnfReplica r1 = replica(sfc2, 0, "r1");
        List<List<VnfReplica>> paths = new ArrayList<>();
        paths.add(List.of(r1));
        paths.add(null);
        assertEquals(Map.of(List.of(r1.id().toString()), 0.5), trace(sfc2, paths));
    }

    @Test
    public void framesThatLeaveLateAreNotTakenForALaterProbe() {
        List<VnfReplica> both = List.of(replica(sfc1, 0, "r0"), replica(sfc1, 1, "r0"));
        OneLate late = new OneLate(new Scripted(sfc1, List.of(both)));
        Map<List<String>, Double> w = trace(sfc1, late);
        assertEquals(Map.of(List.of(both.get(0).id().toString(), both.get(1).id().toString()), 1.0), w);
        // each of the 3 passes of the 256 probes is sent twice: the first send's frames come with the second
        assertEquals(256 * 3 * 2, late.injections);

        VnfReplica r0 = replica(sfc2, 0, "r0");
        VnfReplica r1 = replica(sfc2, 0, "r1");
        assertEquals(Map.of(List.of(r0.id().toString()), 0.75, List.of(r1.id().toString()), 0.25),
                     trace(sfc2, new OneLate(new Scripted(sfc2, List.of(List.of(r0), List.of(r0), List.of(r0),
                                                                        List.of(r1))))));
    }

    @Test
    public void aFlowIsDroppedOnlyAfterItsResends() {
        VnfReplica r1 = replica(sfc2, 0, "r1");
        List<List<VnfReplica>> paths = new ArrayList<>();
        paths.add(List.of(r1));
        paths.add(null);
        OneLate late = new OneLate(new Scripted(sfc2, paths));
        assertEquals(Map.of(List.of(r1.id().toString()), 0.5), trace(sfc2, late));
        // kept flows: 2 passes, 2 sends each; dropped flows: 1 + RESENDS sends of their first pass
        assertEquals(128 * 2 * 2 + 128 * (1 + PathTracer.RESENDS), late.injections);
    }
}
