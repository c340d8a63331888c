package dev.tributary.node.changes;

import dev.tributary.node.coord.ClusterCoordinator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster's live members as last read from ZooKeeper, and the wall-clock time up to which
 * that read is known to hold. A node registers in ZooKeeper before any write can be routed to it,
 * so a node missing from a view that holds at time T takes its first write after T: its LCRs are
 * above T. That is what bounds a safe time by the membership (see {@link SafeTimes}).
 *
 * <p>A view holds from the time its read began; and while ZooKeeper's watch on the members (armed
 * before the read) has not fired and the session is connected, it holds now: {@link #changed()}
 * ends that, and the view stays at the time of its read until the next {@link #refresh()}. So a
 * safe time follows the clock within milliseconds instead of trailing it by a polling period. What
 * this assumes: a node's first write comes after the other members' watches fired — ZooKeeper
 * delivers them within milliseconds, and a joining node takes seconds from its registration to
 * its first write — and node clocks agree to better than that (HLC, NTP). Reads are lock-free.
 * Thread-safe.
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
    /** Membership changes (or connection changes) seen: a read during which one came does not follow the watch. */
    private final java.util.concurrent.atomic.AtomicLong changes = new java.util.concurrent.atomic.AtomicLong();
    /** Whether the view still holds now: no change since its read. */
    private volatile boolean following;

    public MembershipView(Callable<List<ClusterCoordinator.Member>> members, LongSupplier wallMillis) {
        this.members = members;
        this.wallMillis = wallMillis;
        // until the first read nothing bounds a safe time from above but "now": the node itself
        // is not registered yet, so no write can have reached it
        this.view = new View(wallMillis.getAsLong(), List.of());
    }

    /** Reads the members again; on failure the old view stays, so the safe times stop advancing. */
    public void refresh() {
        long seen = changes.get();
        long at = wallMillis.getAsLong();
        try {
            List<Member> live = members.call().stream().filter(m -> m.live() && !m.endpoint().isEmpty())
                    .map(m -> new Member(m.hostId(), m.endpoint(), m.state().name())).toList();
            view = new View(at, live);
            following = changes.get() == seen;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the node is shutting down
        } catch (Exception e) {
            LOG.warn("could not read the cluster members; safe times hold still until ZooKeeper answers: {}", e.toString());
        }
    }

    /**
     * The members changed, or the ZooKeeper connection did (suspended, lost, back): the view holds
     * only up to its read until the next {@link #refresh()}.
     */
    public void changed() {
        changes.incrementAndGet();
        following = false;
    }

    public View current() {
        View v = view;
        return following ? new View(Math.max(v.readAtMillis(), wallMillis.getAsLong()), v.live()) : v;
    }
}
