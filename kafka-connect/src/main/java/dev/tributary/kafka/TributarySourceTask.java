package dev.tributary.kafka;

import dev.tributary.client.ChangeConsumer;
import dev.tributary.client.ChangeRecord;
import dev.tributary.client.LcrPosition;
import dev.tributary.client.PositionStore;
import dev.tributary.client.StartPosition;
import dev.tributary.client.StreamDescriptor;
import dev.tributary.client.TributaryClient;
import dev.tributary.kafka.internal.ChangeEvents;
import dev.tributary.kafka.internal.Clients;
import dev.tributary.kafka.internal.CqlTableDefinitions;
import dev.tributary.kafka.internal.Offsets;
import dev.tributary.kafka.internal.RingShare;
import dev.tributary.kafka.internal.TaskPositions;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads its share of each table's CDC streams ({@link RingShare}) with the SDK's
 * {@link ChangeConsumer} — every node, merged below the safe time, a child stream after its
 * parents — and hands the worker one change event per row LCR. A bounded queue sits between the
 * consumer's worker thread and {@link #poll}: when the worker falls behind, the handler blocks and
 * the consumer stops reading. Each record's source offset is its LCR's position, so a restarted
 * task resumes after what was committed.
 */
public final class TributarySourceTask extends SourceTask {
    static final String TASK_INDEX = "tributary.task.index";
    static final String TASK_COUNT = "tributary.task.count";
    private static final Logger LOG = LoggerFactory.getLogger(TributarySourceTask.class);

    private TributaryConnectorConfig config;
    private TributaryClient client;
    /** Written by start and stop, read by poll on the worker's task thread. */
    private final List<ChangeConsumer> consumers = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** The records of one LCR stay together (an event and its tombstone), so a poll never splits them. */
    private BlockingQueue<List<SourceRecord>> queue;
    /**
     * Per stream of a log ({@link #key}), the last LCR handed on in this run: a delete event's offset
     * stays there (see {@link #handle}). Keyed by log too: two vnode tables share their stream ids.
     */
    private final Map<String, LcrPosition> lastHanded = new ConcurrentHashMap<>();
    private volatile boolean stopping;
    /** The streams offered to this task, by {@link #key}: their set timestamp (the event's generation) and closing. */
    private final Map<String, StreamDescriptor> streams = new ConcurrentHashMap<>();
    private final Set<String> doneMarked = ConcurrentHashMap.newKeySet();
    private final Map<String, PositionStore> positions = new ConcurrentHashMap<>();

    @Override
    public String version() {
        return TributarySourceConnector.VERSION;
    }

    @Override
    public void start(Map<String, String> props) {
        config = new TributaryConnectorConfig(props);
        RingShare share = new RingShare(Integer.parseInt(props.getOrDefault(TASK_INDEX, "0")),
                Integer.parseInt(props.getOrDefault(TASK_COUNT, "1")));
        queue = new ArrayBlockingQueue<>(config.maxQueueSize());
        lastHanded.clear();
        positions.clear();
        stopping = false;
        client = Clients.build(config);
        Instant start = config.start();
        boolean isQueue = config.queue() != null;
        LOG.info("task {} of {}: {} {} from {}, topics {}", share.task(), share.tasks(), isQueue ? "queue" : "tables",
                config.logs(), start == null ? "earliest" : start, isQueue ? config.topicPrefix() + "." + config.queue()
                        : config.topicPrefix() + ".<keyspace>.<table>");
        try {
            for (String name : config.logs()) {
                Log log = new Log(isQueue ? Offsets.QUEUE : Offsets.TABLE, name, new CqlTableDefinitions(client));
                PositionStore store = new DoneMarking(log, new TaskPositions(log.kind, name,
                        p -> context.offsetStorageReader().offset(p)));
                positions.put(name, store);
                ChangeConsumer.Builder b = ChangeConsumer.builder(client);
                (isQueue ? b.queue(name) : b.table(name))
                        .start(start == null ? StartPosition.earliest() : StartPosition.at(start))
                        .positionStore(store)
                        .assignment(d -> {
                            if (!share.assigned(d)) {
                                return false;
                            }
                            streams.put(key(name, d.streamId()), d);
                            return true;
                        })
                        .maxBatch(config.readBatch())
                        .refreshInterval(config.refreshInterval())
                        .handler(r -> handle(log, r))
                        .workers(1);
                ChangeConsumer c = b.build();
                consumers.add(c);
                c.start();
            }
        } catch (RuntimeException e) {
            stop();
            throw new ConnectException("could not start reading " + config.logs() + " from " + config.endpoints()
                    + ": " + e.getMessage(), e);
        }
    }

