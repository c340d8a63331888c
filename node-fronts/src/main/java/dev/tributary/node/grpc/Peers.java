package dev.tributary.node.grpc;

import dev.tributary.node.coord.ClusterCoordinator;
import dev.tributary.node.errors.ErrorCode;
import dev.tributary.node.errors.TributaryException;
import dev.tributary.node.exec.Placement;
import dev.tributary.node.exec.StatementExecutor;
import dev.tributary.node.net.Tls;
import dev.tributary.node.storage.NodeStore;
import dev.tributary.node.storage.StoredRow;
import dev.tributary.protocol.v1.RowBatch;
import dev.tributary.protocol.v1.StoredRowEntry;
import dev.tributary.node.write.CommitPipeline;
import dev.tributary.node.write.IdempotencyKeys;
import dev.tributary.protocol.v1.CqlServiceGrpc;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.stub.MetadataUtils;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The other nodes, as this node talks to them: a write is sent to the node that owns its
 * partitions, a read of table data is asked of every live node. A request a peer forwards carries
 * the {@code tributary-forwarded} header and is answered where it arrives, so a request is
 * forwarded at most once. Channels are opened on first use and kept. Thread-safe.
 */
public final class Peers {
    static final Metadata.Key<String> FORWARDED = Metadata.Key.of("tributary-forwarded", Metadata.ASCII_STRING_MARSHALLER);
    /** The host ids a forwarded request passed, comma-separated. */
    static final Context.Key<String> FORWARDED_BY = Context.key("tributary-forwarded");
    /**
     * Marks a request sent to the owner of its partitions ({@link #forwardTo}), as opposed to a
     * node's part of a gathered read, which is answered from that node's rows alone.
     */
    static final Metadata.Key<String> ROUTED = Metadata.Key.of("tributary-routed", Metadata.ASCII_STRING_MARSHALLER);
    private static final Context.Key<Boolean> ROUTED_HERE = Context.key("tributary-routed");
    /**
     * A write forwarded to a node that no longer owns its partitions (its ring changed while the
     * request was on its way) is forwarded on; after this many hops it is refused as UNAVAILABLE,
     * to be retried, rather than run on a node that does not own it.
     */
    private static final int MAX_HOPS = 2;
    /**
     * A CALL routed to the instance holding its object may wait for a capture or apply process to
     * start or stop (NodeOperations waits up to a minute): it keeps the old forward deadline.
     */
    private static final Duration PROCEDURE_DEADLINE = Duration.ofSeconds(60);
    /**
     * The part of a client's remaining deadline a forward leaves unused, at most: the forwarding
     * node answers with the forward's timeout (naming the peer) before the client's own deadline
     * ends and the client sees only DEADLINE_EXCEEDED.
     */
    private static final Duration ANSWER_MARGIN = Duration.ofSeconds(1);
    private static final int HAND_OVER_BATCH = 500;

    private final Supplier<ClusterCoordinator.Topology> topology;
    private final String self;
    private final Tls tls;
    private final Duration forwardTimeout;
    /** Shown on every peer call; the peer service answers no other caller. */
    private final byte[] peerSecret;
    private static final Metadata.Key<byte[]> PEER_SECRET = Metadata.Key.of("tributary-peer-secret-bin",
            Metadata.BINARY_BYTE_MARSHALLER);
    private final java.util.function.LongFunction<java.util.Optional<dev.tributary.generations.TabletMap>> tabletMaps;
    private final java.util.concurrent.atomic.LongAdder forwardedWrites = new java.util.concurrent.atomic.LongAdder();
    private final java.util.concurrent.atomic.LongAdder forwardedReads = new java.util.concurrent.atomic.LongAdder();
    /**
     * Row pulls under way ({@link #pullOwnedRows}, {@link #pullTablets}); from before this node
     * registers, so no point read finds it owning ranges whose rows are still elsewhere.
     */
    private final java.util.concurrent.atomic.AtomicInteger pulling = new java.util.concurrent.atomic.AtomicInteger();

