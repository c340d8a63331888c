package dev.tributary.node.net;

import io.grpc.ManagedChannel;
import io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.NettyChannelBuilder;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;

/**
 * The node's TLS, in one place: the contexts its gRPC and CQL native ports serve with, and the
 * channels it dials (peers, log transport, database links) — plaintext when the node has no
 * certificate. With a client CA, a client must present a certificate it signed. When dialing, the
 * node presents its own certificate and trusts the client CA if given, else the certificates of
 * its own chain (so nodes with one CA in their certificate files trust each other). Thread-safe.
 */
public final class Tls implements AutoCloseable {
    /** How long a peer connection with calls in flight may be silent before it is pinged (gRPC's floor is 10 s). */
    public static final Duration KEEPALIVE_TIME = Duration.ofSeconds(10);
    /** How long a ping may go unanswered before the peer connection is closed and its calls fail UNAVAILABLE. */
    public static final Duration KEEPALIVE_TIMEOUT = Duration.ofSeconds(5);
    /**
     * The most frequent pings a node's server takes from a client before it answers GOAWAY: below
     * every client's keepalive time (this node's peers and the SDK ping every 10 s).
     */
    public static final Duration PERMITTED_KEEPALIVE = Duration.ofSeconds(5);
    private final SslContext grpcServer;
    private final SslContext nativeServer;
    private final SslContext client;
    private final int maxInboundBytes;
    /** One channel per endpoint, shared by everything the node dials (a channel multiplexes its calls). */
    private final java.util.Map<String, ManagedChannel> channels = new java.util.concurrent.ConcurrentHashMap<>();

    private Tls(SslContext grpcServer, SslContext nativeServer, SslContext client, int maxInboundBytes) {
        this.grpcServer = grpcServer;
        this.nativeServer = nativeServer;
        this.client = client;
        this.maxInboundBytes = maxInboundBytes;
    }

    /** Plaintext everywhere: the default single-node run on 127.0.0.1. */
    public static Tls plaintext(int maxInboundBytes) {
        return new Tls(null, null, null, maxInboundBytes);
    }

    /**
     * From --tls-cert, --tls-key and --tls-client-ca (null when not given); plaintext without a
     * certificate. A call may carry a value of {@code maxValueBytes} and a megabyte of the rest.
     */
    public static Tls of(Path cert, Path key, Path ca, int maxValueBytes) {
        int max = maxValueBytes + 1024 * 1024;
        if (cert == null) {
            return plaintext(max);
        }
        try {
            SslContextBuilder grpc = GrpcSslContexts.forServer(cert.toFile(), key.toFile());
            SslContextBuilder cql = SslContextBuilder.forServer(cert.toFile(), key.toFile());
            if (ca != null) {
                grpc.trustManager(ca.toFile()).clientAuth(ClientAuth.REQUIRE);
                cql.trustManager(ca.toFile()).clientAuth(ClientAuth.REQUIRE);
            }
            SslContext dial = GrpcSslContexts.forClient().trustManager((ca != null ? ca : cert).toFile())
                    .keyManager(cert.toFile(), key.toFile()).build();
            return new Tls(grpc.build(), cql.build(), dial, max);
        } catch (SSLException | IllegalArgumentException e) {
            throw new IllegalArgumentException("TLS: cannot use --tls-cert " + cert + " / --tls-key " + key
                    + (ca == null ? "" : " / --tls-client-ca " + ca) + ": " + e.getMessage(), e);
        }
    }

    public boolean enabled() {
        return grpcServer != null;
    }

    /** The gRPC server's context, or null for plaintext. */
    public SslContext grpcServer() {
        return grpcServer;
    }

    /** The CQL native port's context, or null for plaintext. */
    public SslContext nativeServer() {
        return nativeServer;
    }

    /** The channel to another node or cluster, with this node's TLS; made on first use, closed with this. */
    public ManagedChannel channel(String endpoint) {
        return channels.computeIfAbsent(endpoint, e -> {
            // a peer paused or gone with its connection open fails its calls (forwards, reads) once
            // a ping goes unanswered, instead of holding them for the forward deadline
            NettyChannelBuilder b = NettyChannelBuilder.forTarget(e).maxInboundMessageSize(maxInboundBytes)
                    .keepAliveTime(KEEPALIVE_TIME.toNanos(), TimeUnit.NANOSECONDS)
                    .keepAliveTimeout(KEEPALIVE_TIMEOUT.toNanos(), TimeUnit.NANOSECONDS);
            return (client == null ? b.usePlaintext() : b.sslContext(client)).build();
        });
    }

    @Override
    public void close() {
        channels.values().forEach(ManagedChannel::shutdownNow);
    }
}
