package dev.tributary.node.coord;

import dev.tributary.generations.GenerationCodec;
import dev.tributary.generations.TabletMap;
import dev.tributary.generations.TabletStreamHistory;
import dev.tributary.generations.TabletStreamRules;
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
 * under the topology lock, so two nodes never race, and published conditionally on the newest set
 * the decision read ({@link ConditionalPublish}), so a node deposed mid-decision publishes nothing.
 * Thread-safe; {@link #history} never blocks.
 *
 * <p>Each table's tablet map — the replica node of each tablet, which is where its rows are
 * written and captured — is under {@code tablet-maps/<table object number>}. A split keeps each
 * half on its tablet's replica and a merge keeps the left one's; {@link #rebalance} moves tablets
 * so every live node holds its share. Moving a tablet changes where its data lives, never its
 * streams: the stream sets are untouched.
 */
public final class TabletStreams implements AutoCloseable {
    private final CuratorFramework curator;
    private final String path;
    private final TopologyLock lock;
    private final LongSupplier clock;
    private final RandomGenerator random;
    private volatile Map<Long, TabletStreamHistory> histories = Map.of();
    private volatile Map<Long, TabletMap> maps = Map.of();
    private final String mapsPath;
    private final List<Runnable> listeners = new java.util.concurrent.CopyOnWriteArrayList<>();
    private CuratorCache cache;
    private CuratorCache mapsCache;

    TabletStreams(CuratorFramework curator, String root, TopologyLock lock, LongSupplier clock, RandomGenerator random) {
        this.curator = curator;
        this.path = root + "/tablets";
        this.mapsPath = root + "/tablet-maps";
        this.lock = lock;
        this.clock = clock;
        this.random = random;
    }

    /** Loads the stream sets and follows them; their znode exists once {@link ClusterCoordinator#prepare} made it. */
    synchronized void start() {
        cache = CuratorCache.build(curator, path);
        cache.listenable().addListener((type, oldData, data) -> reload());
        cache.start();
        mapsCache = CuratorCache.build(curator, mapsPath);
        mapsCache.listenable().addListener((type, oldData, data) -> reload());
        mapsCache.start();
        reload();
    }

    /** Runs {@code listener} after every change of the stream sets or tablet maps (on a Curator thread: keep it short). */
    public void onChange(Runnable listener) {
        listeners.add(listener);
    }

    /** Every tablet table's tablet map, by object number. */
    public Map<Long, TabletMap> maps() {
        return maps;
    }

    /** The table's tablet map (its replicas), if it is a tablet table. */
    public Optional<TabletMap> map(long objectNumber) {
        return Optional.ofNullable(maps.get(objectNumber));
    }

    /**
     * Spreads every tablet table's tablets evenly over {@code nodes} (the live nodes that hold
     * data), moving as few as it can; under the topology lock.
     *
     * @return how many tablets changed replica
     */
    public int rebalance(List<String> nodes) {
        return lock.run("rebalance tablets", () -> {
            reload();
            int moved = 0;
            for (Map.Entry<Long, TabletMap> e : maps.entrySet()) {
                TabletMap next = e.getValue().balancedOver(nodes);
                for (int i = 0; i < next.tabletCount(); i++) {
                    moved += next.replica(i).equals(e.getValue().replica(i)) ? 0 : 1;
                }
                if (!next.equals(e.getValue())) {
                    writeMap(e.getKey(), next);
                }
            }
            reload();
            return moved;
        });
    }

    private void writeMap(long objectNumber, TabletMap map) throws Exception {
        byte[] data = String.join(",", map.replicas()).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        String p = mapsPath + "/" + objectNumber;
        if (curator.checkExists().forPath(p) == null) {
            curator.create().creatingParentsIfNeeded().forPath(p, data);
        } else {
            curator.setData().forPath(p, data);
        }
    }

    /** When the newest stream set of any tablet table starts, in epoch millis; 0 without tablet tables. */
    public long newestSetMillis() {
        return histories.values().stream().mapToLong(h -> h.latest().timestampMillis()).max().orElse(0);
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
        // another node may publish a set after this one read them (this one lost the lock with its session): decide again
        dev.tributary.generations.GenerationRules.againOnConflict(() -> lock.run("publish a tablet stream set", () -> {
            reload();
            TabletStreamRules.Decision d = TabletStreamRules.decide(Optional.ofNullable(maps.get(objectNumber)),
                    Optional.ofNullable(histories.get(objectNumber)), tabletCount, nodes, firstMillis, clock.getAsLong(),
                    delayMillis, random);
            if (d.map().isPresent()) {
                writeMap(objectNumber, d.map().get());
            }
            if (d.set().isPresent()) {
                TabletStreamSet set = d.set().get();
                ConditionalPublish.publish(curator, path + "/" + objectNumber, set.timestampMillis(), GenerationCodec.encode(set),
                        d.after());
            }
            reload();
            return null;
        }));
    }

    /** Reads the stream sets and maps from ZooKeeper now, after a sync, instead of waiting for the watch. */
    public void refresh() {
        try {
            ZkSync.sync(curator, mapsPath);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            org.slf4j.LoggerFactory.getLogger(TabletStreams.class).warn("could not sync with ZooKeeper: {}", e.toString());
        }
        reload();
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
            Map<Long, TabletMap> nextMaps = new HashMap<>();
            if (curator.checkExists().forPath(mapsPath) != null) {
                for (String table : curator.getChildren().forPath(mapsPath)) {
                    String data = new String(curator.getData().forPath(mapsPath + "/" + table),
                            java.nio.charset.StandardCharsets.UTF_8);
                    nextMaps.put(Long.parseLong(table), new TabletMap(List.of(data.split(","))));
                }
            }
            histories = Map.copyOf(next);
            maps = Map.copyOf(nextMaps);
            listeners.forEach(Runnable::run);
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
        if (mapsCache != null) {
            mapsCache.close();
        }
    }
}
