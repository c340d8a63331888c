package dev.tributary.node.coord;

import dev.tributary.node.errors.ErrorCode;
import dev.tributary.node.errors.TributaryException;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;

/**
 * The cluster's schema changes, in one order for every node: persistent sequential znodes
 * {@code schema/ddl-NNNNNNNNNN} under the cluster's root. Each node applies them in sequence
 * order to its own dictionary (a replicated state machine: the same changes in the same order give
 * every node the same dictionary, object numbers included), so a DDL statement can run on any
 * node. Thread-safe.
 */
public final class SchemaLog implements AutoCloseable {
    private static final String PREFIX = "ddl-";

    /** One schema change: its place in the log and its bytes. */
    public record Entry(long sequence, byte[] data) {
    }

    private final CuratorFramework curator;
    private final String path;
    private CuratorCache cache;

    SchemaLog(CuratorFramework curator, String root) {
        this.curator = curator;
        this.path = root + "/schema";
    }

    /**
     * Starts calling {@code onChange} (on a ZooKeeper thread) whenever a change is appended; the
     * log's znode exists once {@link ClusterCoordinator#prepare} has run.
     */
    public synchronized void watch(Runnable onChange) {
        cache = CuratorCache.build(curator, path);
        cache.listenable().addListener((type, oldData, data) -> onChange.run());
        cache.start();
    }

    /** Appends a change; returns its sequence number. */
    public long append(byte[] data) {
        try {
            String created = curator.create().creatingParentsIfNeeded().withMode(CreateMode.PERSISTENT_SEQUENTIAL)
                    .forPath(path + "/" + PREFIX, data);
            return sequenceOf(created.substring(created.lastIndexOf('/') + 1));
        } catch (Exception e) {
            throw unavailable("append to the schema log", e);
        }
    }

    /** ZooKeeper's sync on the log: a read after it sees every change appended (by any node) before it. */
    public void sync() {
        try {
            ZkSync.sync(curator, path);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TributaryException(ErrorCode.UNAVAILABLE, "interrupted while syncing the schema log");
        } catch (Exception e) {
            throw unavailable("sync the schema log", e);
        }
    }

    /** The changes after {@code sequence}, in order. */
    public List<Entry> after(long sequence) {
        try {
            List<String> names = new ArrayList<>();
            try {
                names.addAll(curator.getChildren().forPath(path));
            } catch (KeeperException.NoNodeException e) {
                return List.of();
            }
            names.sort(null); // zero-padded: name order is sequence order
            List<Entry> out = new ArrayList<>();
            for (String n : names) {
                long seq = sequenceOf(n);
                if (seq > sequence) {
                    out.add(new Entry(seq, curator.getData().forPath(path + "/" + n)));
                }
            }
            return out;
        } catch (Exception e) {
            throw unavailable("read the schema log", e);
        }
    }

    private static long sequenceOf(String name) {
        if (!name.startsWith(PREFIX)) {
            throw new IllegalStateException("unexpected znode in the schema log: " + name);
        }
        return Long.parseLong(name.substring(PREFIX.length()));
    }

    private static TributaryException unavailable(String what, Exception e) {
        return new TributaryException(ErrorCode.UNAVAILABLE, "could not " + what + " in ZooKeeper: " + e, e);
    }

    @Override
    public synchronized void close() {
        if (cache != null) {
            cache.close();
        }
    }
}
