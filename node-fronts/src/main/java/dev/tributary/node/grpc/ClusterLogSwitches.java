package dev.tributary.node.grpc;

import dev.tributary.node.capture.RedoSegments;
import dev.tributary.node.coord.ClusterCoordinator;
import dev.tributary.node.errors.ErrorCode;
import dev.tributary.node.errors.TributaryException;
import dev.tributary.protocol.v1.ArchiveLogCurrentRequest;
import dev.tributary.protocol.v1.ArchivedLogRef;
import io.grpc.StatusRuntimeException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * ALTER SYSTEM ARCHIVE LOG CURRENT for the whole cluster (Oracle RAC's form): this node archives
 * its own thread's current log and asks every other node of the ring to archive its own over
 * {@code PeerService.ArchiveLogCurrent}, since only the node that writes a thread can seal it.
 * Thread-safe.
 */
public final class ClusterLogSwitches {
    private static final long DEADLINE_SECONDS = 10;

    private final Supplier<ClusterCoordinator.Topology> topology;
    private final String self;
    private final Supplier<RedoSegments.Segment> archiveLocal;
    private final Peers peers;

    /** @param archiveLocal archives this node's current log and returns it */
    public ClusterLogSwitches(Supplier<ClusterCoordinator.Topology> topology, String selfHostId,
            Supplier<RedoSegments.Segment> archiveLocal, Peers peers) {
        this.topology = topology;
        this.self = selfHostId;
        this.archiveLocal = archiveLocal;
        this.peers = peers;
    }

    /** What a node answers for its own thread. */
    public static ArchivedLogRef ref(RedoSegments.Segment s) {
        return ArchivedLogRef.newBuilder().setThread(s.thread()).setSequence(s.sequence()).setNextScn(s.nextScn()).build();
    }

    /**
     * Archives the current log of every node's thread, each node its own.
     *
     * @return the logs archived, this node's first
     * @throws TributaryException UNAVAILABLE naming each node that is down or did not answer, once
     *         every other node has archived its log: a downstream merge waits on those threads
     */
    public List<ArchivedLogRef> archiveAll() {
        List<ArchivedLogRef> out = new ArrayList<>();
        out.add(ref(archiveLocal.get()));
        ClusterCoordinator.Topology t = topology.get();
        List<String> failed = new ArrayList<>();
        for (String host : t.ring().nodes()) {
            if (host.equals(self)) {
                continue;
            }
            String endpoint = t.liveEndpoints().get(host);
            if (endpoint == null) {
                failed.add("node " + host + " is not live");
                continue;
            }
            try {
                out.add(peers.peer(endpoint).withDeadlineAfter(DEADLINE_SECONDS, TimeUnit.SECONDS)
                        .archiveLogCurrent(ArchiveLogCurrentRequest.getDefaultInstance()));
            } catch (StatusRuntimeException e) {
                failed.add("node " + host + " at " + endpoint + " answered " + e.getStatus().getCode() + ": "
                        + e.getStatus().getDescription());
            }
        }
        if (!failed.isEmpty()) {
            throw new TributaryException(ErrorCode.UNAVAILABLE, "ALTER SYSTEM ARCHIVE LOG CURRENT archived " + out.size()
                    + " thread(s) but not every one: " + String.join("; ", failed)
                    + "; a downstream capture waits for those threads until their nodes return");
        }
        return out;
    }
}
