package dev.tributary.node.grpc;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import dev.tributary.capture.lcr.DdlLcr;
import dev.tributary.capture.lcr.LcrColumn;
import dev.tributary.capture.lcr.RowLcr;
import dev.tributary.capture.log.LogPosition;
import dev.tributary.capture.log.LogRecord;
import dev.tributary.dictionary.MultiversionDictionary;
import dev.tributary.dictionary.schema.TableDef;
import dev.tributary.generations.Generation;
import dev.tributary.generations.GenerationHistory;
import dev.tributary.generations.StreamId;
import dev.tributary.generations.VnodeStreams;
import dev.tributary.node.capture.RocksDbCdcLog;
import dev.tributary.node.errors.InvalidRequestException;
import dev.tributary.node.net.ErrorMapping;
import dev.tributary.node.net.WireValues;
import dev.tributary.protocol.v1.ChangeStreamServiceGrpc;
import dev.tributary.protocol.v1.Lcr;
import dev.tributary.protocol.v1.ListGenerationsRequest;
import dev.tributary.protocol.v1.ListGenerationsResponse;
import dev.tributary.protocol.v1.NamedValue;
import dev.tributary.protocol.v1.ReadChangesRequest;
import io.grpc.Context;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * Reading captured LCRs and the generations their streams belong to; live subscriptions to a
 * log through its buffered queue, one pump thread each, sending only while the client's gRPC
 * flow-control window is open.
 */
public final class ChangeStreamGrpcService extends ChangeStreamServiceGrpc.ChangeStreamServiceImplBase {
    private static final int PAGE = 500;
    private static final int SUBSCRIBE_BATCH = 256;
    private static final long READY_POLL_NANOS = 1_000_000;
    private final MultiversionDictionary dictionary;
    private final RocksDbCdcLog log;
    private final Supplier<GenerationHistory> generations;
    private final dev.tributary.node.capture.CaptureProcesses captures;
    private final dev.tributary.capture.BufferedQueues buffered;

    private final Lineages lineages;

    /**
     * What stream-level reading needs from the node: the stream sets each table uses, the cluster's
     * members, the implicit CDC capture's caught-up SCN, the safe-time rule and the open calls.
     */
    public record StreamSources(dev.tributary.node.capture.GenerationRouter streamSets,
            java.util.concurrent.Callable<List<dev.tributary.node.coord.ClusterCoordinator.Member>> members,
            java.util.function.LongSupplier cdcCaughtUpScn, java.util.function.LongSupplier currentScn,
            dev.tributary.node.changes.SafeTimes safeTimes, dev.tributary.node.changes.StreamReads reads,
            TableSnapshots snapshots) {
    }

    /**
     * Where ReadTableSnapshot takes its snapshots: this node's instance (its host id and redo
     * thread, which name the SCN the rows are as of) and a snapshot of a table (keyspace, name)
     * taken on its committer thread between two commits (node-apply's TableSnapshot).
     */
    public record TableSnapshots(String hostId, int redoThread,
            java.util.function.BiFunction<String, String, Snapshot> take) {
    }

    /** One table's rows as of one SCN; the caller closes it. */
    public interface Snapshot extends AutoCloseable {
        /** Every transaction of this node's redo thread at or below it is in the rows, none above. */
        long scn();

        /** The table's columns as of the snapshot, by name. */
        java.util.Map<String, dev.tributary.dictionary.types.CqlType> types();

        /** The live rows whose token is above {@code afterToken} (all when null), in token order. */
        java.util.Iterator<SnapshotRow> rowsAfter(Long afterToken);

        @Override
        void close();
    }

    /** A live row of a snapshot: its token and its live values by column name. */
    public record SnapshotRow(long token, java.util.Map<String, Object> values) {
    }

    private final StreamSources sources;
    private final Authentication authentication;
    private final dev.tributary.node.exec.StatementAccess access;

