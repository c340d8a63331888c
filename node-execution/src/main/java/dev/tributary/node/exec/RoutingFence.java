package dev.tributary.node.exec;

import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;

/**
 * Orders routing decisions against a change of the ring. A write decides where it runs and, when
 * it runs here, commits, all inside {@link #route}; {@link #barrier()} returns once every write
 * that decided with an older ring has committed. A node asked for the rows of a joining node's
 * ranges first sees the joiner in its ring, then passes the barrier, then reads its rows: a write
 * it accepted before is in what it sends, a write after is forwarded to the joiner, so a write
 * racing the join is never left behind on the old owner. Thread-safe.
 */
public final class RoutingFence {
    // non-fair: readers do not overtake a waiting barrier, so a join is not starved by a write load
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();

    /** Runs a write's routing decision and its local commit as one step against ring changes. */
    public <T> T route(Supplier<T> write) {
        lock.readLock().lock();
        try {
            return write.get();
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Waits until every write that routed before this call has committed or left. */
    public void barrier() {
        lock.writeLock().lock();
        lock.writeLock().unlock();
    }
}
