package dev.tributary.client;

import dev.tributary.client.internal.Endpoints;
import dev.tributary.client.internal.ErrorMapper;
import dev.tributary.protocol.v1.ChangeStreamServiceGrpc;
import dev.tributary.protocol.v1.ReadTableSnapshotRequest;
import dev.tributary.protocol.v1.TableSnapshotBatch;
import io.grpc.Context;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.OptionalLong;

/**
 * One node's rows of a table as of one SCN (the ReadTableSnapshot RPC), in token order, read as
 * the node sends them under gRPC flow control. Blocking: {@link #point()} and {@link #hasNext()}
 * wait for the node. A read is of one node and does not fail over: when it fails (a
 * {@link dev.tributary.client.errors.TributaryException}), start another with
 * {@code afterToken} the token of the last row whose {@link SnapshotRow#completesToken()} was
 * true; that read is as of a new SCN, and a hand-over must then keep, per key, the changes above
 * the SCN its row was read at ({@link SnapshotHandover}).
 *
 * <p>Not thread-safe (one reader), except {@link #close()}, which stops a blocked call from any
 * thread. Close a read left before its end.
 */
public final class TableSnapshotRead implements Iterator<SnapshotRow>, AutoCloseable {
    private final String endpoint;
    private final String table;
    private final Context.CancellableContext context;
    private final Iterator<TableSnapshotBatch> call;
    private final Deque<SnapshotRow> rows = new ArrayDeque<>();
    private SnapshotPoint point;
    private boolean last;

    TableSnapshotRead(Endpoints.Endpoint node, String table, OptionalLong afterToken, int maxRows) {
        this.endpoint = node.name();
        this.table = table;
        ReadTableSnapshotRequest.Builder req = ReadTableSnapshotRequest.newBuilder().setTable(table).setMaxRows(maxRows);
        afterToken.ifPresent(t -> req.setHasAfterToken(true).setAfterToken(t));
        context = Context.current().withCancellation();
        Context previous = context.attach();
        try {
            // the call binds to the context current when it starts, so close() can cancel it
            call = ChangeStreamServiceGrpc.newBlockingStub(node.channel()).readTableSnapshot(req.build());
        } finally {
            context.detach(previous);
        }
    }

    /** The node's host id, redo thread and the SCN the rows are as of; waits for the node's first answer. */
    public SnapshotPoint point() {
        while (point == null) {
            if (!fetch()) {
                throw new IllegalStateException("the snapshot read of " + table + " at " + endpoint + " ended without a point");
            }
        }
        return point;
    }

    @Override
    public boolean hasNext() {
        while (rows.isEmpty()) {
            if (last || !fetch()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public SnapshotRow next() {
        if (!hasNext()) {
            throw new NoSuchElementException("the snapshot read of " + table + " at " + endpoint + " has ended");
        }
        return rows.poll();
    }

    /** True once every row of the node has been returned. */
    public boolean complete() {
        return last && rows.isEmpty();
    }

    private boolean fetch() {
        TableSnapshotBatch b;
        try {
            if (!call.hasNext()) {
                return false;
            }
            b = call.next();
        } catch (StatusRuntimeException e) {
            if (e.getStatus().getCode() == Status.Code.CANCELLED && context.isCancelled()) {
                return false;
            }
            throw ErrorMapper.map(e, endpoint, null);
        }
        point = new SnapshotPoint(b.getHostId(), b.getRedoThread(), b.getScn());
        for (int i = 0; i < b.getRowsCount(); i++) {
            dev.tributary.protocol.v1.SnapshotRow r = b.getRows(i);
            // a message holds every row of each of its tokens, so the last row of a message completes its token
            boolean completes = i == b.getRowsCount() - 1 || b.getRows(i + 1).getToken() != r.getToken();
            Map<String, Object> values = ValueCodec.decodeFields(r.getValuesList(),
                    () -> "a snapshot row of " + table + " at " + endpoint);
            rows.add(new SnapshotRow(r.getToken(), values, completes));
        }
        last = b.getLast();
        return true;
    }

    /** Stops the read; a blocked call returns. Idempotent. */
    @Override
    public void close() {
        context.cancel(null);
    }
}
