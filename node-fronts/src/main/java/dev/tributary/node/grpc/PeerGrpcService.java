package dev.tributary.node.grpc;

import com.google.protobuf.ByteString;
import dev.tributary.dictionary.MultiversionDictionary;
import dev.tributary.dictionary.schema.TableDef;
import dev.tributary.node.net.ErrorMapping;
import dev.tributary.node.storage.Keys;
import dev.tributary.node.storage.NodeStore;
import dev.tributary.node.write.CommitPipeline;
import dev.tributary.protocol.v1.PeerServiceGrpc;
import dev.tributary.protocol.v1.ReleaseRowsResponse;
import dev.tributary.protocol.v1.RowBatch;
import dev.tributary.protocol.v1.StoredRowEntry;
import dev.tributary.protocol.v1.StreamRowsRequest;
import dev.tributary.protocol.v1.TokenRange;
import io.grpc.stub.StreamObserver;
import java.nio.ByteBuffer;
import java.util.Arrays;
import dev.tributary.node.storage.StoreIterator;

/**
 * The sending side of range streaming: a joining (or returning) node asks each peer for the base
 * rows in its ranges, stores them, then asks the peer to release them.
 */
public final class PeerGrpcService extends PeerServiceGrpc.PeerServiceImplBase {
    private static final int BATCH = 500;

    private final NodeStore store;
    private final MultiversionDictionary dictionary;
    private final CommitPipeline pipeline;
    private final java.util.function.Consumer<StreamRowsRequest> handOver;
    private final java.util.function.LongPredicate tabletTable;
    private final String hostId;
    private final dev.tributary.node.capture.RocksDbRedoLog redo;
    private final java.util.function.Supplier<dev.tributary.node.capture.RedoSegments.Segment> archiveCurrent;

    /**
     * @param handOver called with the request before its rows are read: returns once this node
     *                 routes writes in the requested ranges to the requester and every write routed
     *                 before has committed
     * @param tabletTable whether a table (by object number) is a tablet table
     */
    public PeerGrpcService(NodeStore store, MultiversionDictionary dictionary, CommitPipeline pipeline,
            java.util.function.Consumer<StreamRowsRequest> handOver, java.util.function.LongPredicate tabletTable,
            String hostId, dev.tributary.node.capture.RocksDbRedoLog redo,
            java.util.function.Supplier<dev.tributary.node.capture.RedoSegments.Segment> archiveCurrent) {
        this.archiveCurrent = archiveCurrent;
        this.hostId = hostId;
        this.redo = redo;
        this.tabletTable = tabletTable;
        this.store = store;
        this.dictionary = dictionary;
        this.pipeline = pipeline;
        this.handOver = handOver;
    }

    /** The token of a row key (object number, then the token with its sign bit flipped). */
    public static long tokenOf(byte[] rowKey) {
        return ByteBuffer.wrap(rowKey, 8, 8).getLong() ^ Long.MIN_VALUE;
    }

    /** Whether {@code token} lies in (start, end], wrapping when start >= end. */
    public static boolean contains(TokenRange r, long token) {
        return r.getStart() < r.getEnd() ? token > r.getStart() && token <= r.getEnd()
                : token > r.getStart() || token <= r.getEnd();
    }

    @Override
    public void readRedo(dev.tributary.protocol.v1.ReadRedoRequest req, StreamObserver<dev.tributary.protocol.v1.RedoBatch> out) {
        ErrorMapping.answer(out, () -> {
            if (!req.getHostId().equals(hostId)) {
                throw io.grpc.Status.FAILED_PRECONDITION.withDescription("this node runs the instance " + hostId + ", not "
                        + req.getHostId()).asRuntimeException();
            }
            dev.tributary.protocol.v1.RedoBatch.Builder b = dev.tributary.protocol.v1.RedoBatch.newBuilder()
                    .setCompleteThrough(redo.completeThrough()); // before the read, as RedoSource.completeThrough requires
            // the entries as stored: the reader decodes them and checks their checksums
            for (byte[] e : redo.rawAfter(req.getAfterScn(), Math.max(1, req.getMaxEntries()))) {
                b.addEntries(com.google.protobuf.ByteString.copyFrom(e));
            }
            return b.build();
        });
    }

