package dev.tributary.node.changes;

import dev.tributary.node.coord.ClusterCoordinator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster's live members as last read from ZooKeeper, with the wall-clock time taken just
 * before that read. A node registers in ZooKeeper before any write can be routed to it, so a
 * node missing from a view read at time T takes its first write after T: its LCRs are above
 * T - max write skew. That is what bounds a safe time by the membership (see {@link SafeTimes}).
 * {@link #refresh()} is called periodically; reads are lock-free. Thread-safe.
 */
public final class MembershipView {
    private static final Logger LOG = LoggerFactory.getLogger(MembershipView.class);

    /** A live member: its host id and the endpoint it serves on. */
    public record Member(String hostId, String endpoint, String state) {
    }

    /** The members as of a read started at {@code readAtMillis}. */
    public record View(long readAtMillis, List<Member> live) {
        public View {
            live = List.copyOf(live);
        }
    }

    private final Callable<List<ClusterCoordinator.Member>> members;
    private final LongSupplier wallMillis;
    private volatile View view;

    public MembershipView(Callable<List<ClusterCoordinator.Member>> members, LongSupplier wallMillis) {
        this.members = members;
        this.wallMillis = wallMillis;
        // until the first read nothing bounds a safe time from above but "now": the node itself
        // is not registered yet, so no write can have reached it
        this.view = new View(wallMillis.getAsLong(), List.of());
    }

    /** Reads the members again; on failure the old view stays, so the safe times stop advancing. */
    public void refresh() {
        long at = wallMillis.getAsLong();
        try {
            List<Member> live = members.call().stream().filter(m -> m.live() && !m.endpoint().isEmpty())
                    .map(m -> new Member(m.hostId(), m.endpoint(), m.state().name())).toList();
            view = new View(at, live);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the node is shutting down
        } catch (Exception e) {
            LOG.warn("could not read the cluster members; safe times hold still until ZooKeeper answers: {}", e.toString());
        }
    }

    public View current() {
        return view;
    }
}
