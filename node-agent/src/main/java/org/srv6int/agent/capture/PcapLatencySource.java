// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.capture;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Packets from libpcap, live from the NIC or from a pcap file, both through the same BPF
 * filter, into a {@link FrameSink} (the agent). libpcap is called through JNA's direct
 * mapping ({@link Lib}): one native call per frame ({@code pcap_next_ex}, which on Linux
 * steps through the TPACKET_V3 ring libpcap maps) and one copy into a buffer reused for
 * every frame; pcap4j's per-frame path (a header object, a new array and a timestamp per
 * frame) cost more than half the rate (docs/node-agent.md, "Capture speed").
 *
 * <p>A live handle is non-blocking and the thread sleeps in {@code poll(2)} on libpcap's
 * selectable descriptor when the ring is empty, at most until the next tick is due, so the
 * sink's timers run every {@link #LIVE_TIMEOUT_MS} ms whether traffic is idle, sparse or
 * heavy (a blocking read's timeout does not fire while nothing arrives with TPACKET_V3).
 * One thread runs {@link #run}; {@link #stop} may be called from another and takes effect
 * within one tick; the handle is freed by {@link #close} on the thread that ran it.
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

    /** How often the sink's timers run, ms; also libpcap's block time-out (TPACKET_V3 hands a block over after it). */
    public static final int LIVE_TIMEOUT_MS = 100;

    /** Kernel ring of a live capture, bytes (bursts of a 10G NIC while the loop thread is busy). */
    static final int BUFFER_BYTES = 8 << 20;

    private static final int DLT_EN10MB = 1;
    private static final int PCAP_NETMASK_UNKNOWN = 0xffffffff;
    private static final short POLLIN = 1;
    /** Offset of caplen in struct pcap_pkthdr (after struct timeval: two C longs). */
    private static final int CAPLEN_OFFSET = 2 * Native.LONG_SIZE;

    private final Pointer handle;
    private final boolean live;
    private final int fd;
    private final byte[] buf;
    /** pcap_next_ex's two out-parameters: the header and data pointers. */
    private final Memory out = new Memory(2L * Native.POINTER_SIZE);
    private final Pointer hdrOut = out.share(0);
    private final Pointer dataOut = out.share(Native.POINTER_SIZE);
    /** The same two pointers read from Java (a direct buffer: no native call per read). */
    private final ByteBuffer outView = out.getByteBuffer(0, out.size()).order(ByteOrder.nativeOrder());
    /**
     * libpcap hands every frame's header in the same place (a field of its pcap_t): a view
     * of it, made at the first frame, saves a native call per frame; a header elsewhere is
     * read through JNA.
     */
    private long hdrAddress;
    private ByteBuffer hdrView;
    /** struct pollfd {int fd; short events; short revents}. */
    private final Memory pollFd = new Memory(8);
    private volatile boolean stopped;
    private boolean closed;
    private long frames;

    private PcapLatencySource(Pointer handle, boolean live, int snapLength) throws IOException {
        this.handle = handle;
        this.live = live;
        this.buf = new byte[Math.max(snapLength, 65535)];
        try {
            Memory prog = new Memory(16); // struct bpf_program {u_int bf_len; struct bpf_insn *bf_insns}
            prog.clear();
            if (Lib.pcap_compile(handle, prog, FILTER, 1, PCAP_NETMASK_UNKNOWN) != 0) {
                throw new IOException("cannot compile BPF filter '" + FILTER + "': " + Lib.pcap_geterr(handle));
            }
            int r = Lib.pcap_setfilter(handle, prog);
            Lib.pcap_freecode(prog);
            if (r != 0) {
                throw new IOException("cannot set BPF filter '" + FILTER + "': " + Lib.pcap_geterr(handle));
            }
            if (live) {
                byte[] err = new byte[256];
                if (Lib.pcap_setnonblock(handle, 1, err) != 0) {
                    throw new IOException("cannot make the capture non-blocking: " + Native.toString(err));
                }
                fd = Lib.pcap_get_selectable_fd(handle);
                if (fd < 0) {
                    throw new IOException("libpcap gives no selectable descriptor for this capture");
                }
                pollFd.setInt(0, fd);
                pollFd.setShort(4, POLLIN);
            } else {
                fd = -1;
            }
        } catch (IOException | RuntimeException e) {
            Lib.pcap_close(handle);
            throw e;
        }
    }

    /**
     * Opens a live capture on a NIC (needs CAP_NET_RAW), not promiscuous.
     *
     * @param iface interface name
     * @param snapLength bytes kept per packet
     * @return the source
     * @throws IOException if the NIC cannot be opened
     */
    public static PcapLatencySource live(String iface, int snapLength) throws IOException {
        byte[] err = new byte[256];
        Pointer p = Lib.pcap_create(iface, err);
        if (p == null) {
            throw new IOException("cannot capture on " + iface + ": " + Native.toString(err));
        }
        Lib.pcap_set_snaplen(p, snapLength);
        Lib.pcap_set_promisc(p, 0);
        Lib.pcap_set_timeout(p, LIVE_TIMEOUT_MS);
        Lib.pcap_set_buffer_size(p, BUFFER_BYTES);
        int r = Lib.pcap_activate(p);
        if (r < 0) {
            String why = Lib.pcap_statustostr(r) + ": " + Lib.pcap_geterr(p);
            Lib.pcap_close(p);
            throw new IOException("cannot capture on " + iface + ": " + why);
        }
        return new PcapLatencySource(p, true, snapLength);
    }

    /**
     * Opens a pcap file (replay and tests).
     *
     * @param file pcap file
     * @return the source
     * @throws IOException if it cannot be opened or is not Ethernet
     */
    public static PcapLatencySource file(Path file) throws IOException {
        byte[] err = new byte[256];
        Pointer p = Lib.pcap_open_offline(file.toString(), err);
        if (p == null) {
            throw new IOException("cannot open " + file + ": " + Native.toString(err));
        }
        int dlt = Lib.pcap_datalink(p);
        if (dlt != DLT_EN10MB) {
            Lib.pcap_close(p);
            throw new IOException(file + ": link type " + dlt + ", expected Ethernet (1)");
        }
        return new PcapLatencySource(p, false, 65535);
    }

    /**
     * Feeds packets to the sink until the file ends or {@link #stop()}.
     *
     * @param sink receives frames and timer ticks
     * @throws IOException if the capture fails
     */
    public void run(FrameSink sink) throws IOException {
        long period = TimeUnit.MILLISECONDS.toNanos(LIVE_TIMEOUT_MS);
        long nextTick = System.nanoTime() + period;
        while (!stopped) {
            int r = Lib.pcap_next_ex(handle, hdrOut, dataOut);
            if (r == 1) {
                int caplen = Math.min(caplen(address(0)), buf.length);
                new Pointer(address(Native.POINTER_SIZE)).read(0, buf, 0, caplen);
                frames++;
                sink.frame(buf, caplen);
                if ((frames & 0x3FF) == 0) {
                    sink.tick();
                    nextTick = System.nanoTime() + period;
                }
                continue;
            }
            if (r == -2) { // end of the file
                sink.tick();
                return;
            }
            if (r < 0) {
                throw new IOException("capture failed: " + Lib.pcap_geterr(handle));
            }
            // r == 0: the ring is empty; the timers if due, else wait for a packet until they are
            long now = System.nanoTime();
            if (now - nextTick >= 0) {
                sink.tick();
                nextTick = now + period;
                continue;
            }
            int waitMs = (int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(nextTick - now));
            if (Lib.poll(pollFd, 1, waitMs) < 0 && Native.getLastError() != 4) { // 4: EINTR
                throw new IOException("poll on the capture failed: errno " + Native.getLastError());
            }
        }
    }

    private long address(int offset) {
        return Native.POINTER_SIZE == 8 ? outView.getLong(offset) : outView.getInt(offset) & 0xffffffffL;
    }

    private int caplen(long hdr) {
        if (hdr != hdrAddress) {
            hdrAddress = hdr;
            hdrView = new Pointer(hdr).getByteBuffer(0, CAPLEN_OFFSET + 8L).order(ByteOrder.nativeOrder());
        }
        return hdrView.getInt(CAPLEN_OFFSET);
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

    /** Makes {@link #run} return within one tick (from another thread). */
    public void stop() {
        stopped = true;
    }

    /** Frees the handle; call on the thread that ran {@link #run}, after it returned. Idempotent. */
    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            Lib.pcap_close(handle);
        }
    }

    /** libpcap through JNA's direct mapping: no reflection, no per-call allocation. */
    @SuppressWarnings("MethodName")
    private static final class Lib {
        static {
            Native.register(Lib.class, NativeLibrary.getInstance("pcap"));
        }

        static native Pointer pcap_create(String dev, byte[] errbuf);

        static native int pcap_set_snaplen(Pointer p, int snaplen);

        static native int pcap_set_promisc(Pointer p, int promisc);

        static native int pcap_set_timeout(Pointer p, int ms);

        static native int pcap_set_buffer_size(Pointer p, int bytes);

        static native int pcap_activate(Pointer p);

        static native String pcap_statustostr(int status);

        static native Pointer pcap_open_offline(String file, byte[] errbuf);

        static native int pcap_datalink(Pointer p);

        static native int pcap_compile(Pointer p, Pointer prog, String filter, int optimize, int netmask);

        static native int pcap_setfilter(Pointer p, Pointer prog);

        static native void pcap_freecode(Pointer prog);

        static native int pcap_setnonblock(Pointer p, int nonblock, byte[] errbuf);

        static native int pcap_get_selectable_fd(Pointer p);

        static native int pcap_next_ex(Pointer p, Pointer hdr, Pointer data);

        static native String pcap_geterr(Pointer p);

        static native void pcap_close(Pointer p);

        /** poll(2) of the C library (where the JVM found it: every process links libc). */
        static int poll(Pointer fds, long nfds, int timeoutMs) {
            return Libc.poll(fds, nfds, timeoutMs);
        }
    }

    /** poll(2) through JNA's direct mapping; errno kept for {@link Native#getLastError}. */
    private static final class Libc {
        static {
            Native.register(Libc.class, NativeLibrary.getInstance("c"));
        }

        static native int poll(Pointer fds, long nfds, int timeoutMs);
    }
}
