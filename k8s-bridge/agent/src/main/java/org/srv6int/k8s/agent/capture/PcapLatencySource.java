package org.srv6int.k8s.agent.capture;

import org.pcap4j.core.BpfProgram.BpfCompileMode;
import org.pcap4j.core.NotOpenException;
import org.pcap4j.core.PcapHandle;
import org.pcap4j.core.PcapNativeException;
import org.pcap4j.core.PcapNetworkInterface;
import org.pcap4j.core.PcapNetworkInterface.PromiscuousMode;
import org.pcap4j.core.Pcaps;
import org.pcap4j.packet.namednumber.DataLinkType;

import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeoutException;

/**
 * Packets from libpcap through pcap4j: live from the NIC or from a pcap
 * file, both through the same BPF filter, into a {@link FrameSink} (the agent).
 */
public final class PcapLatencySource implements AutoCloseable {

    /**
     * BPF filter: IPv6 whose Next Header is 43 (Routing) and whose routing
     * header is of type 4 (SRH). {@code ip6[6]} is the fixed header's Next
     * Header, {@code ip6[42]} the Routing Type (byte 2 of the header right
     * after the 40-byte IPv6 header). A plain {@code ip6 proto 43} would not
     * check the type; the SFC-mode flag and the SID are checked in Java so
     * they are counted.
     */
    public static final String FILTER = "ip6 and ip6[6] == 43 and ip6[42] == 4";

    /** Read timeout of a live capture, ms: how often the loop's timers run when idle. */
    public static final int LIVE_TIMEOUT_MS = 100;

    private final PcapHandle handle;
    private final boolean live;
    private volatile boolean stopped;
    private long frames;

    private PcapLatencySource(PcapHandle handle, boolean live) throws IOException {
        this.handle = handle;
        this.live = live;
        try {
            handle.setFilter(FILTER, BpfCompileMode.OPTIMIZE);
        } catch (PcapNativeException | NotOpenException e) {
            handle.close();
            throw new IOException("cannot set BPF filter '" + FILTER + "': " + e.getMessage(), e);
        }
    }

    /**
     * Opens a live capture on a NIC (needs CAP_NET_RAW).
     *
     * @param iface interface name
     * @param snapLength bytes kept per packet
     * @return the source
     * @throws IOException if the NIC cannot be opened
     */
    public static PcapLatencySource live(String iface, int snapLength) throws IOException {
        try {
            PcapNetworkInterface nif = Pcaps.getDevByName(iface);
            if (nif == null) {
                throw new IOException("no such interface: " + iface);
            }
            return new PcapLatencySource(nif.openLive(snapLength, PromiscuousMode.NONPROMISCUOUS,
                    LIVE_TIMEOUT_MS), true);
        } catch (PcapNativeException e) {
            throw new IOException("cannot capture on " + iface + ": " + e.getMessage(), e);
        }
    }

    /**
     * Opens a pcap file (replay and tests).
     *
     * @param file pcap file
     * @return the source
     * @throws IOException if it cannot be opened or is not Ethernet
     */
    public static PcapLatencySource file(Path file) throws IOException {
        try {
            PcapHandle h = Pcaps.openOffline(file.toString());
            if (h.getDlt() != DataLinkType.EN10MB) {
                h.close();
                throw new IOException(file + ": link type " + h.getDlt() + ", expected Ethernet");
            }
            return new PcapLatencySource(h, false);
        } catch (PcapNativeException e) {
            throw new IOException("cannot open " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Feeds packets to the sink until the file ends or {@link #stop()}.
     *
     * @param sink receives frames and timer ticks
     * @throws IOException if the capture fails
     */
    public void run(FrameSink sink) throws IOException {
        while (!stopped) {
            byte[] frame;
            try {
                frame = handle.getNextRawPacketEx();
            } catch (TimeoutException e) {
                sink.tick();
                continue;
            } catch (EOFException e) {
                sink.tick();
                return;
            } catch (PcapNativeException | NotOpenException e) {
                if (stopped) {
                    return;
                }
                throw new IOException("capture failed: " + e.getMessage(), e);
            }
            frames++;
            sink.frame(frame, frame.length);
            if ((frames & 0x3FF) == 0) {
                sink.tick();
            }
        }
    }

    /**
     * Frames read so far (after the BPF filter).
     *
     * @return count
     */
    public long frames() {
        return frames;
    }

    /**
     * Whether this is a live capture.
     *
     * @return true for a NIC, false for a file
     */
    public boolean isLive() {
        return live;
    }

    /** Makes {@link #run} return (from another thread). */
    public void stop() {
        stopped = true;
        try {
            handle.breakLoop();
        } catch (NotOpenException e) {
            // already closed
        }
    }

    @Override
    public void close() {
        handle.close();
    }
}
