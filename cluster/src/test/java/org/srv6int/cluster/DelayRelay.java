// SPDX-License-Identifier: Apache-2.0
package org.srv6int.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP relay that delays every byte it forwards, each direction on its own: this kernel has no
 * {@code netem}, so delay between members is made by sending their connections through this
 * (iptables DNAT in each member's namespace, {@link ClusterPartitionTest}). Each chunk read is
 * written {@code delay ± jitter} ms after it was read, never before an earlier chunk (order kept).
 */
final class DelayRelay implements AutoCloseable {

    private final ServerSocket server;
    private final InetSocketAddress target;
    private final long delayMs;
    private final long jitterMs;
    private final List<Socket> sockets = new ArrayList<>();
    private final AtomicLong chunks = new AtomicLong();
    private volatile boolean closed;

    /**
     * Listens on {@code listen} (port 0: any) and relays each connection to {@code target}.
     */
    DelayRelay(InetSocketAddress listen, InetSocketAddress target, long delayMs, long jitterMs) throws IOException {
        this.server = new ServerSocket();
        server.bind(listen);
        this.target = target;
        this.delayMs = delayMs;
        this.jitterMs = jitterMs;
        Thread t = new Thread(this::accept, "delay-relay-" + target);
        t.setDaemon(true);
        t.start();
    }

    int port() {
        return server.getLocalPort();
    }

    /** Chunks forwarded so far (both directions): proof the traffic went through the relay. */
    long chunks() {
        return chunks.get();
    }

    private void accept() {
        while (!closed) {
            try {
                Socket in = server.accept();
                Socket out = new Socket();
                out.connect(target, 2000);
                in.setTcpNoDelay(true);
                out.setTcpNoDelay(true);
                synchronized (sockets) {
                    sockets.add(in);
                    sockets.add(out);
                }
                pump(in, out);
                pump(out, in);
            } catch (IOException e) {
                // target refused or relay closing: the member's client retries a new connection
            }
        }
    }

    private static final class Chunk {
        private final long due;
        private final byte[] data;

        Chunk(long due, byte[] data) {
            this.due = due;
            this.data = data;
        }
    }

    private void pump(Socket from, Socket to) throws IOException {
        BlockingQueue<Chunk> queue = new LinkedBlockingQueue<>();
        InputStream in = from.getInputStream();
        OutputStream out = to.getOutputStream();
        Thread reader = new Thread(() -> {
            byte[] buf = new byte[16384];
            long last = 0;
            try {
                int n;
                while ((n = in.read(buf)) > 0) {
                    long jitter = jitterMs == 0 ? 0 : ThreadLocalRandom.current().nextLong(-jitterMs, jitterMs + 1);
                    long due = Math.max(last, System.nanoTime() / 1_000_000 + delayMs + jitter);
                    last = due;
                    queue.add(new Chunk(due, Arrays.copyOf(buf, n)));
                }
            } catch (IOException e) {
                // closed
            }
            queue.add(new Chunk(-1, null));
        }, "delay-relay-read");
        Thread writer = new Thread(() -> {
            try {
                while (true) {
                    Chunk c = queue.take();
                    if (c.data == null) {
                        break;
                    }
                    long wait = c.due - System.nanoTime() / 1_000_000;
                    if (wait > 0) {
                        Thread.sleep(wait);
                    }
                    out.write(c.data);
                    out.flush();
                    chunks.incrementAndGet();
                }
            } catch (IOException | InterruptedException e) {
                // closed
            }
            closeQuietly(from);
            closeQuietly(to);
        }, "delay-relay-write");
        reader.setDaemon(true);
        writer.setDaemon(true);
        reader.start();
        writer.start();
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // already closed
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        server.close();
        synchronized (sockets) {
            sockets.forEach(DelayRelay::closeQuietly);
        }
    }
}
