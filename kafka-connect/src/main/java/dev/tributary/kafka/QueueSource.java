package dev.tributary.kafka;

import dev.tributary.client.ChangeConsumer;
import dev.tributary.client.ChangeRecord;
import dev.tributary.client.PositionStore;
import dev.tributary.client.StartPosition;
import dev.tributary.client.StreamDescriptor;
import dev.tributary.client.TributaryClient;
import dev.tributary.kafka.internal.ChangeEvents;
import dev.tributary.kafka.internal.CqlTableDefinitions;
import dev.tributary.kafka.internal.Offsets;
import dev.tributary.kafka.internal.TransactionBuffer;
import dev.tributary.kafka.internal.TransactionBuffer.Transaction;
import dev.tributary.kafka.internal.TransactionBuffer.TxKey;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.apache.kafka.connect.source.TransactionContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A capture queue read whole by one task, its transactions sent whole and in commit order
 * (docs/KAFKA.md, "A queue's transactions"). One {@link ChangeConsumer} reads every stream of the
 * queue; its handler holds each LCR in a {@link TransactionBuffer} by (commit SCN, transaction
 * id), and a transaction is released once the consumer's whole-transaction bound
 * ({@link ChangeConsumer#wholeTransactionsBelowMicros()}: its low watermark less the nodes' write
 * skew) is past its commit. A poll returns whole transactions only; with the worker's exactly-once
 * support each poll's records commit in one Kafka transaction (the worker's {@code poll} boundary,
 * or this task's own with {@code transaction.boundary=connector}), so a read_committed consumer
 * sees a Tributary transaction entirely or not at all.
 *
 * <p>The queue has one source partition, {@code {"queue": name}}; its offset is the last
 * transaction sent. Every record of a transaction carries the offset of the transaction before it
 * but the last, which carries its own: an offset committed in the middle of a transaction (at least
 * once) makes the next run send that transaction again whole. A restarted task reads every stream
 * from the committed transaction's commit millisecond (a change is logged no earlier than its
 * commit) and drops the LCRs of it and of the transactions before it.
 */
