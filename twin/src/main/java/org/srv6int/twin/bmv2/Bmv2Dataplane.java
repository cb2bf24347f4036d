// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.bmv2;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.group.Group;
import org.pcap4j.core.NotOpenException;
import org.pcap4j.core.PcapHandle;
import org.pcap4j.core.PcapNativeException;
import org.srv6int.twin.dataplane.Dataplane;

/**
 * The twin's switches as real BMv2 {@code simple_switch_grpc} processes running the compiled
 * SRv6-INT program ({@code pipeconf} resources {@code p4c-out/bmv2/}), wired as a
 * {@link Bmv2Topology} in a network namespace of their own and programmed over P4Runtime with the
 * app's PI rules and groups. Real frames cross real veth links and come out with real SRv6-INT
 * headers and INT reports.
 *
 * <p>Needs root (namespace, veth pairs), {@code simple_switch_grpc} ({@link #findBinary()}) and
 * libpcap; {@link #unavailableReason()} says what is missing. {@link #close()} (also run by a
 * JVM shutdown hook) stops the switches and deletes the namespace.
 */
public final class Bmv2Dataplane implements Dataplane {

    /**
     * Default quiet period of {@link #inject}: after the first frame, no frame for this long ends the
     * wait. It only has to cover the gap between frames of one injection (the sink's frame and its
     * INT report clone leave the same switch together); the switches' own delay is covered by
     * {@link #FIRST_FRAME_NANOS}. Every probe pass costs about this much, so it sets the speed of
     * the twin's path tracing (50 ms made fig8 under {@code ours} take 69 s, 10 ms 38 s).
     */
    public static final long DEFAULT_QUIET_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    /**
     * How long {@link #inject} waits for the first frame to leave. A software switch on a loaded
     * machine can take longer than the quiet period to forward a frame at all, so the quiet period
     * only starts with the first frame; a frame the switches drop costs this wait.
     */
    public static final long FIRST_FRAME_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** Upper bound of one {@link #inject} wait, in case frames keep coming (a forwarding loop). */
    public static final long MAX_WAIT_NANOS = TimeUnit.SECONDS.toNanos(5);

    private static final String PIPECONF_BMV2_JSON = "/p4c-out/bmv2/bmv2.json";

    private final Bmv2Topology topology;
    private final PiToP4Runtime translator;
    private final long quietNanos;
    private final Map<DeviceId, DeviceSync> devices = new LinkedHashMap<>();
    private final Map<DeviceId, Integer> lastWrites = new LinkedHashMap<>();
    private Bmv2Fabric fabric;
    private Thread shutdownHook;

    /**
     * Creates a (not yet started) BMv2 dataplane.
     *
     * @param topology   switches and ports
     * @param translator PI to P4Runtime translation with the program's P4Info
     * @param quietNanos {@link #inject} returns once no frame has left the fabric for this long
     */
    public Bmv2Dataplane(Bmv2Topology topology, PiToP4Runtime translator, long quietNanos) {
        if (quietNanos <= 0) {
            throw new IllegalArgumentException("quiet period must be > 0, got " + quietNanos + " ns");
        }
        this.topology = topology;
        this.translator = translator;
        this.quietNanos = quietNanos;
        for (DeviceId d : topology.switches()) {
            devices.put(d, new DeviceSync(translator));
        }
    }

    /**
     * The paper's testbed with the pipeconf's program and the default quiet period.
     *
     * @return dataplane, not started
     */
    public static Bmv2Dataplane paperTestbed() {
        return new Bmv2Dataplane(Bmv2Topology.paperTestbed(), new PiToP4Runtime(P4InfoIndex.pipeconf()),
                                 DEFAULT_QUIET_NANOS);
    }

    /**
     * Why BMv2 cannot run on this machine, or null if it can.
     *
     * @return reason, or null
     */
    public static String unavailableReason() {
        return Bmv2Fabric.unavailableReason(findBinary());
    }

    /**
     * Finds simple_switch_grpc: {@code $SRV6INT_BMV2} (the binary or its directory), else PATH, else
     * {@code /opt/p4/bin}.
     *
     * @return path, or null if not found
     */
    public static Path findBinary() {
        return Bmv2Fabric.findBinary();
    }

    /**
     * Starts one switch per device with the program loaded and this process as primary controller.
     *
     * @return this
     * @throws IllegalStateException if BMv2 is unavailable or a switch does not come up
     */
    public synchronized Bmv2Dataplane start() {
        if (fabric != null) {
            throw new IllegalStateException("already started");
        }
        String reason = unavailableReason();
        if (reason != null) {
            throw new IllegalStateException("BMv2 dataplane unavailable: " + reason);
        }
        devices.replaceAll((d, s) -> new DeviceSync(translator)); // a fresh pipeline holds nothing
        fabric = Bmv2Fabric.start(topology, findBinary(), translator.p4info().p4info(), bmv2Json());
        shutdownHook = new Thread(this::closeFabric, "bmv2-dataplane-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        return this;
    }

    private static byte[] bmv2Json() {
        try (InputStream in = Bmv2Dataplane.class.getResourceAsStream(PIPECONF_BMV2_JSON)) {
            if (in == null) {
                throw new IllegalStateException(PIPECONF_BMV2_JSON + " is not on the class path (srv6int-pipeconf; "
                        + "run tools/p4-build)");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>Writes only the difference to what this dataplane wrote before (nothing when unchanged).
     *
     * @throws IllegalArgumentException if a rule or group does not translate to the program's P4Info
     * @throws IllegalStateException    if the switch refuses a write (the message has its reasons)
     */
    @Override
    public synchronized void program(DeviceId device, Collection<FlowRule> rules, Collection<Group> groups) {
        DeviceSync sync = devices.get(device);
        if (sync == null) {
            throw new IllegalArgumentException("switch " + device + " is not in the BMv2 fabric");
        }
        P4RuntimeClient client = running().client(device);
        lastWrites.put(device, sync.sync(rules, groups, client::write));
    }

    /**
     * @param device switch
     * @return number of P4Runtime updates the last {@link #program} of the switch wrote
     */
    synchronized int lastWrites(DeviceId device) {
        return lastWrites.getOrDefault(device, 0);
    }

    /**
     * {@inheritDoc}
     *
     * <p>The frame is written into the host end of the edge port's veth; frames are collected from
     * every edge port (host ends, incoming direction) until, after the first one (awaited at most
     * {@link #FIRST_FRAME_NANOS}), none has come for the quiet period ({@link #DEFAULT_QUIET_NANOS}
     * unless configured); at most {@link #MAX_WAIT_NANOS} in all. Frames captured before sending
     * are discarded, but a frame of an earlier call that leaves later than that call's wait is
     * returned with this call's: the switches have no "done" signal, so callers that must tell
     * them apart mark their frames (as {@code PathTracer} tags its probes). Order is the order of capture.
     * {@code nowNanos} is ignored: BMv2 stamps INT times from its own clock.
     *
     * @throws IllegalArgumentException if the port is not an edge port of the fabric
     */
    @Override
    public synchronized List<Frame> inject(DeviceId device, PortNumber port, byte[] frame, long nowNanos) {
        Map<ConnectPoint, PcapHandle> edges = running().edges();
        PcapHandle in = edges.get(new ConnectPoint(device, port));
        if (in == null) {
            throw new IllegalArgumentException(device + " port " + port + " is not an edge port of the BMv2 fabric "
                    + "(edges: " + topology.edges() + ")");
        }
        try {
            for (PcapHandle h : edges.values()) {
                while (h.getNextRawPacket() != null) {
                    // left over from an earlier frame that outlived its quiet period
                }
            }
            in.sendPacket(frame);
            List<Frame> out = new ArrayList<>();
            long start = System.nanoTime();
            long last = start;
            boolean any = false;
            while (true) {
                boolean got = false;
                for (Map.Entry<ConnectPoint, PcapHandle> e : edges.entrySet()) {
                    byte[] b;
                    while ((b = e.getValue().getNextRawPacket()) != null) {
                        out.add(new Frame(e.getKey().deviceId(), e.getKey().port(), b));
                        got = true;
                    }
                }
                long now = System.nanoTime();
                if (got) {
                    last = now;
                    any = true;
                } else if ((any ? now - last >= quietNanos : now - start >= FIRST_FRAME_NANOS)
                        || now - start >= MAX_WAIT_NANOS) {
                    return out;
                } else {
                    LockSupport.parkNanos(200_000);
                }
            }
        } catch (NotOpenException | PcapNativeException e) {
            throw new IllegalStateException("libpcap failed on the BMv2 edge ports: " + e.getMessage(), e);
        }
    }

    private Bmv2Fabric running() {
        if (fabric == null) {
            throw new IllegalStateException("BMv2 dataplane not started (call start())");
        }
        return fabric;
    }

    /** @return the network namespace the switches run in, or null before start */
    public synchronized String netns() {
        return fabric == null ? null : fabric.netns();
    }

    /** @return the topology */
    public Bmv2Topology topology() {
        return topology;
    }

    /** Each probe is a real round trip with a quiet period, so a chain is traced with few flows. */
    @Override
    public int traceFlows() {
        return 32;
    }

    /** Stops the switches and deletes the namespace; idempotent. */
    @Override
    public synchronized void close() {
        if (shutdownHook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException e) {
                // already shutting down: the hook is running this
            }
            shutdownHook = null;
        }
        closeFabric();
    }

    private synchronized void closeFabric() {
        if (fabric != null) {
            fabric.close();
            fabric = null;
        }
    }

    @Override
    public synchronized String toString() {
        return fabric == null ? "BMv2 dataplane (stopped)" : fabric.toString();
    }
}
