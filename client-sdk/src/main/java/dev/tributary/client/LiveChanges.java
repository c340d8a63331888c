package dev.tributary.client;

import dev.tributary.client.internal.Endpoints;
import dev.tributary.client.internal.ErrorMapper;
import dev.tributary.protocol.v1.ChangeStreamServiceGrpc;
import dev.tributary.protocol.v1.Lcr;
import dev.tributary.protocol.v1.LcrBatch;
import dev.tributary.protocol.v1.SubscribeRequest;
import io.grpc.Context;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * A live subscription to a queue or a table's CDC log ({@link ChangeReader#subscribeQueue}): the
 * LCRs enqueued after it started, in enqueue order. The node sends batches only as fast as they
 * are read, so a consumer that stops reading holds the node's sending back (gRPC flow control).
 * The subscription does not resume after a failure: the LCRs are in the log, readable with
 * {@link ChangeReader#read} from the last position seen.
 *
 * <p>Not thread-safe (one consumer), except {@link #close()}, which may be called from any thread
 * and makes a blocked {@link #hasNext()} return false.
 */
public final class LiveChanges implements Iterator<ChangeRecord>, AutoCloseable {
    private final Context.CancellableContext context = Context.current().withCancellation();
    private final Endpoints.Endpoint endpoint;
    private final Iterator<LcrBatch> batches;
    private Iterator<Lcr> batch = java.util.Collections.emptyIterator();
    private volatile boolean closed;
    private ChangeRecord next;

    LiveChanges(Endpoints endpoints, SubscribeRequest request) {
        endpoint = endpoints.inFailoverOrder().get(0);
        Context previous = context.attach();
        try {
            batches = ChangeStreamServiceGrpc.newBlockingStub(endpoint.channel()).subscribe(request);
        } finally {
            context.detach(previous);
        }
    }

    /** Blocks until an LCR arrives, the subscription is closed, or it fails. */
    @Override
    public boolean hasNext() {
        if (next != null) {
            return true;
        }
        if (closed) {
            return false;
        }
        try {
            while (!batch.hasNext()) {
                if (!batches.hasNext()) {
                    return false;
                }
                batch = batches.next().getLcrsList().iterator();
            }
            next = Lcrs.toRecord(batch.next());
            return true;
        } catch (StatusRuntimeException e) {
            if (closed && e.getStatus().getCode() == Status.Code.CANCELLED) {
                return false;
            }
            throw ErrorMapper.map(e, endpoint.name(), null);
        }
    }

    @Override
    public ChangeRecord next() {
        if (!hasNext()) {
            throw new NoSuchElementException("the subscription has ended");
        }
        ChangeRecord r = next;
        next = null;
        return r;
    }

    /** Ends the subscription; idempotent. */
    @Override
    public void close() {
        closed = true;
        context.cancel(null);
    }
}
