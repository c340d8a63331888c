package dev.tributary.node.nativeproto;

import com.datastax.oss.protocol.internal.Compressor;
import com.datastax.oss.protocol.internal.Frame;
import com.datastax.oss.protocol.internal.FrameCodec;
import com.datastax.oss.protocol.internal.ProtocolConstants;
import com.datastax.oss.protocol.internal.response.Event;
import com.datastax.oss.protocol.internal.response.event.SchemaChangeEvent;
import com.datastax.oss.protocol.internal.response.event.StatusChangeEvent;
import com.datastax.oss.protocol.internal.response.event.TopologyChangeEvent;
import dev.tributary.dictionary.DictionaryVersion;
import dev.tributary.node.grpc.ClusterStatements;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The CQL native protocol endpoint of a node (protocol v4), on Netty. Frames are cut by their
 * length, decoded by native-protocol's server codecs, and run on a bounded pool of request
 * threads (statements block: commits, peers); a full pool answers OVERLOADED. A client that asks
 * for another version (v5, a beta) is answered with the protocol error drivers take as "try a
 * lower version". Schema, topology and status changes are pushed as events to the connections
 * that registered for them, found by watching the dictionary and the live members.
 */
public final class NativeServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(NativeServer.class);
    static final int VERSION = ProtocolConstants.Version.V4;
    private static final int HEADER_BYTES = 9;
    /** Cassandra's default native_transport_max_frame_size. */
    private static final int MAX_FRAME_BYTES = 256 * 1024 * 1024;
    private static final int BETA_FLAG = 0x10;
    private static final int REQUEST_THREADS = 16;
    private static final int REQUEST_QUEUE = 1024;
    private static final long EVENT_POLL_MILLIS = 100;
    private static final AttributeKey<NativeSession> SESSION = AttributeKey.valueOf("tributary-native-session");

    /** The live members' native endpoints by host id, as the cluster lists them. */
    public interface Members {
        Map<String, String> liveNativeEndpoints();

        /** Every member with tokens, live or not (host ids); may block on ZooKeeper. */
        Set<String> members();
    }

    private final NativeRequests requests;
    private final FrameCodec<ByteBuf> codec;
    private final EventLoopGroup boss;
    private final EventLoopGroup workers;
    private final ThreadPoolExecutor pool;
    private final ScheduledExecutorService eventTimer;
    private final ChannelGroup channels = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
    private final Supplier<DictionaryVersion> dictionary;
    private final Members members;
    private Channel server;
    private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();
    private DictionaryVersion lastSchema;
    private Map<String, String> lastLive;
    private Set<String> lastMembers;

    private NativeServer(ClusterStatements statements, Supplier<DictionaryVersion> dictionary, Members members,
            dev.tributary.node.auth.AccessControl access) {
        this.dictionary = dictionary;
        this.members = members;
        this.requests = new NativeRequests(statements, dictionary, access);
        this.codec = FrameCodec.defaultServer(new ByteBufPrimitiveCodec(PooledByteBufAllocator.DEFAULT), Compressor.none());
        this.boss = new MultiThreadIoEventLoopGroup(1, daemon("tributary-native-accept"), NioIoHandler.newFactory());
        this.workers = new MultiThreadIoEventLoopGroup(2, daemon("tributary-native-io"), NioIoHandler.newFactory());
        this.pool = new ThreadPoolExecutor(REQUEST_THREADS, REQUEST_THREADS, 60, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(REQUEST_QUEUE), daemon("tributary-native-request"));
        this.pool.allowCoreThreadTimeOut(true);
        this.eventTimer = Executors.newSingleThreadScheduledExecutor(daemon("tributary-native-events"));
    }

    /**
     * Binds {@code host:port} (0 picks a free port) and serves until closed.
     *
     * @param tls the TLS every connection starts with, or null for plaintext
     */
    public static NativeServer start(String host, int port, io.netty.handler.ssl.SslContext tls, ClusterStatements statements,
            Supplier<DictionaryVersion> dictionary, Members members, dev.tributary.node.auth.AccessControl access) {
        NativeServer s = new NativeServer(statements, dictionary, members, access);
        try {
            s.bind(host, port, tls);
        } catch (RuntimeException e) {
            s.close();
            throw e;
        }
        return s;
    }

    private void bind(String host, int port, io.netty.handler.ssl.SslContext tls) {
        lastSchema = dictionary.get();
        lastLive = members.liveNativeEndpoints();
        lastMembers = members.members();
        ServerBootstrap b = new ServerBootstrap().group(boss, workers).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.attr(SESSION).set(new NativeSession());
                        channels.add(ch);
                        if (tls != null) {
                            ch.pipeline().addLast(tls.newHandler(ch.alloc()));
                        }
                        ch.pipeline().addLast(new LengthFieldBasedFrameDecoder(MAX_FRAME_BYTES + HEADER_BYTES, 5, 4, 0, 0));
                        ch.pipeline().addLast(new FrameHandler());
                    }
                });
        try {
            server = b.bind(new InetSocketAddress(host, port)).syncUninterruptibly().channel();
        } catch (RuntimeException e) {
            throw new IllegalStateException("cannot serve the CQL native protocol on " + host + ":" + port + ": " + e.getMessage()
                    + " (set --native-listen to a free HOST:PORT, or none)", e);
        }
        eventTimer.scheduleWithFixedDelay(this::pushEvents, EVENT_POLL_MILLIS, EVENT_POLL_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** The port it listens on (the bound one when 0 was asked for). */
    public int port() {
        return ((InetSocketAddress) server.localAddress()).getPort();
    }

    private final class FrameHandler extends SimpleChannelInboundHandler<ByteBuf> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, ByteBuf buf) {
            int version = buf.getByte(0) & 0x7F;
            int flags = buf.getByte(1);
            int stream = buf.getShort(2);
            Channel ch = ctx.channel();
            if (version != VERSION || (flags & BETA_FLAG) != 0) {
                // answered in v4, which the driver then uses
                String v = version + "/v" + version + ((flags & BETA_FLAG) != 0 ? "-beta" : "");
                send(ch, stream, new NativeRequests.Response(NativeErrors.protocolError(NativeErrors.UNSUPPORTED_VERSION
                        + " (" + v + "); supported versions are (4/v4)"), List.of()));
                return;
            }
            Frame frame;
            try {
                frame = codec.decode(buf); // copies what it keeps: the buffer is released on return
            } catch (RuntimeException e) {
                send(ch, stream, NativeRequests.Response.of(NativeErrors.protocolError("cannot decode the request: " + e.getMessage())));
                return;
            }
            NativeSession session = ch.attr(SESSION).get();
            try {
                pool.execute(() -> send(ch, frame.streamId, requests.handle(frame.message, session)));
            } catch (RejectedExecutionException e) {
                send(ch, frame.streamId, NativeRequests.Response.of(NativeErrors.overloaded(pool.getQueue().size())));
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            LOG.debug("native protocol connection {} failed: {}", ctx.channel().remoteAddress(), cause.toString());
            ctx.close();
        }
    }

    private void send(Channel ch, int stream, NativeRequests.Response r) {
        send(ch, Frame.forResponse(VERSION, stream, null, Frame.NO_PAYLOAD, r.warnings(), r.message()));
    }

    private void send(Channel ch, Frame f) {
        ByteBuf out;
        try {
            out = codec.encode(f);
        } catch (RuntimeException e) {
            LOG.error("cannot encode a native protocol response {}", f.message, e);
            out = codec.encode(Frame.forResponse(VERSION, f.streamId, null, Frame.NO_PAYLOAD, List.of(),
                    new com.datastax.oss.protocol.internal.response.Error(ProtocolConstants.ErrorCode.SERVER_ERROR,
                            "internal error: cannot encode the response: " + e)));
        }
        ch.writeAndFlush(out);
    }

    /** Compares the schema and the members with the last look and tells registered connections. */
    private void pushEvents() {
        try {
            DictionaryVersion schema = dictionary.get();
            if (schema != lastSchema) {
                for (SchemaChangeEvent e : SchemaEvents.between(lastSchema, schema)) {
                    broadcast(e);
                }
                lastSchema = schema;
            }
            Map<String, String> live = members.liveNativeEndpoints();
            if (!live.equals(lastLive)) {
                Set<String> all = members.members(); // read only on a change: it asks ZooKeeper
                for (Event e : TopologyEvents.between(lastMembers, lastLive, all, live)) {
                    broadcast(e);
                }
                lastLive = live;
                lastMembers = all;
            }
        } catch (RuntimeException e) {
            LOG.warn("could not compute native protocol events; next look in {} ms", EVENT_POLL_MILLIS, e);
        }
    }

    private void broadcast(Event e) {
        for (Channel ch : channels) {
            NativeSession s = ch.attr(SESSION).get();
            if (s != null && s.wants(e.type)) {
                send(ch, Frame.forResponse(VERSION, -1, null, Frame.NO_PAYLOAD, List.of(), e));
            }
        }
    }

    private static java.util.concurrent.ThreadFactory daemon(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /** Stops serving; a second close (a node closed again after it left the cluster) does nothing. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        eventTimer.shutdownNow();
        if (server != null) {
            server.close().syncUninterruptibly();
        }
        channels.close().syncUninterruptibly();
        pool.shutdownNow();
        boss.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        workers.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    /** Topology and status events between two looks at the members. */
    static final class TopologyEvents {
        private TopologyEvents() {
        }

        static List<Event> between(Set<String> oldMembers, Map<String, String> oldLive, Set<String> members,
                Map<String, String> live) {
            List<Event> out = new java.util.ArrayList<>();
            Map<String, String> known = new HashMap<>(oldLive);
            known.putAll(live);
            for (String id : members) {
                if (!oldMembers.contains(id) && live.containsKey(id)) {
                    out.add(new TopologyChangeEvent(ProtocolConstants.TopologyChangeType.NEW_NODE, address(live.get(id))));
                }
            }
            Set<String> up = new HashSet<>(live.keySet());
            up.removeAll(oldLive.keySet());
            for (String id : up) {
                if (oldMembers.contains(id)) {
                    out.add(new StatusChangeEvent(ProtocolConstants.StatusChangeType.UP, address(live.get(id))));
                }
            }
            Set<String> down = new HashSet<>(oldLive.keySet());
            down.removeAll(live.keySet());
            for (String id : down) {
                out.add(members.contains(id)
                        ? new StatusChangeEvent(ProtocolConstants.StatusChangeType.DOWN, address(oldLive.get(id)))
                        : new TopologyChangeEvent(ProtocolConstants.TopologyChangeType.REMOVED_NODE, address(oldLive.get(id))));
            }
            return out;
        }

        static InetSocketAddress address(String endpoint) {
            int colon = endpoint.lastIndexOf(':');
            return new InetSocketAddress(endpoint.substring(0, colon), Integer.parseInt(endpoint.substring(colon + 1)));
        }
    }
}
