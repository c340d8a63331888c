package dev.tributary.node;

import dev.tributary.generations.TabletMap;
import dev.tributary.node.coord.TabletStreams;
import dev.tributary.node.grpc.Peers;
import dev.tributary.node.write.CommitPipeline;
import dev.tributary.protocol.v1.TokenRange;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves tablet data to this node when it becomes a tablet's replica: after a rebalance (a node
 * joined or is leaving), after a merge whose left half lives here, and at start (rows written
 * elsewhere while this node was down). On every change of the tablet maps it pulls, from every
 * other live node, the rows of the token ranges it now holds and did not before. Streams never
 * move: the CDC log entries of a tablet stay where they were captured. One thread; a failed pull
 * is retried a second later.
 */
final class TabletMover implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TabletMover.class);

    /** The inclusive token range of a tablet. */
    private record Span(long first, long last) {
        boolean covers(Span o) {
            return first <= o.first && o.last <= last;
        }
    }

    private final String self;
    private final TabletStreams tablets;
    private final Peers peers;
    private final CommitPipeline pipeline;
    private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "tributary-tablet-mover");
        t.setDaemon(true);
        return t;
    });
    /** Per table, the spans whose rows are here; touched by the executor thread only. */
    private final Map<Long, List<Span>> held = new HashMap<>();

    TabletMover(String self, TabletStreams tablets, Peers peers, CommitPipeline pipeline) {
        this.self = self;
        this.tablets = tablets;
        this.peers = peers;
        this.pipeline = pipeline;
    }

    void start() {
        tablets.onChange(() -> executor.execute(this::reconcile));
        executor.execute(this::reconcile);
    }

    private void reconcile() {
        for (Map.Entry<Long, TabletMap> e : tablets.maps().entrySet()) {
            long table = e.getKey();
            TabletMap map = e.getValue();
            List<Span> mine = new ArrayList<>();
            List<TokenRange> fresh = new ArrayList<>();
            List<Span> before = held.getOrDefault(table, List.of());
            for (int i = 0; i < map.tabletCount(); i++) {
                if (!map.replica(i).equals(self)) {
                    continue;
                }
                Span span = new Span(map.firstToken(i), map.lastToken(i));
                mine.add(span);
                if (before.stream().noneMatch(k -> k.covers(span))) {
                    // (first - 1, last]: for the first tablet that wraps to "every token up to last"
                    fresh.add(TokenRange.newBuilder().setStart(span.first() - 1).setEnd(span.last()).build());
                }
            }
            try {
                long moved = peers.pullTablets(pipeline, table, fresh);
                if (moved > 0) {
                    LOG.info("tablet move: {} rows of table {} moved here", moved, table);
                }
                held.put(table, mine);
            } catch (RuntimeException ex) {
                LOG.warn("pulling the rows of the tablets of table {} failed; retrying: {}", table, ex.toString());
                executor.schedule(this::reconcile, 1, TimeUnit.SECONDS);
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        executor.shutdownNow();
        executor.awaitTermination(10, TimeUnit.SECONDS);
    }
}
