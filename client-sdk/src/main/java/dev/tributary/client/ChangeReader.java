package dev.tributary.client;

import dev.tributary.client.errors.TributaryException;
import dev.tributary.client.internal.Endpoints;
import dev.tributary.protocol.v1.ChangeStreamServiceGrpc;
import dev.tributary.protocol.v1.Generation;
import dev.tributary.protocol.v1.ListGenerationsRequest;
import dev.tributary.protocol.v1.ListGenerationsResponse;
import dev.tributary.protocol.v1.SubscribeRequest;
import io.grpc.Deadline;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Reads captured changes (LCRs) of a table's CDC log or of a queue, in (stream, time,
 * batch_seq_no) order, and the cluster's CDC stream generations. Thread-safe; every method
 * throws a {@link TributaryException} subclass for a refused or failed request (an unknown
 * table is {@code NotFoundException}).
 */
public final class ChangeReader {
    private final Endpoints endpoints;

    ChangeReader(Endpoints endpoints) {
        this.endpoints = endpoints;
    }

    /**
     * Reads up to {@code limit} LCRs after a position, within the request timeout.
     *
     * @param table "ks.t" for a table's CDC log
     * @param after exclusive start; null reads from the beginning of the log
     * @param limit the most LCRs to return; 0 or less reads to the end of the log
     */
    public List<ChangeRecord> read(String table, LcrPosition after, int limit) {
        Deadline deadline = Deadline.after(endpoints.requestTimeout().toNanos(), TimeUnit.NANOSECONDS);
        List<ChangeRecord> out = new ArrayList<>();
        try (ChangeStream s = new ChangeStream(endpoints, checkTable(table), after, limit, deadline)) {
            while (s.hasNext()) {
                out.add(s.next());
            }
        }
        return out;
    }

    /**
     * Streams LCRs after a position as they are read, with no deadline; close the stream when
     * leaving it early.
     *
     * @param table "ks.t" for a table's CDC log
     * @param after exclusive start; null reads from the beginning of the log
     * @param limit the most LCRs to return; 0 or less reads to the end of the log
     */
    public ChangeStream stream(String table, LcrPosition after, int limit) {
        return new ChangeStream(endpoints, checkTable(table), after, limit, null);
    }

    /**
     * The LCRs enqueued into a capture's queue from now on, live. The node sends only as fast as
     * the returned iterator is read: a consumer that stops reading pauses the captures feeding the
     * queue (PAUSED FOR FLOW CONTROL) rather than filling the node's memory. Close it when done.
     */
    public LiveChanges subscribeQueue(String queue) {
        Objects.requireNonNull(queue, "queue");
        return new LiveChanges(endpoints, SubscribeRequest.newBuilder().setQueue(queue).build());
    }

    /** As {@link #subscribeQueue}, for the CDC log of a table ("ks.t"). */
    public LiveChanges subscribeTable(String table) {
        return new LiveChanges(endpoints, SubscribeRequest.newBuilder().setTable(checkTable(table)).build());
    }

    /** The CDC stream generations of the cluster (vnode keyspaces), newest first. */
    public List<GenerationInfo> generations() {
        ListGenerationsResponse response = endpoints.call(ep -> ChangeStreamServiceGrpc.newBlockingStub(ep.channel())
                .withDeadlineAfter(endpoints.requestTimeout().toNanos(), TimeUnit.NANOSECONDS)
                .listGenerations(ListGenerationsRequest.getDefaultInstance()), null);
        List<GenerationInfo> out = new ArrayList<>(response.getGenerationsCount());
        for (Generation g : response.getGenerationsList()) {
            out.add(Lcrs.toGeneration(g));
        }
        return List.copyOf(out);
    }

    /** A node a table snapshot can be read from: its host id and gRPC endpoint (empty while it is not live). */
    public record SnapshotNode(String hostId, String endpoint, boolean live) {
    }

    /**
     * The nodes of the cluster as a table's stream listing has them (ListStreams): a snapshot of
     * the table is the rows of every live node, each read with {@link #readSnapshot}. A node
     * listed but not live holds rows no other node serves until it is back (or its instance runs
     * on a replica, under a new endpoint).
     */
    public java.util.List<SnapshotNode> snapshotNodes(String table) {
        dev.tributary.protocol.v1.ListStreamsRequest req = dev.tributary.protocol.v1.ListStreamsRequest.newBuilder()
                .setTable(checkTable(table)).build();
        dev.tributary.protocol.v1.ListStreamsResponse response = endpoints.call(ep -> ChangeStreamServiceGrpc
                .newBlockingStub(ep.channel()).withDeadlineAfter(endpoints.requestTimeout().toNanos(), TimeUnit.NANOSECONDS)
                .listStreams(req), null);
        List<SnapshotNode> out = new ArrayList<>();
        for (dev.tributary.protocol.v1.NodeInfo n : response.getNodesList()) {
            out.add(new SnapshotNode(n.getHostId(), n.getEndpoint(), n.getLive() && !n.getEndpoint().isEmpty()));
        }
        return List.copyOf(out);
    }

    /**
     * Reads one node's rows of a table as of one SCN of that node (ReadTableSnapshot), with no
     * deadline; close the read when leaving it early.
     *
     * @param table      "ks.t", a table with cdc enabled
     * @param endpoint   the node's {@code host:port}, from {@link #snapshotNodes}
     * @param afterToken only the rows with a token above it (going on with an interrupted read); empty for all
     * @param maxRows    rows per message, 1 to 4096 (a message keeps one token's rows together)
     */
    public TableSnapshotRead readSnapshot(String table, String endpoint, java.util.OptionalLong afterToken, int maxRows) {
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(afterToken, "afterToken");
        if (maxRows < 1 || maxRows > 4096) {
            throw new IllegalArgumentException("maxRows must be 1 to 4096, got " + maxRows);
        }
        Endpoints.Endpoint node = endpoints.discovered(endpoint);
        if (node == null) {
            throw new IllegalStateException("no channel to " + endpoint + ": the client is closed or was given fixed channels");
        }
        return new TableSnapshotRead(node, checkTable(table), afterToken, maxRows);
    }

    private static String checkTable(String table) {
        Objects.requireNonNull(table, "table");
        if (table.isBlank()) {
            throw new IllegalArgumentException("a table name ks.t is needed");
        }
        return table;
    }
}
