// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.telemetry;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The INT report listener: N receive threads, each on its own SO_REUSEPORT socket bound to the
 * same address, each feeding its own {@link TelemetryShards} shard, so the threads share nothing
 * (the kernel spreads switches over the sockets by hashing their 4-tuple). Each thread receives
 * with a blocking {@link DatagramChannel} into one reused buffer; chosen over Netty's epoll
 * recvmmsg transport by measurement (docs/collector.md): with no allocation per datagram it
 * received 1.6x the reports/s of Netty epoll + recvmmsg feeding the same engine.
 */
public final class UdpCollector implements AutoCloseable {

    private static final int MAX_DATAGRAM = 65_535;

    private final TelemetryShards shards;
    private final List<DatagramChannel> channels = new ArrayList<>();
    private final List<Thread> receivers = new ArrayList<>();
    private final AtomicLongArray receiveErrors;
    private final InetSocketAddress local;
    private volatile boolean running = true;

    /**
     * Binds the sockets and starts one receiver thread per socket.
     *
     * @param shards        where reports go; grown to {@code threads} shards
     * @param threads       receive threads (and sockets)
     * @param bind          IPv4 address and port to listen on (port 0 picks a free one); not the
     *                      wildcard address
     * @param receiveBuffer SO_RCVBUF of each socket in bytes (the kernel may cap it)
     * @throws IOException if the address is in use by another socket or cannot be bound
     */
    public UdpCollector(TelemetryShards shards, int threads, InetSocketAddress bind, int receiveBuffer)
            throws IOException {
        if (!(bind.getAddress() instanceof Inet4Address)) {
            throw new IllegalArgumentException("collector address must be IPv4, got " + bind);
        }
        if (bind.getAddress().isAnyLocalAddress()) {
            // Listen where the switches send their reports, nowhere else (docs/collector.md).
            throw new IllegalArgumentException("collector address must be the netcfg collector address, not the "
                                                       + "wildcard " + bind);
        }
        if (threads < 1) {
            throw new IllegalArgumentException("collector threads must be at least 1, got " + threads);
        }
        shards.ensure(threads);
        this.shards = shards;
        this.receiveErrors = new AtomicLongArray(threads);
        try {
            if (bind.getPort() != 0) {
                refuseIfTaken(bind);
            }
            InetSocketAddress at = bind;
            for (int i = 0; i < threads; i++) {
                DatagramChannel ch = DatagramChannel.open(StandardProtocolFamily.INET);
                channels.add(ch);
                ch.setOption(StandardSocketOptions.SO_RCVBUF, receiveBuffer);
                if (threads > 1) {
                    ch.setOption(StandardSocketOptions.SO_REUSEPORT, true);
                }
                ch.bind(at);
                // Port 0: the first socket picks the port, the others join it.
                at = (InetSocketAddress) ch.getLocalAddress();
            }
            this.local = at;
        } catch (IOException | RuntimeException e) {
            closeChannels();
            throw e;
        }
        for (int i = 0; i < threads; i++) {
            int shard = i;
            Thread t = new Thread(() -> run(shard), "srv6int-int-collector-" + i);
            t.setDaemon(true);
            receivers.add(t);
            t.start();
        }
    }

    // SO_REUSEPORT would let us silently share a port another collector holds: check it is free.
    private static void refuseIfTaken(InetSocketAddress bind) throws IOException {
        try (DatagramChannel probe = DatagramChannel.open(StandardProtocolFamily.INET)) {
            probe.bind(bind);
        }
    }

    /**
     * Returns the bound address.
     *
     * @return local address and port
     */
    public InetSocketAddress localAddress() {
        return local;
    }

    /** @return receive threads */
    public int threads() {
        return channels.size();
    }

    /** @return socket errors other than close, all threads */
    public long receiveErrors() {
        long n = 0;
        for (int i = 0; i < receiveErrors.length(); i++) {
            n += receiveErrors.get(i);
        }
        return n;
    }

    /**
     * Returns the datagrams the kernel dropped on this collector's port because a socket's
     * receive buffer was full ("drops" of /proc/net/udp, summed over the port's sockets).
     *
     * @return drops, or -1 where /proc/net/udp cannot be read
     */
    public long kernelDrops() {
        return kernelDrops(local.getPort());
    }

    /**
     * Returns the kernel's receive-buffer drops of every IPv4 UDP socket bound to a port.
     *
     * @param port local port
     * @return drops, or -1 where /proc/net/udp cannot be read
     */
    public static long kernelDrops(int port) {
        String suffix = String.format(Locale.ROOT, ":%04X", port);
        try {
            long drops = 0;
            for (String line : Files.readAllLines(Path.of("/proc/net/udp"))) {
                String[] f = line.trim().split("\\s+");
                if (f.length >= 13 && f[1].endsWith(suffix)) {
                    drops += Long.parseLong(f[12]);
                }
            }
            return drops;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private void run(int shard) {
        TelemetryEngine engine = shards.shard(shard);
        DatagramChannel channel = channels.get(shard);
        // A heap buffer: the JDK copies from its cached direct buffer (~150 B) and the codec reads
        // a byte[] about twice as fast as a direct ByteBuffer (measured, docs/collector.md).
        ByteBuffer buf = ByteBuffer.allocate(MAX_DATAGRAM);
        byte[] array = buf.array();
        while (running) {
            buf.clear();
            SocketAddress from;
            try {
                from = channel.receive(buf);
            } catch (ClosedChannelException e) {
                break;
            } catch (IOException e) {
                receiveErrors.incrementAndGet(shard);
                continue;
            }
            if (from instanceof InetSocketAddress) {
                // Inet4Address.hashCode() is its address as an int: no byte[] per datagram.
                int src = ((InetSocketAddress) from).getAddress().hashCode();
                engine.onReport(array, 0, buf.position(), src);
            }
        }
    }

    private void closeChannels() {
        for (DatagramChannel ch : channels) {
            try {
                ch.close();
            } catch (IOException e) {
                receiveErrors.incrementAndGet(0);
            }
        }
    }

    /**
     * Stops the receivers and closes the sockets.
     */
    @Override
    public void close() {
        running = false;
        closeChannels();
        for (Thread t : receivers) {
            try {
                t.join(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
