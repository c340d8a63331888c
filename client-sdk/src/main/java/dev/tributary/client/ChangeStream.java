package dev.tributary.client;

import dev.tributary.client.errors.TributaryException;
import dev.tributary.client.internal.Endpoints;
import dev.tributary.client.internal.ErrorMapper;
import dev.tributary.protocol.v1.ChangeStreamServiceGrpc;
import dev.tributary.protocol.v1.Lcr;
import dev.tributary.protocol.v1.ReadChangesRequest;
import io.grpc.Context;
import io.grpc.Deadline;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * The LCRs of one log, read as they arrive from a server-streaming ReadChanges call. Blocking:
 * {@link #hasNext()} waits for the next LCR or the end of the log. When the node serving the
 * stream becomes unavailable, the stream continues on the next endpoint just after the last LCR
 * it returned, so nothing is skipped or repeated; when no endpoint can serve, {@code hasNext}
 * throws {@code UnavailableException}. Other failures throw their {@link TributaryException}.
 *
 * <p>Not thread-safe (one consumer), except {@link #close()}, which may be called from any thread
 * to stop a blocked {@code hasNext} (it then returns false). Close a stream left before its end.
 */
public final class ChangeStream implements Iterator<ChangeRecord>, AutoCloseable {
    private final Endpoints endpoints;
    private final String table;
    private final int limit;
    private final Deadline deadline;
    private LcrPosition after;
    private int delivered;
    // volatile: close() reads it from another thread to cancel a blocked call
    private volatile Context.CancellableContext context;
    private Iterator<Lcr> current;
    private Endpoints.Endpoint currentEndpoint;
    private ChangeRecord next;
    private boolean done;
    private volatile boolean closed;

    ChangeStream(Endpoints endpoints, String table, LcrPosition after, int limit, Deadline deadline) {
        this.endpoints = endpoints;
        this.table = table;
        this.after = after;
        this.limit = Math.max(limit, 0);
        this.deadline = deadline;
    }

    /** The position of the last LCR returned, or the start position when none was. */
    public LcrPosition position() {
        return after;
    }

    @Override
    public boolean hasNext() {
        if (next != null) {
            return true;
        }
        if (done || closed) {
            return false;
        }
        if (limit > 0 && delivered >= limit) {
            finish();
            return false;
        }
        List<String> tried = new ArrayList<>();
        StatusRuntimeException lastUnavailable = null;
        while (true) {
            if (current == null) {
                List<Endpoints.Endpoint> order = endpoints.inFailoverOrder();
                Endpoints.Endpoint ep = null;
                for (Endpoints.Endpoint e : order) {
                    if (!tried.contains(e.name())) {
                        ep = e;
                        break;
                    }
                }
                if (ep == null) {
                    finish();
                    throw Endpoints.unavailable(tried, lastUnavailable);
                }
                tried.add(ep.name());
                open(ep);
                currentEndpoint = ep;
            }
            try {
                if (!current.hasNext()) {
                    finish();
                    return false;
                }
                Lcr l = current.next();
                endpoints.answered(currentEndpoint);
                try {
                    next = Lcrs.toRecord(l);
                } catch (RuntimeException unreadable) {
                    finish();
                    throw unreadable;
                }
                return true;
            } catch (StatusRuntimeException e) {
                if (closed && e.getStatus().getCode() == Status.Code.CANCELLED) {
                    return false;
                }
                if (!ErrorMapper.isRetryableElsewhere(e)) {
                    finish();
                    throw ErrorMapper.map(e, currentEndpoint.name(), null);
                }
                lastUnavailable = e;
                // The node that just failed is not tried again for this resumption; the others are.
                if (!tried.contains(currentEndpoint.name())) {
                    tried.add(currentEndpoint.name());
                }
                currentEndpoint.channel().resetConnectBackoff();
                cancelCall();
            }
        }
    }

    private void open(Endpoints.Endpoint ep) {
        ReadChangesRequest.Builder req = ReadChangesRequest.newBuilder().setTable(table);
        if (after != null) {
            req.setAfter(Lcrs.toWire(after));
        }
        if (limit > 0) {
            req.setLimit(limit - delivered);
        }
        ReadChangesRequest request = req.build();
        ChangeStreamServiceGrpc.ChangeStreamServiceBlockingStub stub = ChangeStreamServiceGrpc.newBlockingStub(ep.channel());
        if (deadline != null) {
            stub = stub.withDeadline(deadline);
        }
        context = Context.current().withCancellation();
        Context previous = context.attach();
        try {
            // The call binds to the context current when it starts, so close() can cancel it.
            current = stub.readChanges(request);
        } finally {
            context.detach(previous);
        }
    }

    @Override
    public ChangeRecord next() {
        if (!hasNext()) {
            throw new NoSuchElementException("the change stream of " + table + " has ended");
        }
        ChangeRecord r = next;
        next = null;
        delivered++;
        if (r.position() != null) {
            after = r.position();
        }
        return r;
    }

    /** Stops the stream; a blocked {@link #hasNext()} returns false. Idempotent. */
    @Override
    public void close() {
        closed = true;
        Context.CancellableContext c = context;
        if (c != null) {
            c.cancel(null);
        }
    }

    private void finish() {
        done = true;
        cancelCall();
    }

    private void cancelCall() {
        Context.CancellableContext c = context;
        if (c != null) {
            c.cancel(null);
            context = null;
        }
        current = null;
    }
}
