package dev.tributary.kafka;

import dev.tributary.client.ChangeConsumer;
import dev.tributary.client.ChangeReader;
import dev.tributary.client.ChangeRecord;
import dev.tributary.client.LcrPosition;
import dev.tributary.client.PositionStore;
import dev.tributary.client.SnapshotHandover;
import dev.tributary.client.SnapshotPoint;
import dev.tributary.client.SnapshotRow;
import dev.tributary.client.TableSnapshotRead;
import dev.tributary.client.StartPosition;
import dev.tributary.client.StreamDescriptor;
import dev.tributary.client.TributaryClient;
import dev.tributary.kafka.internal.ChangeEvents;
import dev.tributary.kafka.internal.Clients;
import dev.tributary.kafka.internal.CqlTableDefinitions;
import dev.tributary.kafka.internal.Offsets;
import dev.tributary.kafka.internal.RingShare;
import dev.tributary.kafka.internal.SnapshotProgress;
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
    /** snapshot.mode = initial: each table's snapshot-then-stream thread, and the snapshot reads open now. */
    private final List<Thread> snapshotThreads = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final Set<TableSnapshotRead> reads = ConcurrentHashMap.newKeySet();
    private volatile RuntimeException snapshotFailure;
    /** How often a poll has the consumers look at streams waiting for another task's parents. */
    private static final long RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(250);
    private long lastRecheckNanos;
    /** tributary.queue: the queue read whole, by transaction (this task is the queue's only one). */
    private QueueSource queueSource;

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
                config.logs(), config.snapshotInitial() ? "after the initial snapshot" : start == null ? "earliest" : start, isQueue ? config.topicPrefix() + "." + config.queue()
                        : config.topicPrefix() + ".<keyspace>.<table>");
        try {
            if (isQueue) {
                queueSource = new QueueSource(config, client, context, version());
                queueSource.start();
                return;
            }
            for (String name : config.logs()) {
                Log log = new Log(isQueue ? Offsets.QUEUE : Offsets.TABLE, name, new CqlTableDefinitions(client));
                if (config.snapshotInitial()) {
                    // the rows first (task 0), the other tasks once it has recorded them all: on a thread of its own
                    Thread t = new Thread(() -> snapshotThenStream(log, share), "tributary-snapshot-" + name);
                    t.setDaemon(true);
                    snapshotThreads.add(t);
                    t.start();
                } else {
                    stream(log, share, start == null ? StartPosition.earliest() : StartPosition.at(start), null);
                }
            }
        } catch (RuntimeException e) {
            stop();
            throw new ConnectException("could not start reading " + config.logs() + " from " + config.endpoints()
                    + ": " + e.getMessage(), e);
        }
    }

    /**
     * Starts reading one log's streams from {@code start} (where a stream has no committed offset);
     * with a hand-over, a row LCR is sent only when it follows the snapshot.
     */
    private void stream(Log log, RingShare share, StartPosition startAt, SnapshotHandover handover) {
        String name = log.name;
        boolean isQueue = Offsets.QUEUE.equals(log.kind);
        log.handover = handover;
        synchronized (consumers) {
            if (stopping) {
                return;
            }
            PositionStore store = new DoneMarking(log, new TaskPositions(log.kind, name,
                    p -> context.offsetStorageReader().offset(p)));
            positions.put(name, store);
            ChangeConsumer.Builder b = ChangeConsumer.builder(client);
            (isQueue ? b.queue(name) : b.table(name))
                    .start(startAt)
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
    }

    /**
     * snapshot.mode = initial for one table: task 0 sends the rows the snapshot offset does not
     * record as sent yet, then every task reads the streams from the hand-over's start, sending
     * the row LCRs that follow the snapshot. The other tasks wait for the snapshot's committed
     * offset to say it is done, so the pieces of the hand-over are final before any change is sent.
     */
    private void snapshotThenStream(Log log, RingShare share) {
        try {
            Map<String, String> partition = Offsets.snapshotPartition(log.name);
            SnapshotProgress progress = SnapshotProgress.of(context.offsetStorageReader().offset(partition));
            if (!progress.done() && share.task() == 0) {
                LOG.info("initial snapshot of {}: {}", log.name, progress.nodes().isEmpty() ? "starting"
                        : "going on after " + progress.offset().get(SnapshotProgress.PROGRESS));
                SnapshotProgress sent = new TableSnapshotSender(log, partition).send(progress);
                LOG.info("initial snapshot of {} sent: {}", log.name, sent.offset().get(SnapshotProgress.PROGRESS));
                // no change is sent before the last row's offset is committed: a change committed first, then a
                // crash, would let the snapshot go on at a later SCN over a key whose later change is already out
            }
            while (!progress.done()) {
                Thread.sleep(config.refreshInterval().toMillis()); // task 0's committed offset is read back: polled
                if (stopping) {
                    return;
                }
                progress = SnapshotProgress.of(context.offsetStorageReader().offset(partition));
            }
            SnapshotHandover handover = progress.handover();
            stream(log, share, StartPosition.at(Instant.ofEpochMilli(handover.startMillis())), handover);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            if (!stopping) {
                snapshotFailure = e;
            }
        }
    }

    /**
     * Sends a table's rows from every node, each node after what the progress records as sent.
     * Queue entries are whole tokens (a poll never splits one), and each record's offset is the
     * progress through its token, so the committed offset always ends at a token boundary. The
     * last row is held back until the end: it carries source.snapshot "last" and the final offset.
     */
    private final class TableSnapshotSender {
        private final Log log;
        private final Map<String, String> partition;
        private final ChangeEvents events;
        private List<SourceRecord> held;
        private boolean first = true;

        TableSnapshotSender(Log log, Map<String, String> partition) {
            this.log = log;
            this.partition = partition;
            this.events = log.eventsOf(log.name);
        }

        SnapshotProgress send(SnapshotProgress from) throws InterruptedException {
            SnapshotProgress progress = from;
            while (true) {
                List<ChangeReader.SnapshotNode> nodes;
                try {
                    nodes = client.changes().snapshotNodes(log.name);
                } catch (dev.tributary.client.errors.UnavailableException
                        | dev.tributary.client.errors.RequestTimeoutException e) {
                    LOG.info("initial snapshot of {}: no node lists the cluster now ({}); trying again", log.name,
                            e.getMessage());
                    sleepUnlessStopping();
                    continue;
                }
                List<ChangeReader.SnapshotNode> down = nodes.stream().filter(n -> !n.live()).toList();
                if (!down.isEmpty()) {
                    // its rows are on it alone (or on a replica about to run its instance): wait rather than miss them
                    LOG.info("initial snapshot of {}: waiting for {} to be live", log.name, down);
                    sleepUnlessStopping();
                    continue;
                }
                boolean all = true;
                for (ChangeReader.SnapshotNode n : nodes) {
                    if (progress.complete(n.hostId())) {
                        continue;
                    }
                    progress = sendNode(n, progress);
                    all &= progress.complete(n.hostId());
                }
                if (all) {
                    break;
                }
                sleepUnlessStopping();
            }
            progress = progress.finished();
            if (held == null) {
                // an empty table: the offset alone says the snapshot is done
                put(List.of(new SourceRecord(partition, progress.offset(), heartbeatTopic(config.topicPrefix()), null,
                        Schema.STRING_SCHEMA, log.name, Schema.STRING_SCHEMA, log.name + " initial snapshot done")));
            } else {
                List<SourceRecord> last = new ArrayList<>(held);
                last.set(last.size() - 1, withSnapshot(last.get(last.size() - 1), "last", progress.offset()));
                put(last);
            }
            return progress;
        }

        /**
         * Sends the node's rows after what {@code progress} records; returns the progress made. A
         * read that fails on the node's side (it stopped, its instance moves to a replica) ends
         * with the node not complete, to go on after its last whole token at a new SCN.
         */
        private SnapshotProgress sendNode(ChangeReader.SnapshotNode n, SnapshotProgress start) throws InterruptedException {
            SnapshotProgress progress = start;
            try (TableSnapshotRead read = client.changes().readSnapshot(log.name, n.endpoint(),
                    progress.resumeAfter(n.hostId()), config.snapshotFetchSize())) {
                reads.add(read);
                try {
                    SnapshotPoint point = read.point();
                    if (!point.hostId().equals(n.hostId())) {
                        throw new dev.tributary.client.errors.UnavailableException("the node at " + n.endpoint() + " is "
                                + point.hostId() + " now, not " + n.hostId(), List.of(n.endpoint()), null);
                    }
                    List<SourceRecord> token = new ArrayList<>();
                    while (read.hasNext()) {
                        SnapshotRow row = read.next();
                        SnapshotProgress after = row.completesToken()
                                ? progress.sentThrough(n.hostId(), point.redoThread(), point.scn(), row.token()) : progress;
                        token.add(events.snapshotRead(row.values(), point.scn(), "true", partition, after.offset()));
                        if (row.completesToken()) {
                            progress = after;
                            hold(token);
                            token = new ArrayList<>();
                        }
                        if (stopping) {
                            throw new InterruptedException("the task is stopping");
                        }
                    }
                    if (!read.complete()) {
                        if (stopping) {
                            throw new InterruptedException("the task is stopping");
                        }
                        throw new dev.tributary.client.errors.UnavailableException("the snapshot read of " + log.name
                                + " at " + n.endpoint() + " ended before its last rows", List.of(n.endpoint()), null);
                    }
                    return progress.nodeComplete(n.hostId(), point.redoThread(), point.scn());
                } finally {
                    reads.remove(read);
                }
            } catch (dev.tributary.client.errors.UnavailableException | dev.tributary.client.errors.ServerErrorException
                    | dev.tributary.client.errors.RequestTimeoutException e) {
                LOG.info("initial snapshot of {}: the read of {} failed ({}); going on after what was sent", log.name, n,
                        e.getMessage());
                return progress;
            }
        }

        /** Queues the token held before and holds this one, so the last one can be marked. */
        private void hold(List<SourceRecord> token) throws InterruptedException {
            if (held != null) {
                put(held);
            }
            if (first) {
                token.set(0, withSnapshot(token.get(0), "first", null));
                first = false;
            }
            held = token;
        }

        private void sleepUnlessStopping() throws InterruptedException {
            Thread.sleep(config.refreshInterval().toMillis()); // a node coming back is not announced to a reader: polled
            if (stopping) {
                throw new InterruptedException("the task is stopping");
            }
        }
    }

    /** The record with another source.snapshot marker (and another offset, when given). */
    private static SourceRecord withSnapshot(SourceRecord r, String marker, Map<String, Object> offset) {
        org.apache.kafka.connect.data.Struct value = (org.apache.kafka.connect.data.Struct) r.value();
        value.getStruct("source").put("snapshot", marker);
        return new SourceRecord(r.sourcePartition(), offset != null ? offset : r.sourceOffset(), r.topic(),
                r.kafkaPartition(), r.keySchema(), r.key(), r.valueSchema(), value, r.timestamp());
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
        final Map<String, ChangeEvents> events = new java.util.concurrent.ConcurrentHashMap<>();
        /** Set before the log's consumer starts: which LCRs follow the initial snapshot (null: every one). */
        volatile SnapshotHandover handover;

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

        /** The events of a table log's own table. */
        ChangeEvents eventsOf(String table) {
            return events.get(table);
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
        SnapshotHandover handover = log.handover;
        if (handover != null && r.position() != null && (r.isRow() || r.isDdl())) {
            ChangeEvents own = log.eventsOf(r);
            if (!handover.follows(r, () -> own == null ? java.util.OptionalLong.empty() : own.token(r))) {
                return; // in the snapshot's rows already; its offset is not recorded, so a restart skips it again
            }
        }
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
        if (queueSource != null) {
            return queueSource.poll();
        }
        RuntimeException snapshot = snapshotFailure;
        if (snapshot != null) {
            throw new ConnectException("the initial snapshot of " + config.logs() + " failed: " + snapshot.getMessage(), snapshot);
        }
        long now = System.nanoTime();
        boolean recheck = now - lastRecheckNanos >= RECHECK_NANOS;
        if (recheck) {
            lastRecheckNanos = now;
        }
        for (ChangeConsumer c : consumers) {
            Optional<Throwable> f = c.failure();
            if (f.isPresent()) {
                throw new ConnectException("reading " + config.logs() + " failed: " + f.get().getMessage(), f.get());
            }
            if (recheck) {
                // a child stream whose parent another task reads starts once that task's end-of-stream marker is
                // committed; looked at here rather than at the next stream listing (tributary.refresh.interval.ms)
                c.recheckParents();
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
        org.apache.kafka.connect.source.TransactionContext tx = context.transactionContext();
        if (tx != null) {
            // transaction.boundary=connector: a poll never splits an LCR's records, so its end is a boundary
            tx.commitTransaction(out.get(out.size() - 1));
        }
        return out;
    }

    @Override
    public void stop() {
        synchronized (consumers) {
            stopping = true;
        }
        for (TableSnapshotRead r : reads) {
            r.close();
        }
        for (Thread t : snapshotThreads) {
            t.interrupt();
            try {
                t.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        snapshotThreads.clear();
        if (queueSource != null) {
            queueSource.close();
            queueSource = null;
        }
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