    public ChangeStreamGrpcService(MultiversionDictionary dictionary, RocksDbCdcLog log, Supplier<GenerationHistory> generations,
            dev.tributary.node.capture.CaptureProcesses captures, dev.tributary.capture.BufferedQueues buffered,
            StreamSources sources, Authentication authentication, dev.tributary.node.exec.StatementAccess access) {
        this.authentication = authentication;
        this.access = access;
        this.dictionary = dictionary;
        this.log = log;
        this.generations = generations;
        this.captures = captures;
        this.buffered = buffered;
        this.sources = sources;
        this.lineages = new Lineages(sources.streamSets(), dictionary);
    }

    /** The log a stream-level request names: a table's CDC log or a queue. */
    private record LogRef(long logId, TableDef table, String queue) {
    }

    private LogRef logOf(String tableName, String queueName, String rpc) {
        boolean table = !tableName.isEmpty();
        boolean queue = !queueName.isEmpty();
        if (table == queue) {
            throw new InvalidRequestException(rpc + ": give exactly one of table (ks.t) or queue");
        }
        if (table) {
            TableDef t = table(tableName);
            return new LogRef(t.objectNumber(), t, null);
        }
        return new LogRef(queue(queueName), null, queueName);
    }

    private List<dev.tributary.protocol.v1.StreamLineage> lineagesOf(LogRef ref) {
        return ref.table() != null ? List.of(lineages.ofTable(ref.table())) : lineages.ofQueue();
    }

    /**
     * NOT_FOUND for a stream that no set of the log's lineages has (nor is the schema stream): it
     * would read as an empty stream forever. A set another node listed a moment before this node's
     * watch saw it is refused until then — it starts a ring delay later, so a retry is in time.
     * ReadStreams does not ask: the SDK opens a new set's streams on every node as soon as one node
     * lists them, and a refusal there fails the whole call.
     */
    private void requireStreamOf(LogRef ref, StreamId stream) {
        ByteString id = ByteString.copyFrom(stream.toBytes());
        if (id.equals(ByteString.copyFrom(new byte[StreamId.BYTES]))) {
            return;
        }
        for (dev.tributary.protocol.v1.StreamLineage l : lineagesOf(ref)) {
            for (dev.tributary.protocol.v1.StreamSet set : l.getSetsList()) {
                for (dev.tributary.protocol.v1.StreamInfo s : set.getStreamsList()) {
                    if (s.getStreamId().equals(id)) {
                        return;
                    }
                }
            }
        }
        throw new InvalidRequestException(dev.tributary.node.errors.ErrorCode.NOT_FOUND, "ReadStream: stream " + stream.toHex()
                + " is not a stream of " + (ref.table() != null ? "table " + ref.table().qualifiedName() : "queue " + ref.queue())
                + " (ListStreams lists them)");
    }

    private long caughtUpScn(LogRef ref) {
        if (ref.table() != null) {
            return sources.cdcCaughtUpScn().getAsLong();
        }
        // no capture feeds the queue: nothing can be enqueued below the current SCN
        return captures.caughtUpScn(ref.queue(), sources.currentScn().getAsLong());
    }

    @Override
    public void listStreams(dev.tributary.protocol.v1.ListStreamsRequest req,
            StreamObserver<dev.tributary.protocol.v1.ListStreamsResponse> out) {
        try {
            LogRef ref = logOf(req.getTable(), req.getQueue(), "ListStreams");
            dev.tributary.protocol.v1.ListStreamsResponse.Builder b = dev.tributary.protocol.v1.ListStreamsResponse.newBuilder()
                    .addAllLineages(lineagesOf(ref))
                    .setSchemaStream(ByteString.copyFrom(new byte[StreamId.BYTES]))
                    .setMaxWriteSkewMillis(sources.safeTimes().maxSkewMillis());
            for (dev.tributary.node.coord.ClusterCoordinator.Member m : sources.members().call()) {
                b.addNodes(dev.tributary.protocol.v1.NodeInfo.newBuilder().setHostId(m.hostId()).setEndpoint(m.endpoint())
                        .setLive(m.live()).setState(m.state().name()));
            }
            out.onNext(b.build());
            out.onCompleted();
        } catch (Exception e) {
            out.onError(ErrorMapping.toStatus(e));
        }
    }

