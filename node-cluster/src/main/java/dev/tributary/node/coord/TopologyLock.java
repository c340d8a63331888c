package dev.tributary.node.coord;

import dev.tributary.generations.errors.PublishConflictException;
import dev.tributary.node.errors.ErrorCode;
import dev.tributary.node.errors.TributaryException;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;

/**
 * The cluster's topology lock ({@code locks/topology}): generations and tablet stream sets are
 * created only while holding it, so two nodes never race to make one. Thread-safe.
 */
final class TopologyLock {
    private static final long WAIT_SECONDS = 30;

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
            try {
                return body.run();
            } finally {
                lock.release();
            }
        } catch (TributaryException | PublishConflictException e) {
            throw e; // a publish that lost to another node is the generation rules' to handle: they decide again
        } catch (Exception e) {
            throw new TributaryException(ErrorCode.UNAVAILABLE, what + " failed in ZooKeeper: " + e, e);
        }
    }
}
