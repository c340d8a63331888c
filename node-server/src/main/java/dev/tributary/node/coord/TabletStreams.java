package dev.tributary.node.coord;

import dev.tributary.generations.GenerationCodec;
import dev.tributary.generations.TabletMap;
import dev.tributary.generations.TabletStreamHistory;
import dev.tributary.generations.TabletStreamSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.zookeeper.KeeperException;

/**
 * The CDC stream sets of tablet tables (the Scylla seed's "CDC Stream Changes in tablets-based
 * keyspaces"), in ZooKeeper under {@code tablets/<table object number>/<timestamp>}: each set is
 * one stream per tablet, the stream's token the tablet's last token. A split or merge publishes a
 * new set, timestamped a delay ahead so every node switches at the same time. Sets are created
 * under the topology lock, so two nodes never race. Thread-safe; {@link #history} never blocks.
 */
public final class TabletStreams implements AutoCloseable {
    private final CuratorFramework curator;
    private final String path;
    private final TopologyLock lock;
    private final LongSupplier clock;
    private final RandomGenerator random;
    private volatile Map<Long, TabletStreamHistory> histories = Map.of();
    private CuratorCache cache;

    TabletStreams(CuratorFramework curator, String root, TopologyLock lock, LongSupplier clock, RandomGenerator random) {
        this.curator = curator;
        this.path = root + "/tablets";
        this.lock = lock;
        this.clock = clock;
        this.random = random;
    }

    /** Loads the stream sets and follows them; their znode exists once {@link ClusterCoordinator#prepare} made it. */
    synchronized void start() {
        cache = CuratorCache.build(curator, path);
        cache.listenable().addListener((type, oldData, data) -> reload());
        cache.start();
        reload();
    }

    /** The stream sets of a table, if it has any. */
    public Optional<TabletStreamHistory> history(long objectNumber) {
        return Optional.ofNullable(histories.get(objectNumber));
    }

    /**
     * Makes the table's current stream set match {@code tabletCount} tablets: its first set starts
     * at {@code firstMillis} (the table's creation, so writes right after it have streams); a new
     * set after a split or merge starts {@code delayMillis} ahead. Does nothing when the current set
     * already has that many streams.
     */
    public void ensure(long objectNumber, int tabletCount, List<String> nodes, long firstMillis, long delayMillis) {
        lock.run("publish a tablet stream set", () -> {
            reload();
            TabletMap map = TabletMap.create(tabletCount, nodes);
            TabletStreamHistory h = histories.get(objectNumber);
            TabletStreamSet set;
            if (h == null) {
                set = TabletStreamHistory.create(firstMillis, map, random).latest();
            } else if (h.latest().streams().size() == tabletCount) {
                return null;
            } else {
                set = h.next(h.nextTimestamp(clock.getAsLong(), delayMillis), map, random).latest();
            }
            curator.create().creatingParentsIfNeeded().forPath(path + "/" + objectNumber + "/"
                    + String.format("%020d", set.timestampMillis()), GenerationCodec.encode(set));
            reload();
            return null;
        });
    }

    private synchronized void reload() {
        try {
            Map<Long, TabletStreamHistory> next = new HashMap<>();
            for (String table : curator.getChildren().forPath(path)) {
                List<TabletStreamSet> sets = new ArrayList<>();
                for (String ts : curator.getChildren().forPath(path + "/" + table)) {
                    sets.add(GenerationCodec.decodeTabletStreamSet(curator.getData().forPath(path + "/" + table + "/" + ts)));
                }
                if (!sets.isEmpty()) {
                    next.put(Long.parseLong(table), TabletStreamHistory.of(sets));
                }
            }
            histories = Map.copyOf(next);
        } catch (KeeperException.NoNodeException e) {
            // a znode went between list and read: the next event reloads
        } catch (Exception e) {
            org.slf4j.LoggerFactory.getLogger(TabletStreams.class).warn("could not reload tablet stream sets: {}", e.toString());
        }
    }

    @Override
    public synchronized void close() {
        if (cache != null) {
            cache.close();
        }
    }
}