    /**
     * One log read: a table's CDC log (its events to {@code <prefix>.<ks>.<table>}) or a capture
     * queue (the events of every table its rules kept to {@code <prefix>.<queue>}, each table with
     * its own schemas). Used on the log's consumer worker only.
     */
    private final class Log {
        final String kind;
        final String name;
        final CqlTableDefinitions definitions;
        final Map<String, ChangeEvents> events = new java.util.HashMap<>();

        Log(String kind, String name, CqlTableDefinitions definitions) {
            this.kind = kind;
            this.name = name;
            this.definitions = definitions;
            if (Offsets.TABLE.equals(kind)) {
                events(name.substring(0, name.indexOf('.')), name.substring(name.indexOf('.') + 1));
            }
        }

        ChangeEvents events(String keyspace, String table) {
            return events.computeIfAbsent(keyspace + "." + table, t -> Offsets.TABLE.equals(kind)
                    ? new ChangeEvents(config.topicPrefix(), version(), keyspace, table, definitions,
                            config.tombstonesOnDelete(), Clock.systemUTC())
                    : new ChangeEvents(config.topicPrefix(), version(), keyspace, table, definitions,
                            config.tombstonesOnDelete(), Clock.systemUTC(), config.topicPrefix() + "." + name));
        }

        /** The events of the LCR's table; null for a table this log does not send (another table's DDL). */
        ChangeEvents eventsOf(ChangeRecord r) {
            String table = r.objectOwner() + "." + r.objectName();
            if (Offsets.TABLE.equals(kind)) {
                return events.get(table);
            }
            return r.isRow() ? events(r.objectOwner(), r.objectName()) : events.get(table);
        }
    }

    /** On the consumer's worker: one LCR into change events, in stream order. */
    private void handle(Log log, ChangeRecord r) throws InterruptedException {
        if (r.isDdl()) {
            ChangeEvents events = log.eventsOf(r);
            if (events == null) {
                return;
            }
            if (!config.includeSchemaChanges()) {
                events.definitionChanged(); // ALTER TABLE: the next schema version now, not at the next row
                return;
            }
            // the DDL's offset is its position like a row's, so exactly once covers the schema-change topic too
            Map<String, String> partition = r.position() == null ? null
                    : Offsets.partition(log.kind, log.name, r.position().streamId());
            Map<String, Object> offset = r.position() == null ? null : Offsets.offset(r.position());
            StreamDescriptor d = r.position() == null ? null : streams.get(key(log.name, r.position().streamId()));
            Long generation = d == null || d.openedMillis() == Long.MIN_VALUE ? null : d.openedMillis();
            SourceRecord change = events.schemaChange(r, config.schemaChangeTopic(), partition, offset, generation);
            if (r.position() != null) {
                lastHanded.put(key(log.name, r.position().streamId()), r.position());
            }
            put(List.of(change));
            return;
        }
        if (!r.isRow() || r.position() == null) {
            return;
        }
        ChangeEvents events = log.eventsOf(r);
        String stream = key(log.name, r.position().streamId());
        StreamDescriptor d = streams.get(stream);
        Long generation = d == null || d.openedMillis() == Long.MIN_VALUE ? null : d.openedMillis();
        Map<String, String> partition = Offsets.partition(log.kind, log.name, r.position().streamId());
        List<SourceRecord> records = events.convert(r, partition, Offsets.offset(r.position()), generation);
        if (records.size() == 2) {
            // a delete and its tombstone: the event keeps the stream's previous offset, so if the worker dies
            // with only the event committed, the next run sends both again rather than never the tombstone
            LcrPosition previous = lastHanded.get(stream);
            if (previous == null) {
                previous = positions.get(log.name).load(r.position().streamId()).orElse(null);
            }
            SourceRecord e = records.get(0);
            records = List.of(new SourceRecord(partition, previous == null ? Offsets.offset(null, Long.MIN_VALUE)
                    : Offsets.offset(previous), e.topic(), e.kafkaPartition(), e.keySchema(), e.key(), e.valueSchema(),
                    e.value(), e.timestamp()), records.get(1));
        }
        lastHanded.put(stream, r.position());
        put(records);
    }