    /**
     * @param tabletMaps     the tablet map of a tablet table, by object number (empty for a vnode table)
     * @param forwardTimeout how long a request sent on to a peer may wait for its answer
     *                       ({@code --forward-timeout}); a client's own deadline may make it shorter
     */
    public Peers(Supplier<ClusterCoordinator.Topology> topology,
            java.util.function.LongFunction<java.util.Optional<dev.tributary.generations.TabletMap>> tabletMaps,
            String selfHostId, Tls tls, byte[] peerSecret, Duration forwardTimeout) {
        if (forwardTimeout.isNegative() || forwardTimeout.isZero()) {
            throw new IllegalArgumentException("--forward-timeout must be positive, got " + forwardTimeout);
        }
        this.forwardTimeout = forwardTimeout;
        this.peerSecret = peerSecret.clone();
        this.topology = topology;
        this.tabletMaps = tabletMaps;
        this.self = selfHostId;
        this.tls = tls;
    }

    /** Marks the calls a peer forwarded, for {@link #forwarded()}. */
    public ServerInterceptor interceptor() {
        return new ServerInterceptor() {
            @Override
            public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                    ServerCallHandler<Q, R> next) {
                String by = headers.get(FORWARDED);
                if (by != null) {
                    Context c = Context.current().withValue(FORWARDED_BY, by);
                    if (headers.containsKey(ROUTED)) {
                        c = c.withValue(ROUTED_HERE, Boolean.TRUE);
                    }
                    return Contexts.interceptCall(c, call, headers, next);
                }
                return next.startCall(call, headers);
            }
        };
    }

    /**
     * Lets through only calls that show the cluster's peer secret: the peer service moves and
     * deletes rows and reads the redo, which no client may ask for.
     */
    public ServerInterceptor peersOnly() {
        return new ServerInterceptor() {
            @Override
            public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                    ServerCallHandler<Q, R> next) {
                if (!showsPeerSecret(headers)) {
                    call.close(io.grpc.Status.UNAUTHENTICATED.withDescription("the peer service answers the cluster's nodes "
                            + "only (they show its peer secret)"), new Metadata());
                    return new ServerCall.Listener<>() {
                    };
                }
                return next.startCall(call, headers);
            }
        };
    }

    /** Whether a call's headers show the cluster's peer secret: it comes from one of its nodes. */
    boolean showsPeerSecret(Metadata headers) {
        byte[] shown = headers.get(PEER_SECRET);
        return shown != null && java.security.MessageDigest.isEqual(shown, peerSecret);
    }

    /** Whether the current call was forwarded by a peer (it is answered here). */
    boolean forwarded() {
        return FORWARDED_BY.get() != null;
    }

    /** Where a SELECT runs: here alone, at the owner of its partitions, or here and on {@code others}, gathered. */
    record ReadRoute(Kind kind, String owner, List<String> others) {
        enum Kind { HERE, OWNER, GATHER }

        static final ReadRoute HERE = new ReadRoute(Kind.HERE, null, List.of());
    }

    /**
     * How a read of {@code spread} is answered. A point read ({@code partitions}: the partitions
     * a SELECT names in full, else null) goes to the one node owning them, as in Cassandra, while
     * every node is up; it is gathered instead while a node is down (the ring gives a down node's
     * ranges to a live one, which holds only what was written since: the gather refuses with the
     * reason), for a tablet table (its rows follow a tablet move only after it), and where it
     * arrives at a node that does not own them (a ring changing) or that is still taking its
     * ranges' rows from the others ({@link #pullOwnedRows}). A node's part of a gathered read is
     * answered from its rows alone.
     */
    ReadRoute readRoute(StatementExecutor.Spread spread, List<Placement.RoutingKey> partitions) {
        if (spread == StatementExecutor.Spread.HERE || forwarded() && ROUTED_HERE.get() == null) {
            return ReadRoute.HERE;
        }
        String owner = partitions == null ? null : pointReadOwner(partitions);
        if (owner != null) {
            if (owner.equals(self) && pulling.get() == 0) {
                return ReadRoute.HERE;
            }
            String endpoint = topology.get().liveEndpoints().get(owner);
            if (!owner.equals(self) && !forwarded() && endpoint != null) {
                return new ReadRoute(ReadRoute.Kind.OWNER, endpoint, List.of());
            }
        }
        List<String> others = readEndpoints(spread);
        return others.isEmpty() ? ReadRoute.HERE : new ReadRoute(ReadRoute.Kind.GATHER, null, others);
    }

    /** The one live node owning every one of the partitions, when a read of them may go there alone; else null. */
    private String pointReadOwner(List<Placement.RoutingKey> partitions) {
        ClusterCoordinator.Topology t = topology.get();
        if (t.ring().isEmpty() || !t.down().isEmpty()) {
            return null;
        }
        String owner = null;
        for (Placement.RoutingKey k : partitions) {
            if (tabletMaps.apply(k.objectNumber()).isPresent()) {
                return null;
            }
            String o = t.ring().owner(k.token());
            if (owner != null && !owner.equals(o)) {
                return null;
            }
            owner = o;
        }
        return owner;
    }

    /** The live nodes other than this one. */
    /**
     * The other nodes a read of {@code spread} gathers from. Table data needs every node that may
     * hold some of it — each member in the generations — and is refused while one is down (its rows would
     * be missing from the answer); with replication a down node's instance runs on a replica
     * within seconds and is live again there.
     */
    List<String> readEndpoints(StatementExecutor.Spread spread) {
        if (spread == StatementExecutor.Spread.EVERY_OWNER) {
            List<String> down = topology.get().down().stream().filter(n -> !n.equals(self)).toList();
            if (!down.isEmpty()) {
                throw new TributaryException(ErrorCode.UNAVAILABLE, "the read needs every node holding rows of the table, "
                        + "and node" + (down.size() == 1 ? " " : "s ") + String.join(", ", down) + (down.size() == 1 ? " is" : " are")
                        + " down: its rows would be missing from the answer; retry once it is back (a replicated "
                        + "keyspace's data moves to a replica within seconds)");
            }
        }
        return otherEndpoints();
    }

    List<String> otherEndpoints() {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, String> e : topology.get().liveEndpoints().entrySet()) {
            if (!e.getKey().equals(self)) {
                out.add(e.getValue());
            }
        }
        return out;
    }

    /** What a forward is for: how its timeout is told to the client. */
    enum Purpose {
        /** A write sent to the node owning its partitions: a timeout leaves its outcome unknown. */
        WRITE,
        /** A point read sent to its owner, or a node's part of a gathered read. */
        READ
    }

    /** One call on a peer's CqlService, given the stub to make it on. */
    @FunctionalInterface
    interface PeerCall<T> {
        T call(CqlServiceGrpc.CqlServiceBlockingStub stub);
    }

    /**
     * Asks a peer for its own part of a gathered read (its calls carry the forwarded header, so it
     * answers from its own rows), within the forward's deadline.
     *
     * @throws dev.tributary.node.errors.ForwardTimeoutException when the peer does not answer in time
     */
    <T> T gatherPart(String endpoint, PeerCall<T> call) {
        return forward(endpoint, false, Purpose.READ, call);
    }

    /**
     * Sends a write on to the node that owns it, counted in {@link #forwardedWrites} (each one is a
     * hop a token-aware client would have saved), within the forward's deadline.
     *
     * @throws dev.tributary.node.errors.ForwardTimeoutException naming the peer, the outcome unknown,
     *         when the peer does not answer in time
     */
    <T> T forwardWrite(String endpoint, PeerCall<T> call) {
        forwardedWrites.increment();
        return forward(endpoint, true, Purpose.WRITE, call);
    }

    /** How many requests this node has sent on to the owner of their partitions since it started. */
    public long forwardedWrites() {
        return forwardedWrites.sum();
    }

    /** Sends a point read to the node owning its partitions, counted in {@link #forwardedReads}, within the forward's deadline. */
    <T> T forwardRead(String endpoint, PeerCall<T> call) {
        forwardedReads.increment();
        return forward(endpoint, true, Purpose.READ, call);
    }

    /** Point reads sent on to their owner: each one a hop a token-aware client would have saved. */
    public long forwardedReads() {
        return forwardedReads.sum();
    }

    /**
     * A stub for a CALL run at the instance holding its object (or for listing a peer's objects
     * to find it): a procedure may wait for a process to start, so it has its own deadline, which a
     * client's shorter one still bounds.
     */
    CqlServiceGrpc.CqlServiceBlockingStub procedureStub(String endpoint) {
        return stub(endpoint, false).withDeadlineAfter(PROCEDURE_DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
    }

    private <T> T forward(String endpoint, boolean routed, Purpose purpose, PeerCall<T> call) {
        Duration deadline = forwardDeadline(Context.current().getDeadline());
        try {
            return call.call(stub(endpoint, routed).withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS));
        } catch (io.grpc.StatusRuntimeException e) {
            // a peer's own answer carries its reason code (a TIMEOUT of a forward it made, too) and
            // goes back as it came; without one, the deadline that passed is this forward's
            if (e.getStatus().getCode() == io.grpc.Status.Code.DEADLINE_EXCEEDED
                    && (e.getTrailers() == null || !e.getTrailers().containsKey(dev.tributary.node.net.ErrorMapping.ERROR_CODE))) {
                throw new dev.tributary.node.errors.ForwardTimeoutException(hostIdAt(endpoint), endpoint, deadline,
                        purpose == Purpose.WRITE);
            }
            throw e;
        }
    }

    /**
     * How long a forward may wait: {@code --forward-timeout}, or, when the client's call has a
     * deadline that ends sooner, what is left of it less a margin (a fifth, at most
     * {@link #ANSWER_MARGIN}) for this node's answer to reach the client first. The native
     * protocol sends no deadline: its requests get the option's.
     */
    Duration forwardDeadline(io.grpc.Deadline client) {
        if (client == null) {
            return forwardTimeout;
        }
        long left = client.timeRemaining(TimeUnit.MILLISECONDS);
        long margin = Math.min(left / 5, ANSWER_MARGIN.toMillis());
        return Duration.ofMillis(Math.max(1, Math.min(forwardTimeout.toMillis(), left - margin)));
    }

    /** The host id of the live node serving at {@code endpoint}, else the endpoint itself. */
    private String hostIdAt(String endpoint) {
        for (Map.Entry<String, String> e : topology.get().liveEndpoints().entrySet()) {
            if (e.getValue().equals(endpoint)) {
                return e.getKey();
            }
        }
        return endpoint;
    }

    private CqlServiceGrpc.CqlServiceBlockingStub stub(String endpoint, boolean routed) {
        ManagedChannel ch = tls.channel(endpoint);
        Metadata md = new Metadata();
        String by = FORWARDED_BY.get();
        md.put(FORWARDED, by == null ? self : by + "," + self);
        if (routed) {
            md.put(ROUTED, "1");
        }
        md.put(PEER_SECRET, peerSecret); // the request's session names its role, which this node authenticated
        return CqlServiceGrpc.newBlockingStub(ch).withInterceptors(MetadataUtils.newAttachHeadersInterceptor(md));
    }

    /**
     * A channel to this node's own CQL service as a trusted caller: the peer secret, so the
     * session's role is taken as named (an apply into its own cluster writes as its apply user),
     * and not marked forwarded, so its requests are routed as any client's.
     */
    public io.grpc.Channel trustedChannel(String endpoint) {
        Metadata md = new Metadata();
        md.put(PEER_SECRET, peerSecret);
        return io.grpc.ClientInterceptors.intercept(tls.channel(endpoint), MetadataUtils.newAttachHeadersInterceptor(md));
    }

    /** A stub for the node-to-node service of a peer. */
    dev.tributary.protocol.v1.PeerServiceGrpc.PeerServiceBlockingStub peer(String endpoint) {
        ManagedChannel ch = tls.channel(endpoint);
        Metadata md = new Metadata();
        md.put(PEER_SECRET, peerSecret);
        return dev.tributary.protocol.v1.PeerServiceGrpc.newBlockingStub(ch)
                .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(md)).withDeadlineAfter(10, TimeUnit.MINUTES);
    }

    /**
     * Range streaming: runs {@code register} (this node's registration as the owner of its
     * ranges), then takes from every other live node the base rows in this node's vnodes of the
     * live ring, merges them into this node's rows (last write wins per cell, outside the redo, so
     * no LCR), then has each sender release what it sent (kept where a write changed it since). A
     * point read reaching this node meanwhile is gathered from every node.
     *
     * @return how many rows moved here
     */
    public long pullOwnedRows(CommitPipeline pipeline, Runnable register) {
        pulling.incrementAndGet();
        try {
            register.run();
            return pullVnodes(pipeline);
        } finally {
            pulling.decrementAndGet();
        }
    }

    private long pullVnodes(CommitPipeline pipeline) {
        List<dev.tributary.protocol.v1.TokenRange> mine = new ArrayList<>();
        for (dev.tributary.generations.Vnode v : topology.get().ring().vnodes()) {
            if (v.owner().equals(self)) {
                mine.add(dev.tributary.protocol.v1.TokenRange.newBuilder().setStart(v.start()).setEnd(v.end()).build());
            }
        }
        return pull(pipeline, null, mine);
    }

    /**
     * As {@link #pullOwnedRows}, for the tablets of one tablet table that this node became the
     * replica of: their rows move here from wherever they are.
     */
    public long pullTablets(CommitPipeline pipeline, long objectNumber, List<dev.tributary.protocol.v1.TokenRange> tablets) {
        return pull(pipeline, objectNumber, tablets);
    }

    /**
     * @param tabletTable the tablet table whose tablets these are, or null for the vnodes of every
     *                    vnode table (a point read of a tablet table is always gathered, so only
     *                    {@link #pullOwnedRows} marks this node as pulling)
     */
    private long pull(CommitPipeline pipeline, Long tabletTable, List<dev.tributary.protocol.v1.TokenRange> ranges) {
        if (ranges.isEmpty()) {
            return 0;
        }
        long moved = 0;
        for (String ep : otherEndpoints()) {
            dev.tributary.protocol.v1.StreamRowsRequest.Builder req = dev.tributary.protocol.v1.StreamRowsRequest.newBuilder()
                    .addAllRanges(ranges).setRequesterHostId(self);
            if (tabletTable != null) {
                req.setTablets(true).setObjectNumber(tabletTable);
            }
            java.util.Iterator<RowBatch> batches = peer(ep).streamRows(req.build());
            while (batches.hasNext()) {
                RowBatch batch = batches.next();
                mergeRows(pipeline, batch);
                if (batch.getRowsCount() > 0) {
                    peer(ep).releaseRows(batch);
                }
                moved += batch.getRowsCount();
            }
        }
        return moved;
    }

    /**
     * The node that holds the rows of a table at a token: for a tablet table its tablet's replica
     * (while live), else the owner of the token's vnode in the live ring.
     */
    public String owner(long objectNumber, long token) {
        ClusterCoordinator.Topology t = topology.get();
        java.util.Optional<dev.tributary.generations.TabletMap> m = tabletMaps.apply(objectNumber);
        if (m.isPresent()) {
            String replica = m.get().replica(m.get().tabletOf(token));
            if (t.liveEndpoints().containsKey(replica)) {
                return replica;
            }
        }
        return t.ring().owner(token);
    }

    /**
     * Merges rows as another node stored them into this node's rows: per cell the later write
     * wins, outside the redo; and keeps the idempotency keys sent with them.
     */
    static void mergeRows(CommitPipeline pipeline, RowBatch batch) {
        pipeline.commit(ctx -> {
            for (StoredRowEntry e : batch.getRowsList()) {
                byte[] key = e.getKey().toByteArray();
                byte[] here = ctx.get(NodeStore.Family.ROWS, key);
                StoredRow sent = StoredRow.decode(e.getValue().toByteArray());
                ctx.put(NodeStore.Family.ROWS, key, here == null ? sent.encode() : StoredRow.decode(here).merge(sent).encode());
            }
            for (StoredRowEntry k : batch.getIdempotencyKeysList()) {
                IdempotencyKeys.adopt(ctx, k.getKey().toByteArray(), k.getValue().toByteArray());
            }
            return null;
        });
    }

    /**
     * This node's idempotency keys in batches of at most {@link #HAND_OVER_BATCH}: they go with
     * ranges that move, whichever partitions their writes touched (a key is only ever looked up
     * by the owner of its write's partitions, so a key the receiver never needs costs nothing).
     */
    public static List<RowBatch> idempotencyKeyBatches(NodeStore store) {
        List<RowBatch> out = new ArrayList<>();
        RowBatch.Builder[] b = {RowBatch.newBuilder()};
        IdempotencyKeys.forEachKept(store, (k, v) -> {
            b[0].addIdempotencyKeys(StoredRowEntry.newBuilder().setKey(com.google.protobuf.ByteString.copyFrom(k))
                    .setValue(com.google.protobuf.ByteString.copyFrom(v)));
            if (b[0].getIdempotencyKeysCount() >= HAND_OVER_BATCH) {
                out.add(b[0].build());
                b[0] = RowBatch.newBuilder();
            }
        });
        if (b[0].getIdempotencyKeysCount() > 0) {
            out.add(b[0].build());
        }
        return out;
    }

    /**
     * Decommission: sends every base row and every CDC table log entry this node holds to the
     * node that owns its token (its row's, or its stream's) in the ring without this node. A row
     * is deleted here once the receiver has it. A log entry is not: consumers reading this node
     * may not have had it yet, and the receiver's copy lies below the safe time it already told
     * them, so it will not send it — this node serves its log until it leaves, and the consumers
     * then read the receivers again from their last released LCR ({@link #dropHandedOverLog}
     * deletes it after that). Queues of capture processes are not moved: they belong to this
     * node's captures.
     *
     * @return how many rows and log entries moved
     */
    public long handOverAll(NodeStore store, CommitPipeline pipeline, long firstQueueLogId) {
        return handOverAll(store, pipeline, firstQueueLogId, n -> { });
    }

    /** {@link #handOverAll}, telling {@code sent} how many entries each batch a new owner acknowledged held. */
    public long handOverAll(NodeStore store, CommitPipeline pipeline, long firstQueueLogId, java.util.function.LongConsumer sent) {
        // both key layouts start with the object number, then the token (of the row, of the stream) sign-flipped
        long moved = handOver(store, pipeline, NodeStore.Family.ROWS, null, true, sent);
        moved += handOver(store, pipeline, NodeStore.Family.CDC_LOG,
                key -> java.nio.ByteBuffer.wrap(key, 0, 8).getLong() < firstQueueLogId, false, sent);
        // a retry of a write applied here may reach any of the new owners
        List<RowBatch> keys = idempotencyKeyBatches(store);
        for (String endpoint : otherEndpoints()) {
            for (RowBatch k : keys) {
                peer(endpoint).receiveRows(k);
            }
        }
        return moved;
    }

    /** Once this node has left the cluster: deletes the table log entries {@link #handOverAll} copied to the others. */
    public static void dropHandedOverLog(NodeStore store, long firstQueueLogId) {
        store.deleteRange(NodeStore.Family.CDC_LOG, new byte[0],
                java.nio.ByteBuffer.allocate(8).putLong(firstQueueLogId).array(), true);
    }

    private long handOver(NodeStore store, CommitPipeline pipeline, NodeStore.Family family,
            java.util.function.Predicate<byte[]> moves, boolean deleteSent, java.util.function.LongConsumer sent) {
        ClusterCoordinator.Topology t = topology.get();
        if (t.ring().isEmpty()) {
            throw new TributaryException(ErrorCode.UNAVAILABLE, "no other node owns a range: nothing to hand the data to");
        }
        Map<String, RowBatch.Builder> batches = new java.util.HashMap<>();
        long moved = 0;
        try (dev.tributary.node.storage.StoreIterator it = store.iterator(family)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                byte[] key = it.key();
                if (moves != null && !moves.test(key)) {
                    continue;
                }
                java.nio.ByteBuffer k = java.nio.ByteBuffer.wrap(key);
                long objectNumber = k.getLong();
                long token = k.getLong() ^ Long.MIN_VALUE;
                String owner = owner(objectNumber, token);
                String endpoint = t.liveEndpoints().get(owner);
                if (endpoint == null || owner.equals(self)) {
                    throw new TributaryException(ErrorCode.UNAVAILABLE, "the new owner " + owner + " of token "
                            + token + " is not live; decommission again once it is");
                }
                RowBatch.Builder b = batches.computeIfAbsent(endpoint, ep -> RowBatch.newBuilder());
                b.addRows(StoredRowEntry.newBuilder().setKey(com.google.protobuf.ByteString.copyFrom(key))
                        .setValue(com.google.protobuf.ByteString.copyFrom(it.value())));
                if (b.getRowsCount() >= HAND_OVER_BATCH) {
                    long n = send(endpoint, family, batches.remove(endpoint).build(), deleteSent ? pipeline : null);
                    moved += n;
                    sent.accept(n);
                }
            }
        }
        for (Map.Entry<String, RowBatch.Builder> e : batches.entrySet()) {
            long n = send(e.getKey(), family, e.getValue().build(), deleteSent ? pipeline : null);
            moved += n;
            sent.accept(n);
        }
        return moved;
    }

    /** Sends a batch; deletes it here afterwards through {@code deleteWith}, unless that is null. */
    private long send(String endpoint, NodeStore.Family family, RowBatch batch, CommitPipeline deleteWith) {
        if (family == NodeStore.Family.ROWS) {
            peer(endpoint).receiveRows(batch);
        } else {
            peer(endpoint).receiveLog(batch);
        }
        if (deleteWith == null) {
            return batch.getRowsCount();
        }
        deleteWith.commit(ctx -> {
            for (StoredRowEntry e : batch.getRowsList()) {
                ctx.delete(family, e.getKey().toByteArray());
            }
            return null;
        });
        return batch.getRowsCount();
    }

    /** Writes go to the node holding their partitions (their tablet's replica, or their token's vnode owner). */
    public Placement placement() {
        return keys -> {
            ClusterCoordinator.Topology t = topology.get();
            if (t.ring().isEmpty()) {
                return null;
            }
            Set<String> owners = new HashSet<>();
            for (Placement.RoutingKey k : keys) {
                owners.add(owner(k.objectNumber(), k.token()));
            }
            if (owners.isEmpty()) {
                return null; // a batch that writes nothing (no statements) has no owner and commits nothing here
            }
            // a batch over several nodes is one transaction at one of them, the lowest host id,
            // whichever of them it reached: its idempotency key is kept where it commits, so a
            // retry that reaches another of its nodes must go there too, or it would apply twice
            String owner = owners.stream().sorted().findFirst().orElseThrow();
            if (owner.equals(self)) {
                return null;
            }
            String by = FORWARDED_BY.get();
            if (by != null && by.split(",").length >= MAX_HOPS) {
                // the nodes disagree on the owner while the ring changes; running it here would
                // leave the row where no read or later write of its owner finds it. Every node of
                // the chain only forwarded, so the client learns that nothing was applied
                throw TributaryException.beforeApplying(ErrorCode.UNAVAILABLE, "the owner of these partitions changed while the write "
                        + "was forwarded (" + by + " -> " + self + "); retry it");
            }
            // a leaving node, owning nothing, keeps no write
            String endpoint = t.liveEndpoints().get(owner);
            if (endpoint == null) {
                throw TributaryException.beforeApplying(ErrorCode.UNAVAILABLE, "the node owning these partitions (" + owner
                        + ") is down; retry when it is back");
            }
            return endpoint;
        };
    }
}
