package dev.tributary.node.grpc;

import com.google.protobuf.ByteString;
import dev.tributary.capture.lcr.DdlLcr;
import dev.tributary.capture.lcr.LcrColumn;
import dev.tributary.capture.lcr.RowLcr;
import dev.tributary.capture.log.LogPosition;
import dev.tributary.capture.log.LogRecord;
import dev.tributary.dictionary.MultiversionDictionary;
import dev.tributary.dictionary.errors.UnknownTableException;
import dev.tributary.dictionary.schema.TableDef;
import dev.tributary.generations.Generation;
import dev.tributary.generations.GenerationHistory;
import dev.tributary.generations.StreamId;
import dev.tributary.generations.VnodeStreams;
import dev.tributary.node.capture.RocksDbCdcLog;
import dev.tributary.node.errors.InvalidRequestException;
import dev.tributary.protocol.v1.ChangeStreamServiceGrpc;
import dev.tributary.protocol.v1.Lcr;
import dev.tributary.protocol.v1.ListGenerationsRequest;
import dev.tributary.protocol.v1.ListGenerationsResponse;
import dev.tributary.protocol.v1.NamedValue;
import dev.tributary.protocol.v1.ReadChangesRequest;
import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * Reading captured LCRs and the generations their streams belong to; live subscriptions to a
 * log through its buffered queue, one pump thread each, sending only while the client's gRPC
 * flow-control window is open.
 */
public final class ChangeStreamGrpcService extends ChangeStreamServiceGrpc.ChangeStreamServiceImplBase {
    private static final int PAGE = 500;
    private static final int SUBSCRIBE_BATCH = 256;
    private final MultiversionDictionary dictionary;
    private final RocksDbCdcLog log;
    private final Supplier<GenerationHistory> generations;
    private final dev.tributary.node.capture.CaptureProcesses captures;
    private final dev.tributary.capture.BufferedQueues buffered;

    public ChangeStreamGrpcService(MultiversionDictionary dictionary, RocksDbCdcLog log, Supplier<GenerationHistory> generations,
            dev.tributary.node.capture.CaptureProcesses captures, dev.tributary.capture.BufferedQueues buffered) {
        this.dictionary = dictionary;
        this.log = log;
        this.generations = generations;
        this.captures = captures;
        this.buffered = buffered;
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

    private long subscribedLog(dev.tributary.protocol.v1.SubscribeRequest req) {
        boolean table = !req.getTable().isEmpty();
        boolean queue = !req.getQueue().isEmpty();
        if (table == queue) {
            throw new InvalidRequestException("subscribe: give exactly one of table (ks.t) or queue");
        }
        if (table) {
            return table(req.getTable()).objectNumber();
        }
        Long id = captures.queueId(req.getQueue());
        if (id == null) {
            throw new InvalidRequestException(dev.tributary.node.errors.ErrorCode.NOT_FOUND,
                    "queue " + req.getQueue() + " does not exist");
        }
        return id;
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
        try {
            TableDef t = table(req.getTable());
            LogPosition after = req.hasAfter() ? position(req.getAfter()) : null;
            int limit = req.getLimit() <= 0 ? Integer.MAX_VALUE : req.getLimit();
            int sent = 0;
            while (sent < limit) {
                int want = Math.min(PAGE, limit - sent);
                List<LogRecord> page = log.read(t.objectNumber(), after, want, true);
                for (LogRecord r : page) {
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

    private TableDef table(String qualified) {
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

    static Lcr toWire(LogRecord r) {
        Lcr.Builder b = Lcr.newBuilder()
                .setPosition(dev.tributary.protocol.v1.LcrPosition.newBuilder()
                        .setStreamId(ByteString.copyFrom(r.position().stream().toBytes()))
                        .setTime(r.position().time().toString()).setBatchSeqNo(r.position().batchSeqNo()))
                .setEndOfBatch(r.endOfBatch());
        if (r.lcr() instanceof RowLcr row) {
            b.setLcr("ROW").setSourceDatabaseName(row.sourceDatabaseName()).setCommandType(row.commandType())
                    .setObjectOwner(row.objectOwner()).setObjectName(row.objectName()).setTransactionId(row.transactionId())
                    .setScn(row.scn()).setCommitScn(row.commitScn());
            if (row.tag() != null) {
                b.setHasTag(true).setTag(ByteString.copyFrom(row.tag()));
            }
            if (row.oldValues() != null) {
                b.setHasOldValues(true).addAllOldValues(named(row.oldValues()));
            }
            if (row.newValues() != null) {
                b.setHasNewValues(true).addAllNewValues(named(row.newValues()));
            }
            b.addAllExtra(named(row.extra()));
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
            b.addAllExtra(named(d.extra()));
        }
        return b.build();
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }

    private static List<NamedValue> named(List<LcrColumn> cols) {
        return cols.stream().map(c -> NamedValue.newBuilder().setName(c.name()).setType(c.type().cql())
                .setValue(WireValues.toWire(c.type(), c.value())).build()).toList();
    }
}
