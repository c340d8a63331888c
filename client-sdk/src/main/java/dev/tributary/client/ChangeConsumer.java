package dev.tributary.client;

import dev.tributary.client.errors.TributaryException;
import dev.tributary.client.internal.DurationArguments;
import dev.tributary.client.internal.Endpoints;
import io.grpc.ManagedChannel;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * Follows a table's CDC log (or a queue) across generations and tablet stream sets, delivering
 * every LCR once, in position order per stream, to a {@link ChangeHandler}.
 *
 * <pre>{@code
 * try (ChangeConsumer c = ChangeConsumer.builder(client).table("ks.t").start(StartPosition.latest())
 *         .handler(r -> System.out.println(r.toJson())).workers(4).build()) {
 *     c.start();
 *     ...
 * }
 * }</pre>
 *
 * <p>How it reads (docs/CONSUMERS.md): it lists the log's streams (ListStreams) and the nodes,
 * and reads each stream from every live node, all of its streams on one {@code ReadStreams} call
 * per node. A node sends only LCRs below its safe time and tells it in every message (with the
 * streams it is still behind on, for which it tells how far each is complete); the consumer merges a stream's LCRs
 * from all nodes by position and releases those below the lowest safe time of the nodes, so per
 * stream nothing is skipped and the order is exact. A stream of a newer set starts being delivered
 * once each of its parents (the streams of the set before whose token ranges overlap it) is
 * delivered up to the new set's timestamp — the switch follows the safe times, with no fixed
 * window. Nodes that appear in a node's membership list are added before anything past that
 * node's safe time is released. Streams go to workers by token range; a child waits for its
 * parents, so a partition's changes never race across workers at a switch.
 *
 * <p>A node that is down holds back the streams (it may hold LCRs of any of them): delivery waits
 * until it is back, rather than skip what it has.
 *
 * <p>With {@link Builder#group(String)} the consumer is a member of a consumer group: it reads its
 * share of the token ring, resumes from the group's committed positions and commits as it goes
 * (docs/CONSUMERS.md, "Consumer groups"); delivery is then at-least-once — after a rebalance or a
 * member's crash some LCRs come again, each with its position to dedupe by. Thread-safe.
 */
public final class ChangeConsumer implements AutoCloseable {
    /** On its own or in a group: chosen by the builder. */
    private final Consumption consumption;

    private ChangeConsumer(Consumption consumption) {
        this.consumption = consumption;
    }

    public static Builder builder(TributaryClient client) {
        return new Builder(client);
    }

    /**
     * Lists the streams and starts reading; returns once reading has begun.
     *
     * @throws TributaryException when the table or queue cannot be listed (e.g. it does not exist)
     */
    public void start() {
        consumption.start();
    }

    /** The failure that stopped the consumer (a handler's exception, or a refused request). */
    public Optional<Throwable> failure() {
        return consumption.failure();
    }

    /** How many LCRs the handler has taken. */
    public long delivered() {
        return consumption.delivered();
    }

    /** LCRs that arrived from two nodes at the same position and were delivered once. */
    public long duplicatesDropped() {
        return consumption.duplicatesDropped();
    }

    public boolean isRunning() {
        return consumption.isRunning();
    }

    /**
     * Looks again, soon, at the streams waiting for a parent this consumer does not read: how far
     * such a parent is delivered comes from the {@link PositionStore}'s {@code deliveredThrough},
     * which another reader moves, and is otherwise looked at only when the streams are listed again
     * (the refresh interval). Call it when the store may have moved — the Kafka connector does on its
     * polls, so a child stream starts within one after its parent's end is committed by another task
     * rather than at the next listing. Cheap: it walks the waiting streams once.
     */
    public void recheckParents() {
        consumption.recheckGates();
    }

    /**
     * The consumer's low watermark, in microseconds since the epoch: every LCR of the streams this
     * consumer reads (a group member: its current share) whose log time (its position's time) lies
     * below it has been handled — the handler returned for it. It only rises while the consumer runs;
     * {@link Long#MIN_VALUE} before the streams are listed (and, in a group, between shares). It is
     * no later than the last stream listing was asked for, so it trails the clock by up to the
     * refresh interval even when every stream is caught up.
     */
    public long lowWatermarkMicros() {
        return consumption.lowWatermarkMicros();
    }

    /**
     * The nodes' {@code --max-write-skew} as the stream listings report it (the largest seen): how
     * far from the node's clock a write's {@code USING TIMESTAMP} may be. A change is logged at its
     * write timestamp or, when that lies in the past, at its commit SCN's time, so a transaction's
     * LCRs lie in their streams from its commit time up to this skew after it. Empty before
     * {@link #start()} listed the streams.
     */
    public Optional<Duration> maxWriteSkew() {
        long ms = consumption.maxWriteSkewMillis();
        return ms < 0 ? Optional.empty() : Optional.of(Duration.ofMillis(ms));
    }

    /**
     * The time below which transactions are whole here, in microseconds: every LCR of every
     * transaction whose commit time ({@link ChangeRecord#commitMicros()}) lies below it, in every
     * stream this consumer reads, has been handled. A reader of all of a queue's streams that holds
     * LCRs by transaction can release, in commit order, each transaction committed below this
     * bound, and none will gain an LCR later (docs/CONSUMERS.md, "Whole transactions").
     * {@link Long#MIN_VALUE} until both the watermark and the skew are known.
     */
    public long wholeTransactionsBelowMicros() {
        return WholeTransactions.below(consumption.lowWatermarkMicros(), consumption.maxWriteSkewMillis());
    }

    /**
     * Where this consumer stands in its consumer group; empty when it is not in one, or between a
     * lost lease and joining again.
     */
    public Optional<GroupMembership> membership() {
        return consumption.membership();
    }

    /** Waits until the consumer stopped (closed or failed); false on timeout. */
    public boolean awaitTermination(Duration timeout) throws InterruptedException {
        return consumption.awaitTermination(timeout);
    }

    /**
     * Stops reading and waits a few seconds for the handler calls in progress. In a group it then
     * commits what was handled and leaves the group. Idempotent.
     */
    @Override
    public void close() {
        consumption.close();
    }

    /**
     * The reading state, for diagnostics: per node known, and per stream its status, how far it
     * is released and delivered, and per node its safe time, buffer and whether it is failing.
     */
    String describe(Duration timeout) {
        return consumption.describe(timeout);
    }

    /** Tests: a group member behaves as a process that died (no heartbeat, commit or Leave again). */
    void crashForTest() {
        consumption.crashForTest();
    }

    /** Configures a consumer; not thread-safe. */
    public static final class Builder {
        private final TributaryClient client;
        private String table;
        private String queue;
        private StartPosition start = StartPosition.latest();
        private ChangeHandler handler;
        private int workers = 1;
        private PositionStore store = PositionStore.inMemory();
        private StreamAssignment assignment = StreamAssignment.ALL;
        private Function<String, ManagedChannel> channels;
        private int maxBatch = 256;
        private Duration refreshInterval = Duration.ofSeconds(5);
        private String group;
        private Duration groupLease = Duration.ZERO;
        private Duration groupCommitInterval = GroupSettings.DEFAULT_COMMIT_INTERVAL;

        private Builder(TributaryClient client) {
            this.client = Objects.requireNonNull(client, "client");
            this.channels = client.dialer(); // the client's TLS settings
        }

        /**
         * Reads as a member of the consumer group {@code name} (created on first use, bound to this
         * table or queue): this consumer reads its share of the streams, resumes from the group's
         * committed positions (streams without one start where the group started, which {@link #start}
         * sets only for the member that creates the group), commits as it goes and
         * on close, and takes a new share when members come and go. Delivery is at-least-once:
         * dedupe by {@link ChangeRecord#position()}. A position store or assignment set here is
         * replaced by the group's.
         */
        public Builder group(String name) {
            this.group = Objects.requireNonNull(name, "name");
            return this;
        }

        /**
         * How long this member stays in the group without a heartbeat (it heartbeats every third
         * of it); after that the others take its streams over. Default: the node's (10 s). The
         * group has one lease: the last member to join sets it.
         */
        public Builder groupLease(Duration lease) {
            this.groupLease = DurationArguments.notNegative(lease, "lease", "the lease");
            return this;
        }

        /** How often handled positions and the low watermark are committed to the group; default 750 ms. */
        public Builder groupCommitInterval(Duration interval) {
            this.groupCommitInterval = DurationArguments.positive(interval, "interval", "the commit interval");
            return this;
        }

        /** The CDC log of a table, "ks.t". */
        public Builder table(String table) {
            this.table = Objects.requireNonNull(table, "table");
            return this;
        }

        /** A capture's queue. */
        public Builder queue(String queue) {
            this.queue = Objects.requireNonNull(queue, "queue");
            return this;
        }

        /** Where to start in streams the position store knows nothing of; default latest. */
        public Builder start(StartPosition start) {
            this.start = Objects.requireNonNull(start, "start");
            return this;
        }

        public Builder handler(ChangeHandler handler) {
            this.handler = Objects.requireNonNull(handler, "handler");
            return this;
        }

        /** Handler threads; streams are spread over them by token range. Default 1. */
        public Builder workers(int workers) {
            if (workers < 1) {
                throw new IllegalArgumentException("workers must be at least 1, got " + workers);
            }
            this.workers = workers;
            return this;
        }

        public Builder positionStore(PositionStore store) {
            this.store = Objects.requireNonNull(store, "store");
            return this;
        }

        public Builder assignment(StreamAssignment assignment) {
            this.assignment = Objects.requireNonNull(assignment, "assignment");
            return this;
        }

        /** How the channel to a node's endpoint (host:port) is made; default plaintext Netty. */
        public Builder channels(Function<String, ManagedChannel> channels) {
            this.channels = Objects.requireNonNull(channels, "channels");
            return this;
        }

        /** LCRs per ReadStreams message (1 to 4096); default 256. */
        public Builder maxBatch(int maxBatch) {
            if (maxBatch < 1 || maxBatch > 4096) {
                throw new IllegalArgumentException("maxBatch must be 1 to 4096, got " + maxBatch);
            }
            this.maxBatch = maxBatch;
            return this;
        }

        /** How often the stream sets are listed again besides when a node says there is a newer one. */
        public Builder refreshInterval(Duration refreshInterval) {
            this.refreshInterval = Objects.requireNonNull(refreshInterval, "refreshInterval");
            return this;
        }

        public ChangeConsumer build() {
            if ((table == null) == (queue == null)) {
                throw new IllegalStateException("give exactly one of table(\"ks.t\") or queue(\"name\")");
            }
            if (handler == null) {
                throw new IllegalStateException("no handler: call handler(record -> ...)");
            }
            Endpoints endpoints = client.endpointsInternal();
            ReadSettings read = new ReadSettings(endpoints, channels, table, queue, maxBatch, refreshInterval, workers);
            if (group == null) {
                return new ChangeConsumer(new PlainConsumer(read, assignment, store, start, handler));
            }
            return new ChangeConsumer(new GroupMember(endpoints, new GroupSettings(group, groupLease, groupCommitInterval),
                    table, queue, start, handler, (share, store, start, handler) -> new PlainConsumer(read, share, store,
                            start, handler)));
        }
    }
}
