// SPDX-License-Identifier: Apache-2.0
package org.srv6int.twin.bmv2;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.unix.DomainSocketAddress;
import io.grpc.protobuf.StatusProto;
import io.grpc.stub.StreamObserver;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import p4.config.v1.P4InfoOuterClass.P4Info;
import p4.v1.P4RuntimeGrpc;
import p4.v1.P4RuntimeOuterClass.ForwardingPipelineConfig;
import p4.v1.P4RuntimeOuterClass.MasterArbitrationUpdate;
import p4.v1.P4RuntimeOuterClass.SetForwardingPipelineConfigRequest;
import p4.v1.P4RuntimeOuterClass.StreamMessageRequest;
import p4.v1.P4RuntimeOuterClass.StreamMessageResponse;
import p4.v1.P4RuntimeOuterClass.Uint128;
import p4.v1.P4RuntimeOuterClass.Update;
import p4.v1.P4RuntimeOuterClass.WriteRequest;

/**
 * The primary P4Runtime controller of one {@code simple_switch_grpc}: opens the stream channel,
 * wins the arbitration (election id 1), pushes the pipeline and writes batches. It talks over a
 * Unix-domain socket because the switch runs in a network namespace whose loopback the JVM cannot
 * reach; a socket path is the same in every namespace.
 */
final class P4RuntimeClient implements AutoCloseable {

    private static final Uint128 ELECTION_ID = Uint128.newBuilder().setHigh(0).setLow(1).build();

    private final String name;
    private final long deviceId;
    private final EpollEventLoopGroup loop;
    private final ManagedChannel channel;
    private final P4RuntimeGrpc.P4RuntimeBlockingStub blocking;
    private StreamObserver<StreamMessageRequest> stream;

    /**
     * Connects (lazily) to a switch.
     *
     * @param name     switch name, for messages
     * @param socket   the switch's gRPC Unix socket
     * @param deviceId P4Runtime device id
     */
    P4RuntimeClient(String name, Path socket, long deviceId) {
        this.name = name;
        this.deviceId = deviceId;
        this.loop = new EpollEventLoopGroup(1);
        this.channel = NettyChannelBuilder.forAddress(new DomainSocketAddress(socket.toString()))
                .eventLoopGroup(loop)
                .channelType(EpollDomainSocketChannel.class)
                .usePlaintext()
                .build();
        this.blocking = P4RuntimeGrpc.newBlockingStub(channel);
    }

    /**
     * Opens the stream channel and becomes primary, waiting for the server to come up.
     *
     * @param timeoutMs how long to wait for the server and the arbitration answer
     * @throws IllegalStateException if the switch does not answer or another controller is primary
     */
    void becomePrimary(long timeoutMs) {
        CompletableFuture<MasterArbitrationUpdate> answer = new CompletableFuture<>();
        stream = P4RuntimeGrpc.newStub(channel).withWaitForReady().streamChannel(
                new StreamObserver<StreamMessageResponse>() {
                    @Override
                    public void onNext(StreamMessageResponse r) {
                        if (r.hasArbitration()) {
                            answer.complete(r.getArbitration());
                        }
                        // packet-ins and digests are not used by the twin
                    }

                    @Override
                    public void onError(Throwable t) {
                        answer.completeExceptionally(t);
                    }

                    @Override
                    public void onCompleted() {
                        answer.completeExceptionally(new IllegalStateException("stream closed by the switch"));
                    }
                });
        stream.onNext(StreamMessageRequest.newBuilder().setArbitration(MasterArbitrationUpdate.newBuilder()
                .setDeviceId(deviceId).setElectionId(ELECTION_ID)).build());
        MasterArbitrationUpdate a;
        try {
            a = answer.get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(name + ": interrupted waiting for the arbitration", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException(name + ": no P4Runtime arbitration answer within " + timeoutMs
                    + " ms: " + (e.getCause() != null ? e.getCause() : e), e);
        }
        if (a.getStatus().getCode() != io.grpc.Status.Code.OK.value()) {
            throw new IllegalStateException(name + ": not primary: " + a.getStatus().getMessage());
        }
    }

    /**
     * Pushes the P4Info and the BMv2 JSON (VERIFY_AND_COMMIT): every table, register and session starts empty.
     *
     * @param p4info    P4Info
     * @param bmv2Json  BMv2 JSON
     */
    void setPipeline(P4Info p4info, byte[] bmv2Json) {
        try {
            blocking.withDeadlineAfter(60, TimeUnit.SECONDS).setForwardingPipelineConfig(
                    SetForwardingPipelineConfigRequest.newBuilder()
                            .setDeviceId(deviceId).setElectionId(ELECTION_ID)
                            .setAction(SetForwardingPipelineConfigRequest.Action.VERIFY_AND_COMMIT)
                            .setConfig(ForwardingPipelineConfig.newBuilder().setP4Info(p4info)
                                               .setP4DeviceConfig(ByteString.copyFrom(bmv2Json)))
                            .build());
        } catch (StatusRuntimeException e) {
            throw new IllegalStateException(name + ": SetForwardingPipelineConfig failed: " + describe(e), e);
        }
    }

    /**
     * Writes one batch; the updates of a batch must not depend on each other (P4Runtime does not order them).
     *
     * @param updates updates, none is a no-op
     * @throws IllegalStateException with the switch's per-update errors if the write fails
     */
    void write(List<Update> updates) {
        if (updates.isEmpty()) {
            return;
        }
        try {
            blocking.withDeadlineAfter(30, TimeUnit.SECONDS).write(WriteRequest.newBuilder()
                    .setDeviceId(deviceId).setElectionId(ELECTION_ID).addAllUpdates(updates).build());
        } catch (StatusRuntimeException e) {
            throw new IllegalStateException(name + ": P4Runtime write failed: " + describe(e, updates), e);
        }
    }

    private static String describe(StatusRuntimeException e) {
        return describe(e, List.of());
    }

    /** The status and, for a batch, each failed update with the server's reason. */
    private static String describe(StatusRuntimeException e, List<Update> updates) {
        StringBuilder sb = new StringBuilder(e.getStatus().toString());
        com.google.rpc.Status s = StatusProto.fromThrowable(e);
        if (s == null) {
            return sb.toString();
        }
        List<String> failed = new ArrayList<>();
        for (int i = 0; i < s.getDetailsCount(); i++) {
            Any any = s.getDetails(i);
            try {
                p4.v1.P4RuntimeOuterClass.Error err = any.unpack(p4.v1.P4RuntimeOuterClass.Error.class);
                if (err.getCanonicalCode() != 0) {
                    String u = i < updates.size() ? " " + updates.get(i).getType() + " "
                            + updates.get(i).getEntity().toString().replace('\n', ' ') : "";
                    failed.add("[" + i + "] " + err.getMessage() + u);
                }
            } catch (InvalidProtocolBufferException x) {
                failed.add("[" + i + "] (undecodable detail " + any.getTypeUrl() + ")");
            }
        }
        if (!failed.isEmpty()) {
            sb.append("; ").append(String.join("; ", failed));
        }
        return sb.toString();
    }

    @Override
    public void close() {
        if (stream != null) {
            try {
                stream.onCompleted();
            } catch (RuntimeException e) {
                // the switch may already be gone: nothing left to close on its side
            }
        }
        channel.shutdownNow();
        try {
            channel.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }
}