    private void put(List<SourceRecord> records) throws InterruptedException {
        while (!queue.offer(records, 100, TimeUnit.MILLISECONDS)) {
            if (stopping) {
                // the LCR counts as not delivered: the next run reads it again after the committed offset
                throw new InterruptedException("the task is stopping");
            }
        }
    }

    @Override
    public List<SourceRecord> poll() throws InterruptedException {
        for (ChangeConsumer c : consumers) {
            Optional<Throwable> f = c.failure();
            if (f.isPresent()) {
                throw new ConnectException("reading " + config.logs() + " failed: " + f.get().getMessage(), f.get());
            }
        }
        List<SourceRecord> first = queue.poll(config.pollInterval().toMillis(), TimeUnit.MILLISECONDS);
        if (first == null) {
            return null;
        }
        List<SourceRecord> out = new ArrayList<>(first);
        List<SourceRecord> next;
        while (out.size() < config.maxBatchSize() && (next = queue.poll()) != null) {
            out.addAll(next);
        }
        return out;
    }

    @Override
    public void stop() {
        stopping = true;
        for (ChangeConsumer c : consumers) {
            c.close();
        }
        consumers.clear();
        if (client != null) {
            client.close();
            client = null;
        }
    }

    /** A stream of a log: "ks.t/0x..." or "queue/0x...". */
    private static String key(String log, ByteBuffer streamId) {
        return log + "/" + Offsets.hex(streamId);
    }

    /**
     * Sends a record whose offset says a stream is complete through its closing time once the
     * consumer delivered it that far: the task reading a child of that stream (possibly another
     * one) learns from the committed offset that the parent is done, though its last LCR lies
     * before the child's set timestamp — no record of the table's topic would ever say so.
     */
    private final class DoneMarking implements PositionStore {
        private final Log log;
        private final PositionStore inner;

        DoneMarking(Log log, PositionStore inner) {
            this.log = log;
            this.inner = inner;
        }

        @Override
        public Optional<LcrPosition> load(ByteBuffer streamId) {
            return inner.load(streamId);
        }

        @Override
        public void delivered(ByteBuffer streamId, LcrPosition last, long throughMicros) {
            inner.delivered(streamId, last, throughMicros);
            StreamDescriptor d = streams.get(key(log.name, streamId));
            if (d == null || d.closedMillis() == Long.MAX_VALUE || throughMicros < d.closedMillis() * 1000
                    || !doneMarked.add(key(log.name, streamId))) {
                return;
            }
            String id = Offsets.hex(streamId);
            // not the committed offset when this run handed LCRs on: that one lags and would move the offset back
            LcrPosition resume = last != null ? last : lastHanded.get(key(log.name, streamId));
            if (resume == null) {
                resume = inner.load(streamId).orElse(null);
            }
            try {
                put(List.of(new SourceRecord(Offsets.partition(log.kind, log.name, streamId),
                        Offsets.offset(resume, d.closedMillis() * 1000), heartbeatTopic(config.topicPrefix()), null,
                        Schema.STRING_SCHEMA, id, Schema.STRING_SCHEMA,
                        log.name + " stream " + id + " complete through " + d.closedMillis())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("stopping", e);
            }
        }

        @Override
        public long deliveredThrough(ByteBuffer streamId) {
            return inner.deliveredThrough(streamId);
        }
    }

    /** Where stream-complete markers go (Debezium's heartbeat topic naming). */
    public static String heartbeatTopic(String prefix) {
        return "__tributary-heartbeat." + prefix;
    }
}
