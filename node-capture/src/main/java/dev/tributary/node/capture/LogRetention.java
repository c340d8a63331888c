package dev.tributary.node.capture;

import dev.tributary.dictionary.MultiversionDictionary;
import dev.tributary.dictionary.schema.TableDef;
import dev.tributary.node.coord.ConsumerGroups;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * How long log entries are kept. An entry of a table's CDC log goes once the table's CDC
 * {@code ttl} has expired it (ttl 0: never), or once every consumer group registered on the log
 * has passed it (its low watermark is above the entry's time), whichever comes first — so the ttl
 * wins over a group that has fallen behind, as a topic's retention does. An entry of a queue goes
 * once every group on the queue has passed it. A log no group reads and without a ttl keeps
 * everything. Thread-safe; {@link #run} is called periodically.
 */
public final class LogRetention {
    private final MultiversionDictionary dictionary;
    private final RocksDbCdcLog log;
    private final Supplier<Map<String, Long>> queues;
    private final Supplier<List<ConsumerGroups.GroupState>> groups;
    private final LongSupplier nowMicros;

    public LogRetention(MultiversionDictionary dictionary, RocksDbCdcLog log, Supplier<Map<String, Long>> queues,
            Supplier<List<ConsumerGroups.GroupState>> groups, LongSupplier nowMicros) {
        this.dictionary = dictionary;
        this.log = log;
        this.queues = queues;
        this.groups = groups;
        this.nowMicros = nowMicros;
    }

    /** Deletes what no one keeps; returns how many streams lost entries. */
    public int run() {
        List<ConsumerGroups.GroupState> all = groups.get();
        int purged = 0;
        for (TableDef t : dictionary.latest().tables()) {
            if (!t.options().cdc().enabled()) {
                continue;
            }
            int ttl = t.options().cdc().ttlSeconds();
            long cutoff = ttl > 0 ? nowMicros.getAsLong() - ttl * 1_000_000L : 0;
            cutoff = Math.max(cutoff, passedByEveryGroup(all, false, t.qualifiedName()));
            if (cutoff > 0) {
                purged += log.purgeBefore(t.objectNumber(), cutoff);
            }
        }
        for (Map.Entry<String, Long> q : queues.get().entrySet()) {
            long cutoff = passedByEveryGroup(all, true, q.getKey());
            if (cutoff > 0) {
                purged += log.purgeBefore(q.getValue(), cutoff);
            }
        }
        return purged;
    }

    /** The lowest low watermark of the groups on a log; 0 when none reads it or one has passed nothing. */
    public static long passedByEveryGroup(List<ConsumerGroups.GroupState> all, boolean queue, String name) {
        long low = Long.MAX_VALUE;
        for (ConsumerGroups.GroupState g : all) {
            if (g.log().queue() == queue && g.log().name().equals(name)) {
                low = Math.min(low, g.lowWatermarkMicros());
            }
        }
        return low == Long.MAX_VALUE ? 0 : low;
    }
}