    @Override
    public void archiveLogCurrent(dev.tributary.protocol.v1.ArchiveLogCurrentRequest req,
            StreamObserver<dev.tributary.protocol.v1.ArchivedLogRef> out) {
        ErrorMapping.answer(out, () -> ClusterLogSwitches.ref(archiveCurrent.get()));
    }

    @Override
    public void streamRows(StreamRowsRequest req, StreamObserver<RowBatch> out) {
        try {
            if (req.getRequesterHostId().isEmpty()) {
                throw new dev.tributary.node.errors.InvalidRequestException("StreamRows needs the requester's host id");
            }
            handOver.accept(req);
            // first the keys of writes applied here: a retry may reach the requester once it owns the range
            for (RowBatch keys : Peers.idempotencyKeyBatches(store)) {
                out.onNext(keys);
            }
            RowBatch.Builder batch = RowBatch.newBuilder();
            for (TableDef t : dictionary.latest().tables()) {
                if (req.getTablets() ? t.objectNumber() != req.getObjectNumber() : tabletTable.test(t.objectNumber())) {
                    continue;
                }
                byte[] prefix = Keys.tablePrefix(t.objectNumber());
                try (StoreIterator it = store.iterator(NodeStore.Family.ROWS)) {
                    for (it.seek(prefix); it.isValid() && Keys.hasPrefix(it.key(), prefix); it.next()) {
                        long token = tokenOf(it.key());
                        if (req.getRangesList().stream().anyMatch(r -> contains(r, token))) {
                            batch.addRows(StoredRowEntry.newBuilder().setKey(ByteString.copyFrom(it.key()))
                                    .setValue(ByteString.copyFrom(it.value())));
                            if (batch.getRowsCount() >= BATCH) {
                                out.onNext(batch.build());
                                batch = RowBatch.newBuilder();
                            }
                        }
                    }
                }
            }
            if (batch.getRowsCount() > 0) {
                out.onNext(batch.build());
            }
            out.onCompleted();
        } catch (RuntimeException e) {
            out.onError(ErrorMapping.toStatus(e));
        }
    }

    @Override
    public void receiveRows(RowBatch req, StreamObserver<dev.tributary.protocol.v1.ReceivedRows> out) {
        ErrorMapping.answer(out, () -> {
            Peers.mergeRows(pipeline, req);
            return dev.tributary.protocol.v1.ReceivedRows.newBuilder().setReceived(req.getRowsCount()).build();
        });
    }

    @Override
    public void receiveLog(RowBatch req, StreamObserver<dev.tributary.protocol.v1.ReceivedRows> out) {
        ErrorMapping.answer(out, () -> {
            // entries have deterministic keys and identical values wherever they are made, so
            // putting one that is already here changes nothing
            pipeline.commit(ctx -> {
                for (StoredRowEntry e : req.getRowsList()) {
                    ctx.put(NodeStore.Family.CDC_LOG, e.getKey().toByteArray(), e.getValue().toByteArray());
                }
                return null;
            });
            return dev.tributary.protocol.v1.ReceivedRows.newBuilder().setReceived(req.getRowsCount()).build();
        });
    }

    @Override
    public void releaseRows(RowBatch req, StreamObserver<ReleaseRowsResponse> out) {
        ErrorMapping.answer(out, () -> {
            // on the committer, so no write to these rows can come between the check and the delete
            long released = pipeline.commit(ctx -> {
                long n = 0;
                for (StoredRowEntry e : req.getRowsList()) {
                    byte[] key = e.getKey().toByteArray();
                    if (Arrays.equals(ctx.get(NodeStore.Family.ROWS, key), e.getValue().toByteArray())) {
                        ctx.delete(NodeStore.Family.ROWS, key);
                        n++;
                    }
                }
                return n;
            }).result();
            return ReleaseRowsResponse.newBuilder().setReleased(released).build();
        });
    }
}
