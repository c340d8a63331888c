package dev.tributary.node.grpc;

import dev.tributary.capture.RedoSource;
import dev.tributary.capture.RedoThread;
import dev.tributary.capture.redo.RedoCodec;
import dev.tributary.capture.redo.RedoEntry;
import dev.tributary.dictionary.io.CorruptRecordException;
import dev.tributary.node.coord.ClusterCoordinator;
import dev.tributary.protocol.v1.ReadRedoRequest;
import dev.tributary.protocol.v1.RedoBatch;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The redo threads a capture process of this cluster merges (CAP-RAC-1): one per instance in
 * the ring, this node's read in process and every other read over {@code PeerService.ReadRedo}
 * from the node running that instance now. A thread whose node is not live, or does not answer,
 * is unavailable: the merge waits for it. Thread-safe.
 */
public final class ClusterRedoThreads implements Supplier<Map<String, RedoThread>> {
    private static final long READ_DEADLINE_SECONDS = 10;

    private final Supplier<ClusterCoordinator.Topology> topology;
    private final String self;
    private final RedoThread local;
    private final Peers peers;
    private final Map<String, RedoThread> remote = new ConcurrentHashMap<>();

    public ClusterRedoThreads(Supplier<ClusterCoordinator.Topology> topology, String selfHostId, RedoSource local, Peers peers) {
        this.topology = topology;
        this.self = selfHostId;
        this.local = RedoThread.of(local);
        this.peers = peers;
    }

    /** The threads by "node HOST-ID": every instance in the ring, and this one. */
    @Override
    public Map<String, RedoThread> get() {
        Map<String, RedoThread> out = new TreeMap<>();
        out.put("node " + self, local);
        for (String host : topology.get().ring().nodes()) {
            if (!host.equals(self)) {
                out.put("node " + host, remote.computeIfAbsent(host, this::remoteThread));
            }
        }
        return out;
    }

    private RedoThread remoteThread(String host) {
        return (afterScn, max) -> {
            String endpoint = topology.get().liveEndpoints().get(host);
            if (endpoint == null) {
                throw new RedoThread.ThreadUnavailableException("the node is not live", null);
            }
            RedoBatch b;
            try {
                b = peers.peer(endpoint).withDeadlineAfter(READ_DEADLINE_SECONDS, TimeUnit.SECONDS)
                        .readRedo(ReadRedoRequest.newBuilder().setHostId(host).setAfterScn(afterScn).setMaxEntries(max).build());
            } catch (StatusRuntimeException e) {
                if (e.getStatus().getCode() == Status.Code.DATA_LOSS) {
                    throw new CorruptRecordException("the redo thread of node " + host + " at " + endpoint + ": "
                            + e.getStatus().getDescription());
                }
                throw new RedoThread.ThreadUnavailableException(endpoint + " answered " + e.getStatus(), e);
            }
            List<RedoEntry> entries = new ArrayList<>(b.getEntriesCount());
            for (com.google.protobuf.ByteString bytes : b.getEntriesList()) {
                entries.add(RedoCodec.decode(bytes.toByteArray()));
            }
            return new RedoThread.Batch(entries, b.getCompleteThrough());
        };
    }
}
