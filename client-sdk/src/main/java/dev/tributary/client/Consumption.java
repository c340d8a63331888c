package dev.tributary.client;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What a {@link ChangeConsumer} does, in one of two ways: reading on its own ({@link PlainConsumer})
 * or as a member of a consumer group ({@link GroupMember}, whose sessions are plain consumers).
 * The builder picks one, so that no method of the consumer asks which it is. The outcome both
 * report the same way is kept here.
 */
abstract sealed class Consumption implements AutoCloseable permits PlainConsumer, GroupMember {
    /** The first failure; it stops the consumer. */
    final AtomicReference<Throwable> failure = new AtomicReference<>();
    /** LCRs the handler took. */
    final AtomicLong delivered = new AtomicLong();
    /** Counted down once the consumer stopped (closed or failed). */
    final CountDownLatch stopped = new CountDownLatch(1);
    volatile boolean running;

    /** Starts reading; returns once reading has begun, throws what the first request was refused with. */
    abstract void start();

    abstract long duplicatesDropped();

    /** Idempotent. */
    @Override
    public abstract void close();

    /** The reading state, for diagnostics (see {@link ChangeConsumer#describe}). */
    abstract String describe(Duration timeout);

    final Optional<Throwable> failure() {
        return Optional.ofNullable(failure.get());
    }

    final long delivered() {
        return delivered.get();
    }

    final boolean isRunning() {
        return running;
    }

    final boolean awaitTermination(Duration timeout) throws InterruptedException {
        return stopped.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /**
     * Every LCR of the streams read below this time (microseconds) has been handled; see
     * {@link ChangeConsumer#lowWatermarkMicros()}.
     */
    abstract long lowWatermarkMicros();

    /** Looks again, on the next turn, at the streams waiting for parents read elsewhere. */
    abstract void recheckGates();

    /** The largest {@code --max-write-skew} the stream listings reported, in ms; -1 before the first. */
    abstract long maxWriteSkewMillis();

    /** Empty when not in a group, or between a lost lease and joining again. */
    Optional<GroupMembership> membership() {
        return Optional.empty();
    }

    /** Tests: behave as a process that died (a group member only). */
    void crashForTest() {
        throw new IllegalStateException("not a consumer group member");
    }
}