final class QueueSource implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(QueueSource.class);
    /** A transaction's LCRs in statement order (SCN), then by position. */
    private static final Comparator<ChangeRecord> WITHIN = Comparator.comparingLong(ChangeRecord::scn)
            .thenComparing(r -> r.position().time())
            .thenComparing(r -> r.position().streamId())
            .thenComparingInt(r -> r.position().batchSeqNo());

    private final TributaryConnectorConfig config;
    private final TributaryClient client;
    private final SourceTaskContext context;
    private final String version;
    private final String queue;
    private final Map<String, String> partition;
    private final CqlTableDefinitions definitions;
    /** Per table, "ks.t": its events; made on the poll thread only. */
    private final Map<String, ChangeEvents> events = new java.util.HashMap<>();
    /** The queue's streams by id (hex), for the generation of an event. */
    private final Map<String, StreamDescriptor> streams = new ConcurrentHashMap<>();
    /** Guards {@link #buffer}: the consumer's worker adds, the task's poll takes. */
    private final Object lock = new Object();
    private TransactionBuffer<ChangeRecord> buffer;
    private ChangeConsumer consumer;
    /** The last transaction handed to the worker: the offset of the records of the next. */
    private TxKey sentThrough;
    private long late;
    private volatile boolean stopping;

    QueueSource(TributaryConnectorConfig config, TributaryClient client, SourceTaskContext context, String version) {
        this.config = config;
        this.client = client;
        this.context = context;
        this.version = version;
        this.queue = config.queue();
        this.partition = Offsets.queuePartition(queue);
        this.definitions = new CqlTableDefinitions(client);
    }

    void start() {
        TxKey through = Offsets.queueThrough(context.offsetStorageReader().offset(partition));
        Instant configured = config.start();
        StartPosition from = !through.equals(TxKey.NONE)
                ? StartPosition.at(Instant.ofEpochMilli(through.commitScn() >>> 16)) // no LCR of a later commit lies before it
                : configured == null ? StartPosition.earliest() : StartPosition.at(configured);
        LOG.info("queue {}: whole transactions in commit order, {}", queue, through.equals(TxKey.NONE)
                ? "from " + (configured == null ? "earliest" : configured)
                : "after transaction " + through.transactionId() + " (commit SCN " + through.commitScn() + ")");
        sentThrough = through;
        buffer = new TransactionBuffer<>(through, WITHIN);
        consumer = ChangeConsumer.builder(client).queue(queue)
                .start(from)
                // where each stream resumes follows from the one committed transaction, not from per-stream positions
                .positionStore(PositionStore.inMemory())
                .assignment(d -> {
                    streams.put(Offsets.hex(d.streamId()), d);
                    return true;
                })
                .maxBatch(config.readBatch())
                .refreshInterval(config.refreshInterval())
                .handler(this::handle)
                .workers(1)
                .build();
        consumer.start();
        LOG.info("queue {}: the nodes' max write skew is {}", queue, consumer.maxWriteSkew().orElse(null));
    }

    /** On the consumer's worker: holds the LCR in its transaction; waits while too much is ready and not polled. */
    private void handle(ChangeRecord r) throws InterruptedException {
        if (r.position() == null || !(r.isRow() || r.isDdl())) {
            return;
        }
        synchronized (lock) {
            TransactionBuffer.Added a = buffer.add(new TxKey(r.commitScn(), r.transactionId()), r.commitMicros(), r);
            if (a == TransactionBuffer.Added.LATE && late++ % 1000 == 0) {
                LOG.warn("queue {}: an LCR of transaction {} (commit SCN {}) came after the transaction was sent; it goes "
                        + "on alone ({} so far). Do the nodes share one --max-write-skew?", queue, r.transactionId(),
                        r.commitScn(), late);
            }
            buffer.promote(consumer.wholeTransactionsBelowMicros());
            if (buffer.readyItems() > 0) {
                lock.notifyAll();
            }
            // reading pauses while a queue's worth of whole transactions waits for the worker; the open ones
            // cannot wait (they complete only as reading goes on), so they are what a task holds beyond it
            while (buffer.readyItems() >= config.maxQueueSize() && !stopping) {
                lock.wait(100);
            }
            if (stopping) {
                throw new InterruptedException("the task is stopping"); // not handled: the next run reads it again
            }
        }
    }

    /** Whole transactions, in commit order, up to {@code max.batch.size} LCRs (one more transaction if larger). */
    List<SourceRecord> poll() throws InterruptedException {
        Optional<Throwable> f = consumer.failure();
        if (f.isPresent()) {
            throw new ConnectException("reading the queue " + queue + " failed: " + f.get().getMessage(), f.get());
        }
        long deadline = System.nanoTime() + config.pollInterval().toNanos();
        List<Transaction<ChangeRecord>> taken;
        synchronized (lock) {
            while (true) {
                buffer.promote(consumer.wholeTransactionsBelowMicros());
                taken = buffer.take(config.maxBatchSize());
                long left = deadline - System.nanoTime();
                if (!taken.isEmpty() || left <= 0 || stopping) {
                    break;
                }
                // the watermark moves without a call to the handler (a node's safe time advancing): looked at
                // again every 20 ms; an LCR that readies a transaction wakes this at once
                lock.wait(Math.max(1, Math.min(20, TimeUnit.NANOSECONDS.toMillis(left))));
            }
            lock.notifyAll(); // room for the handler
        }
        if (taken.isEmpty()) {
            return null;
        }
        List<SourceRecord> out = new ArrayList<>();
        for (Transaction<ChangeRecord> t : taken) {
            int first = out.size();
            Map<String, Object> before = Offsets.queueOffset(sentThrough);
            for (ChangeRecord r : t.items()) {
                convert(r, before, out);
            }
            sentThrough = TxKey.max(sentThrough, t.key());
            if (out.size() > first) {
                SourceRecord last = out.get(out.size() - 1);
                out.set(out.size() - 1, new SourceRecord(last.sourcePartition(), Offsets.queueOffset(sentThrough),
                        last.topic(), last.kafkaPartition(), last.keySchema(), last.key(), last.valueSchema(), last.value(),
                        last.timestamp()));
            }
        }
        if (out.isEmpty()) {
            return null; // only DDL of tables not sent: nothing for Kafka, and its offset can wait for the next record
        }
        TransactionContext tx = context.transactionContext();
        if (tx != null) {
            // transaction.boundary=connector: the poll's transactions are whole, so its end is a boundary
            tx.commitTransaction(out.get(out.size() - 1));
        }
        return out;
    }

    private void convert(ChangeRecord r, Map<String, Object> offset, List<SourceRecord> out) {
        String table = r.objectOwner() + "." + r.objectName();
        Long generation = generation(r);
        if (r.isDdl()) {
            ChangeEvents e = events.get(table); // the DDL of tables this queue has sent rows of
            if (e == null) {
                return;
            }
            if (!config.includeSchemaChanges()) {
                e.definitionChanged();
                return;
            }
            out.add(e.schemaChange(r, config.schemaChangeTopic(), partition, offset, generation));
            return;
        }
        ChangeEvents e = events.computeIfAbsent(table, t -> new ChangeEvents(config.topicPrefix(), version,
                r.objectOwner(), r.objectName(), definitions, config.tombstonesOnDelete(), Clock.systemUTC(),
                config.topicPrefix() + "." + queue));
        out.addAll(e.convert(r, partition, offset, generation));
    }

    private Long generation(ChangeRecord r) {
        StreamDescriptor d = streams.get(Offsets.hex(r.position().streamId()));
        return d == null || d.openedMillis() == Long.MIN_VALUE ? null : d.openedMillis();
    }

    @Override
    public void close() {
        stopping = true;
        synchronized (lock) {
            lock.notifyAll();
        }
        if (consumer != null) {
            consumer.close();
        }
    }
}
