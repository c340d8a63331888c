package dev.tributary.node.coord;

import dev.tributary.generations.Generation;
import dev.tributary.generations.GenerationCodec;
import dev.tributary.generations.GenerationHistory;
import dev.tributary.generations.GenerationPublisher;
import dev.tributary.generations.GenerationRules;
import dev.tributary.generations.TokenRing;
import dev.tributary.generations.errors.PublishConflictException;
import dev.tributary.node.errors.ErrorCode;
import dev.tributary.node.errors.TributaryException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The CDC generations in ZooKeeper, {@code generations/<timestamp>}: the port the pure
 * {@link GenerationRules} decide through (read the published history and the ring, publish a
 * generation only right after the one it follows, under the topology lock), and this node's copy
 * of the history, kept current by a watch. Thread-safe; {@link #current()} never blocks.
 */
final class ZooKeeperGenerations implements GenerationPublisher, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ZooKeeperGenerations.class);

    private final CuratorFramework curator;
    private final String path;
    private final String hostId;
    private final TopologyLock topologyLock;
    private final Callable<TokenRing> ring;
    private final LongSupplier clock;
    private final RandomGenerator random;
    private volatile CuratorCache cache;
    private volatile GenerationHistory history = GenerationHistory.empty();

    /** Runs inside the topology lock just before a generation is published (a test expires the session there). */
    volatile Runnable beforePublish = () -> { };

    /** @param ring the ring generations are made over: every member's tokens but a leaving node's */
    ZooKeeperGenerations(CuratorFramework curator, String root, String hostId, TopologyLock topologyLock,
            Callable<TokenRing> ring, LongSupplier clock, RandomGenerator random) {
        this.curator = curator;
        this.path = root + "/generations";
        this.hostId = hostId;
        this.topologyLock = topologyLock;
        this.ring = ring;
        this.clock = clock;
        this.random = random;
    }

    /**
     * Starts the watch and, under the rules, makes the cluster's first generation or one that
     * covers this node's {@code tokens} (each a ring delay ahead). When this returns the node
     * knows every generation. Not under this object's lock: the rules wait for the topology lock,
     * whose watch events come through the same Curator thread as the cache's, which reloads under it.
     */
    void start(Collection<Long> tokens, Duration ringDelay) throws Exception {
        cache = CuratorCache.build(curator, path);
        cache.listenable().addListener((type, oldData, data) -> reload());
        cache.start();
        reload();
        rules(ringDelay).ensureFirst().ifPresent(g -> LOG.info("created the first CDC generation: timestamp {} with {} streams",
                Instant.ofEpochMilli(g.timestampMillis()), g.streams().size()));
        rules(ringDelay).ensureCovers(tokens).ifPresent(g -> LOG.info("node {} joined: created CDC generation {} with {} streams",
                hostId, Instant.ofEpochMilli(g.timestampMillis()), g.streams().size()));
    }

    /** A new generation over the current ring, a ring delay ahead (check_and_repair_cdc_streams); its timestamp. */
    long renew(Duration ringDelay) {
        Generation g = rules(ringDelay).renew("create a CDC generation on request");
        LOG.info("check_and_repair_cdc_streams: created CDC generation {}", Instant.ofEpochMilli(g.timestampMillis()));
        return g.timestampMillis();
    }

    private GenerationRules rules(Duration ringDelay) {
        return new GenerationRules(this, clock, random, ringDelay.toMillis());
    }

    /** The history as the watch last saw it. */
    GenerationHistory current() {
        return history;
    }

    /**
     * The generations as ZooKeeper has them now: a read on one node right after another node
     * published a generation (check_and_repair_cdc_streams, a join) sees it, rather than waiting
     * for this node's watch. A sync first, so the read is not behind the publisher's write; the
     * generations are decoded again only when the listing changed.
     */
    GenerationHistory now() {
        try {
            ZkSync.sync(curator, path);
            if (curator.getChildren().forPath(path).size() != history.size()) {
                reload();
            }
            return history;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TributaryException(ErrorCode.UNAVAILABLE, "interrupted while reading the CDC generations");
        } catch (Exception e) {
            throw new TributaryException(ErrorCode.UNAVAILABLE, "could not read the CDC generations from ZooKeeper: " + e, e);
        }
    }

    @Override
    public GenerationHistory published() {
        try {
            return read();
        } catch (Exception e) {
            throw new TributaryException(ErrorCode.UNAVAILABLE, "could not read the CDC generations from ZooKeeper: " + e, e);
        }
    }

    @Override
    public TokenRing ring() {
        try {
            return ring.call();
        } catch (Exception e) {
            throw new TributaryException(ErrorCode.UNAVAILABLE, "could not read the token ring from ZooKeeper: " + e, e);
        }
    }

    @Override
    public void publish(Generation g, Optional<Generation> after) {
        beforePublish.run();
        try {
            ConditionalPublish.publish(curator, path, g.timestampMillis(), GenerationCodec.encode(g),
                    after.map(a -> OptionalLong.of(a.timestampMillis())).orElse(OptionalLong.empty()));
        } catch (PublishConflictException e) {
            LOG.warn("node {} did not publish CDC generation {}: {}", hostId, Instant.ofEpochMilli(g.timestampMillis()),
                    e.getMessage());
            throw e;
        } catch (Exception e) {
            throw new TributaryException(ErrorCode.UNAVAILABLE, "could not publish a CDC generation in ZooKeeper: " + e, e);
        }
        reload();
    }

    @Override
    public <T> T underTopologyLock(String what, Supplier<T> body) {
        return topologyLock.run(what, body::get);
    }

    private synchronized void reload() {
        try {
            history = read();
        } catch (KeeperException.NoNodeException e) {
            // a generation znode vanished between list and read: the next event reloads
        } catch (Exception e) {
            LOG.warn("could not reload CDC generations from ZooKeeper: {}", e.toString());
        }
    }

    private GenerationHistory read() throws Exception {
        List<Generation> gens = new ArrayList<>();
        for (String child : curator.getChildren().forPath(path)) {
            gens.add(GenerationCodec.decodeGeneration(curator.getData().forPath(path + "/" + child)));
        }
        gens.sort(Comparator.comparingLong(Generation::timestampMillis));
        return GenerationHistory.of(gens);
    }

    @Override
    public void close() {
        CuratorCache c = cache;
        if (c != null) {
            c.close();
        }
    }
}