    @Override
    public void readStream(dev.tributary.protocol.v1.ReadStreamRequest req,
            StreamObserver<dev.tributary.protocol.v1.StreamBatch> out) {
        dev.tributary.node.changes.StreamReads.Request r;
        try {
            LogRef ref = logOf(req.getTable(), req.getQueue(), "ReadStream");
            StreamId stream = streamId("ReadStream", req.getStreamId());
            requireStreamOf(ref, stream);
            LogPosition after = req.hasAfter() ? position(req.getAfter()) : null;
            if (after != null && !after.stream().equals(stream)) {
                throw new InvalidRequestException("ReadStream: the position after which to read is in stream "
                        + after.stream().toHex() + ", not in the stream read " + stream.toHex());
            }
            int batch = batchSize("ReadStream", req.getMaxBatch());
            r = new dev.tributary.node.changes.StreamReads.Request(ref.logId(), stream, after, req.getFromTimeMicros(),
                    req.getFollow(), batch, () -> sources.safeTimes().of(ref.logId(), caughtUpScn(ref)),
                    () -> newestSet(ref), ChangeStreamGrpcService::toWire);
        } catch (RuntimeException e) {
            out.onError(ErrorMapping.toStatus(e));
            return;
        }
        sources.reads().open(r, (io.grpc.stub.ServerCallStreamObserver<dev.tributary.protocol.v1.StreamBatch>) out);
    }

    @Override
    public StreamObserver<dev.tributary.protocol.v1.ReadStreamsRequest> readStreams(
            StreamObserver<dev.tributary.protocol.v1.StreamsBatch> out) {
        dev.tributary.node.changes.StreamsCall call = sources.reads()
                .openStreams((io.grpc.stub.ServerCallStreamObserver<dev.tributary.protocol.v1.StreamsBatch>) out);
        return new StreamObserver<>() {
            private boolean begun;
            private boolean refused;

            @Override
            public void onNext(dev.tributary.protocol.v1.ReadStreamsRequest req) {
                if (refused) {
                    return; // the call is failing already
                }
                try {
                    if (!begun) {
                        LogRef ref = logOf(req.getTable(), req.getQueue(), "ReadStreams");
                        call.begin(new dev.tributary.node.changes.StreamReads.StreamsRequest(ref.logId(),
                                batchSize("ReadStreams", req.getMaxBatch()),
                                () -> sources.safeTimes().of(ref.logId(), caughtUpScn(ref)), () -> newestSet(ref),
                                ChangeStreamGrpcService::toWire));
                        begun = true;
                    } else if (!req.getTable().isEmpty() || !req.getQueue().isEmpty() || req.getMaxBatch() != 0) {
                        throw new InvalidRequestException("ReadStreams: only the first request names the log and max_batch");
                    }
                    List<dev.tributary.node.changes.StreamsCall.Open> opens = new java.util.ArrayList<>();
                    for (dev.tributary.protocol.v1.StreamOpen o : req.getOpenList()) {
                        StreamId stream = streamId("ReadStreams", o.getStreamId());
                        LogPosition after = o.hasAfter() ? position(o.getAfter()) : null;
                        if (after != null && !after.stream().equals(stream)) {
                            throw new InvalidRequestException("ReadStreams: the position after which to read is in stream "
                                    + after.stream().toHex() + ", not in the stream opened " + stream.toHex());
                        }
                        opens.add(new dev.tributary.node.changes.StreamsCall.Open(stream, after, o.getFromTimeMicros(), o.getSeq()));
                    }
                    List<StreamId> closes = new java.util.ArrayList<>();
                    for (ByteString c : req.getCloseList()) {
                        closes.add(streamId("ReadStreams", c));
                    }
                    call.request(opens, closes);
                } catch (RuntimeException e) {
                    refused = true;
                    call.fail(e);
                }
            }

            @Override
            public void onError(Throwable t) {
                // the client cancelled: the call's cancel handler forgets it
            }

            @Override
            public void onCompleted() {
                // a half-close only means no more opens or closes; the call goes on until cancelled
            }
        };
    }

