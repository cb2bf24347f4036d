// SPDX-License-Identifier: Apache-2.0
package org.srv6int.bench;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.socket.DatagramPacket;
import org.srv6int.app.telemetry.TelemetryEngine;

import java.lang.management.ManagementFactory;

/**
 * The alternative receive path measured against UdpCollector: Netty's epoll datagram channel
 * with recvmmsg (MAX_DATAGRAM_PAYLOAD_SIZE set, 64 datagrams per read), feeding the same
 * TelemetryEngine. Same output as {@link CollectorUdpBench}.
 * Usage: NettyUdpBench &lt;port&gt; &lt;seconds&gt;
 */
public final class NettyUdpBench {

    private NettyUdpBench() {
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        double secs = Double.parseDouble(args[1]);
        TelemetryEngine engine = BenchSetup.engine(System::nanoTime);
        long[] tid = {-1};
        byte[] scratch = new byte[65536];
        EpollEventLoopGroup group = new EpollEventLoopGroup(1);
        try {
            Channel ch = new Bootstrap().group(group).channel(EpollDatagramChannel.class)
                    .option(EpollChannelOption.MAX_DATAGRAM_PAYLOAD_SIZE, 2048)
                    .option(ChannelOption.RCVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(2048 * 64))
                    .option(ChannelOption.SO_RCVBUF, 4 << 20)
                    .handler(new SimpleChannelInboundHandler<DatagramPacket>() {
                        @Override
                        protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket p) {
                            tid[0] = Thread.currentThread().getId();
                            ByteBuf c = p.content();
                            int len = c.readableBytes();
                            c.getBytes(c.readerIndex(), scratch, 0, len);
                            engine.onReport(scratch, 0, len, p.sender().getAddress().hashCode());
                        }
                    }).bind("127.0.0.1", port).sync().channel();
            com.sun.management.ThreadMXBean mx =
                    (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            System.out.println("ready");
            System.out.flush();
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (engine.counters().datagrams() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            long t0 = System.nanoTime();
            long a0 = engine.counters().accepted();
            long d0 = engine.counters().datagrams();
            long b0 = mx.getThreadAllocatedBytes(tid[0]);
            Thread.sleep((long) (secs * 1000));
            long t1 = System.nanoTime();
            long a1 = engine.counters().accepted();
            long d1 = engine.counters().datagrams();
            long b1 = mx.getThreadAllocatedBytes(tid[0]);
            double s = (t1 - t0) / 1e9;
            System.out.printf("netty-epoll accepted=%d datagrams=%d seconds=%.3f reports_per_s=%.0f "
                                      + "bytes_allocated_per_report=%.3f%n",
                              a1 - a0, d1 - d0, s, (a1 - a0) / s, (b1 - b0) / (double) Math.max(1, d1 - d0));
            ch.close().sync();
        } finally {
            group.shutdownGracefully().sync();
        }
    }
}
