package dev.tributary.node.coord;

import dev.tributary.generations.errors.PublishConflictException;
import dev.tributary.node.errors.ErrorCode;
import dev.tributary.node.errors.TributaryException;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;

/**
 * The cluster's topology lock ({@code locks/topology}): generations and tablet stream sets are
 * created only while holding it, so two nodes never race to make one. Thread-safe.
 *
 * <p>A lock znode is the session's, and a session whose connection dropped (SUSPENDED) may be
 * expired by now with the lock passed on: a holder whose connection dropped publishes nothing
 * ({@link #requireHeld}) and decides again under the lock taken anew (RELIABILITY C2). The
 * conditional publish on the generations' version stays the backstop for a drop not yet seen.
 */
final class TopologyLock {
    private static final long WAIT_SECONDS = 30;
    /** The lock the current thread holds (the innermost, which links to the one it is nested in). */
    private static final ThreadLocal<Holding> HELD = new ThreadLocal<>();

    /** One holding of a lock: whether the connection dropped since it was taken. */
    private static final class Holding implements ConnectionStateListener {
        final String label;
        final Holding outer;
        volatile ConnectionState dropped;

        Holding(String label, Holding outer) {
            this.label = label;
            this.outer = outer;
        }

        @Override
        public void stateChanged(org.apache.curator.framework.CuratorFramework client, ConnectionState s) {
            if (s == ConnectionState.SUSPENDED || s == ConnectionState.LOST) {
                dropped = s;
            }
        }
    }

    /** What runs under the lock. */
    @FunctionalInterface
    interface Body<T> {
        T run() throws Exception;
    }

    private final CuratorFramework curator;
    private final String path;
    private final String label;

    TopologyLock(CuratorFramework curator, String root) {
        this(curator, root + "/locks/topology", "the topology lock");
    }

    /** Another cluster-wide mutex at {@code path}, for example one consumer group's. */
    TopologyLock(CuratorFramework curator, String path, String label) {
        this.curator = curator;
        this.path = path;
        this.label = label;
    }

    /**
     * Runs {@code body} holding the lock.
     *
     * @throws TributaryException UNAVAILABLE when the lock cannot be had or ZooKeeper fails, naming {@code what}
     * @throws PublishConflictException as the body threw it
     */
    <T> T run(String what, Body<T> body) {
        InterProcessMutex lock = new InterProcessMutex(curator, path);
        try {
            if (!lock.acquire(WAIT_SECONDS, TimeUnit.SECONDS)) {
                throw new TributaryException(ErrorCode.UNAVAILABLE, "could not take " + label + " in ZooKeeper to " + what);
            }
            Holding h = new Holding(label, HELD.get());
            curator.getConnectionStateListenable().addListener(h);
            HELD.set(h);
            try {
                return body.run();
            } finally {
                HELD.set(h.outer);
                curator.getConnectionStateListenable().removeListener(h);
                lock.release();
            }
        } catch (TributaryException | PublishConflictException e) {
            throw e; // a publish that lost to another node is the generation rules' to handle: they decide again
        } catch (Exception e) {
            throw new TributaryException(ErrorCode.UNAVAILABLE, what + " failed in ZooKeeper: " + e, e);
        }
    }

    /**
     * Called before a publish made under the lock: refuses it when the ZooKeeper connection dropped
     * since the current thread took the lock, so the decision is made again under a fresh holding.
     *
     * @throws PublishConflictException when the connection was SUSPENDED or LOST meanwhile
     */
    static void requireHeld(String what) {
        // the innermost holding only: the publish is made under it (an outer one may be another client's)
        Holding h = HELD.get();
        ConnectionState d = h == null ? null : h.dropped;
        if (d != null) {
            throw new PublishConflictException(what + " not published: the ZooKeeper connection was " + d
                    + " while this node held " + h.label + ", which another node may hold by now; deciding again");
        }
    }
}