    private static StreamId streamId(String rpc, ByteString id) {
        if (id.size() != StreamId.BYTES) {
            throw new InvalidRequestException(rpc + ": stream_id must be " + StreamId.BYTES + " bytes, got " + id.size());
        }
        return StreamId.fromBytes(id.toByteArray());
    }

    private static int batchSize(String rpc, int maxBatch) {
        if (maxBatch < 0 || maxBatch > dev.tributary.node.changes.StreamReads.MAX_BATCH) {
            throw new InvalidRequestException(rpc + ": max_batch must be 0 to "
                    + dev.tributary.node.changes.StreamReads.MAX_BATCH + ", got " + maxBatch);
        }
        return maxBatch == 0 ? dev.tributary.node.changes.StreamReads.DEFAULT_BATCH : maxBatch;
    }

    private long newestSet(LogRef ref) {
        return lineages.newestMillis(ref.table());
    }

    @Override
    public void subscribe(dev.tributary.protocol.v1.SubscribeRequest req, StreamObserver<dev.tributary.protocol.v1.LcrBatch> out) {
        long logId;
        try {
            logId = subscribedLog(req);
        } catch (RuntimeException e) {
            out.onError(ErrorMapping.toStatus(e));
            return;
        }
        io.grpc.stub.ServerCallStreamObserver<dev.tributary.protocol.v1.LcrBatch> call =
                (io.grpc.stub.ServerCallStreamObserver<dev.tributary.protocol.v1.LcrBatch>) out;
        dev.tributary.capture.BufferedQueues.Subscription sub = buffered.subscribe(logId);
        Object ready = new Object();
        Thread pump = new Thread(() -> {
            try {
                while (!call.isCancelled()) {
                    synchronized (ready) {
                        if (!call.isReady()) {
                            ready.wait(200); // the client's window is shut: take nothing, so the buffer fills
                            continue;
                        }
                    }
                    dev.tributary.protocol.v1.LcrBatch.Builder batch = dev.tributary.protocol.v1.LcrBatch.newBuilder();
                    for (LogRecord r : sub.poll(SUBSCRIBE_BATCH, 200)) {
                        if (r.isDelta()) {
                            batch.addLcrs(toWire(r));
                        }
                    }
                    if (batch.getLcrsCount() > 0) {
                        call.onNext(batch.build());
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                if (!call.isCancelled()) {
                    call.onError(ErrorMapping.toStatus(e));
                }
            } finally {
                sub.close();
            }
        }, "tributary-subscribe-" + logId);
        pump.setDaemon(true);
        call.setOnReadyHandler(() -> {
            synchronized (ready) {
                ready.notifyAll();
            }
        });
        call.setOnCancelHandler(() -> {
            sub.close();
            pump.interrupt();
        });
        pump.start();
    }

    /** Rows per ReadTableSnapshot message by default, and at most (a message keeps one token's rows together). */
    static final int SNAPSHOT_DEFAULT_ROWS = 256;
    static final int SNAPSHOT_MAX_ROWS = 4096;

    @Override
    public void readTableSnapshot(dev.tributary.protocol.v1.ReadTableSnapshotRequest req,
            StreamObserver<dev.tributary.protocol.v1.TableSnapshotBatch> out) {
        TableDef t;
        int maxRows;
        try {
            t = table(req.getTable());
            if (req.getMaxRows() < 0 || req.getMaxRows() > SNAPSHOT_MAX_ROWS) {
                throw new InvalidRequestException("ReadTableSnapshot: max_rows must be 0 to " + SNAPSHOT_MAX_ROWS + ", got "
                        + req.getMaxRows());
            }
            maxRows = req.getMaxRows() == 0 ? SNAPSHOT_DEFAULT_ROWS : req.getMaxRows();
        } catch (RuntimeException e) {
            out.onError(ErrorMapping.toStatus(e));
            return;
        }
        ServerCallStreamObserver<dev.tributary.protocol.v1.TableSnapshotBatch> call =
                (ServerCallStreamObserver<dev.tributary.protocol.v1.TableSnapshotBatch>) out;
        Long after = req.getHasAfterToken() ? req.getAfterToken() : null;
        Object ready = new Object();
        // its own thread: the scan may outlast the client's window many times, and waits for it
        Thread pump = new Thread(() -> sendSnapshot(t, after, maxRows, call, ready),
                "tributary-table-snapshot-" + t.qualifiedName());
        pump.setDaemon(true);
        call.setOnReadyHandler(() -> {
            synchronized (ready) {
                ready.notifyAll();
            }
        });
        call.setOnCancelHandler(pump::interrupt);
        pump.start();
    }

    private void sendSnapshot(TableDef t, Long after, int maxRows,
            ServerCallStreamObserver<dev.tributary.protocol.v1.TableSnapshotBatch> call, Object ready) {
        TableSnapshots source = sources.snapshots();
        try (Snapshot snap = source.take().apply(t.keyspace(), t.name())) {
            java.util.Map<String, dev.tributary.dictionary.types.CqlType> types = snap.types();
            java.util.Iterator<SnapshotRow> rows = snap.rowsAfter(after);
            SnapshotRow pending = null;
            while (true) {
                synchronized (ready) {
                    while (!call.isReady()) {
                        if (call.isCancelled()) {
                            return;
                        }
                        ready.wait(200); // the client's window is shut: read no further
                    }
                }
                if (call.isCancelled()) {
                    return;
                }
                dev.tributary.protocol.v1.TableSnapshotBatch.Builder batch = dev.tributary.protocol.v1.TableSnapshotBatch
                        .newBuilder().setScn(snap.scn()).setRedoThread(source.redoThread()).setHostId(source.hostId());
                int n = 0;
                while (pending != null || rows.hasNext()) {
                    SnapshotRow r = pending != null ? pending : rows.next();
                    // a message holds every row of each of its tokens: a reader resumes after a whole token
                    if (n >= maxRows && r.token() != batch.getRows(n - 1).getToken()) {
                        pending = r;
                        break;
                    }
                    pending = null;
                    dev.tributary.protocol.v1.SnapshotRow.Builder row = dev.tributary.protocol.v1.SnapshotRow.newBuilder()
                            .setToken(r.token());
                    for (java.util.Map.Entry<String, Object> v : r.values().entrySet()) {
                        dev.tributary.dictionary.types.CqlType type = types.get(v.getKey());
                        row.addValues(NamedValue.newBuilder().setName(v.getKey()).setType(type.cql())
                                .setValue(WireValues.toWire(type, v.getValue())));
                    }
                    batch.addRows(row);
                    n++;
                }
                boolean last = pending == null;
                call.onNext(batch.setLast(last).build());
                if (last) {
                    call.onCompleted();
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            if (!call.isCancelled()) {
                call.onError(ErrorMapping.toStatus(e));
            }
        }
    }

    private long subscribedLog(dev.tributary.protocol.v1.SubscribeRequest req) {
        boolean table = !req.getTable().isEmpty();
        boolean queue = !req.getQueue().isEmpty();
        if (table == queue) {
            throw new InvalidRequestException("subscribe: give exactly one of table (ks.t) or queue");
        }
        if (table) {
            return table(req.getTable()).objectNumber();
        }
        return queue(req.getQueue());
    }

    @Override
    public void listGenerations(ListGenerationsRequest req, StreamObserver<ListGenerationsResponse> out) {
        ListGenerationsResponse.Builder b = ListGenerationsResponse.newBuilder();
        for (Generation g : generations.get().newestFirst()) {
            dev.tributary.protocol.v1.Generation.Builder gb = dev.tributary.protocol.v1.Generation.newBuilder()
                    .setTimestampMillis(g.timestampMillis());
            for (VnodeStreams v : g.vnodes()) {
                dev.tributary.protocol.v1.VnodeStreams.Builder vb = dev.tributary.protocol.v1.VnodeStreams.newBuilder()
                        .setRangeEnd(v.rangeEnd());
                for (StreamId s : v.streams()) {
                    vb.addStreams(ByteString.copyFrom(s.toBytes()));
                }
                gb.addVnodes(vb);
            }
            b.addGenerations(gb);
        }
        out.onNext(b.build());
        out.onCompleted();
    }

    @Override
    public void readChanges(ReadChangesRequest req, StreamObserver<Lcr> out) {
        ServerCallStreamObserver<Lcr> call = (ServerCallStreamObserver<Lcr>) out;
        try {
            TableDef t = table(req.getTable());
            LogPosition after = req.hasAfter() ? position(req.getAfter()) : null;
            int limit = req.getLimit() <= 0 ? Integer.MAX_VALUE : req.getLimit();
            int sent = 0;
            while (sent < limit) {
                int want = Math.min(PAGE, limit - sent);
                List<LogRecord> page = log.read(t.objectNumber(), after, want, true);
                for (LogRecord r : page) {
                    if (!awaitReady(call)) {
                        return; // the reader went away: stop reading the log
                    }
                    out.onNext(toWire(r));
                    sent++;
                }
                if (page.size() < want) {
                    break;
                }
                after = page.get(page.size() - 1).position();
            }
            out.onCompleted();
        } catch (RuntimeException e) {
            out.onError(ErrorMapping.toStatus(e));
        }
    }

    /**
     * Waits while the reader's flow-control window is shut, so a slow reader or one that stops
     * reading holds the node to one page, not the rest of the log in memory. This handler runs on
     * the call's serialized executor, so no on-ready callback can reach it: it polls the transport's
     * readiness, which the transport updates by itself.
     *
     * @return false once the call is cancelled
     */
    private static boolean awaitReady(ServerCallStreamObserver<?> call) {
        Context context = Context.current();
        while (!call.isReady()) {
            if (call.isCancelled() || context.isCancelled()) {
                return false;
            }
            LockSupport.parkNanos(READY_POLL_NANOS);
        }
        return !call.isCancelled() && !context.isCancelled();
    }

    /** A queue's log id, once the caller may read it (SELECT on what its captures' rules name). */
    private long queue(String name) {
        // asked before the queue is looked up: a role may not learn which queues exist by probing
        access.authorizeQueue(authentication.principal(null), name);
        Long id = captures.queueId(name);
        if (id == null) {
            throw new InvalidRequestException(dev.tributary.node.errors.ErrorCode.NOT_FOUND, "queue " + name + " does not exist");
        }
        return id;
    }

    /**
     * A table with a CDC log, once the caller may read its changes (SELECT on it). The permission is
     * asked by name before the table is looked up, so a missing table answers a role without it as a
     * forbidden one does.
     */
    private TableDef table(String qualified) {
        int dot = qualified.indexOf('.');
        if (dot > 0) {
            access.authorizeChanges(authentication.principal(null), qualified.substring(0, dot), qualified.substring(dot + 1));
        }
        return cdcTable(dictionary, qualified);
    }

    /** The table "ks.t" with its CDC log, or NOT_FOUND / INVALID_ARGUMENT naming what is wrong. */
    static TableDef cdcTable(MultiversionDictionary dictionary, String qualified) {
        int dot = qualified.indexOf('.');
        if (dot <= 0) {
            throw new InvalidRequestException("table must be given as keyspace.table, got '" + qualified + "'");
        }
        TableDef t = dictionary.latest().requireTable(qualified.substring(0, dot), qualified.substring(dot + 1));
        if (!t.options().cdc().enabled()) {
            throw new InvalidRequestException(dev.tributary.node.errors.ErrorCode.NOT_FOUND,
                    "table " + t.qualifiedName() + " has no CDC log (cdc is not enabled)");
        }
        return t;
    }

    private static LogPosition position(dev.tributary.protocol.v1.LcrPosition p) {
        try {
            return new LogPosition(StreamId.fromBytes(p.getStreamId().toByteArray()), UUID.fromString(p.getTime()),
                    p.getBatchSeqNo());
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException("invalid LCR position: " + e.getMessage());
        }
    }

    private static final ByteString ROW = ByteString.copyFromUtf8("ROW");

    static Lcr toWire(LogRecord r) {
        Lcr.Builder b = Lcr.newBuilder()
                .setPosition(dev.tributary.protocol.v1.LcrPosition.newBuilder()
                        // toBytes() makes a fresh array: wrapped, not copied again
                        .setStreamId(UnsafeByteOperations.unsafeWrap(r.position().stream().toBytes()))
                        .setTime(r.position().time().toString()).setBatchSeqNo(r.position().batchSeqNo()))
                .setEndOfBatch(r.endOfBatch());
        if (r.lcr() instanceof RowLcr row) {
            b.setLcrBytes(ROW).setSourceDatabaseNameBytes(WireCache.text(row.sourceDatabaseName()))
                    .setCommandTypeBytes(WireCache.text(row.commandType()))
                    .setObjectOwnerBytes(WireCache.text(row.objectOwner()))
                    .setObjectNameBytes(WireCache.text(row.objectName())).setTransactionId(row.transactionId())
                    .setScn(row.scn()).setCommitScn(row.commitScn());
            if (row.tag() != null) {
                b.setHasTag(true).setTag(ByteString.copyFrom(row.tag()));
            }
            if (row.oldValues() != null) {
                b.setHasOldValues(true);
                for (LcrColumn c : row.oldValues()) {
                    b.addOldValues(named(c));
                }
            }
            if (row.newValues() != null) {
                b.setHasNewValues(true);
                for (LcrColumn c : row.newValues()) {
                    b.addNewValues(named(c));
                }
            }
            for (LcrColumn c : row.extra()) {
                b.addExtra(named(c));
            }
        } else {
            DdlLcr d = (DdlLcr) r.lcr();
            b.setLcr("DDL").setSourceDatabaseName(d.sourceDatabaseName()).setCommandType(d.commandType())
                    .setObjectOwner(nz(d.objectOwner())).setObjectName(nz(d.objectName())).setObjectType(nz(d.objectType()))
                    .setDdlText(nz(d.ddlText())).setLogonUser(nz(d.logonUser())).setCurrentSchema(nz(d.currentSchema()))
                    .setBaseTableOwner(nz(d.baseTableOwner())).setBaseTableName(nz(d.baseTableName()))
                    .setTransactionId(d.transactionId()).setScn(d.scn()).setCommitScn(d.scn());
            if (d.tag() != null) {
                b.setHasTag(true).setTag(ByteString.copyFrom(d.tag()));
            }
            for (LcrColumn c : d.extra()) {
                b.addExtra(named(c));
            }
        }
        return b.build();
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }

    private static NamedValue named(LcrColumn c) {
        return NamedValue.newBuilder().setNameBytes(WireCache.text(c.name())).setTypeBytes(WireCache.text(c.type().cql()))
                .setValue(WireValues.toWire(c.type(), c.value())).build();
    }
}
