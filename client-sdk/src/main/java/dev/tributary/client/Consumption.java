package dev.tributary.client;

import java.time.Duration;
import java.util.Optional;

/**
 * What a {@link ChangeConsumer} does, in one of two ways: reading on its own ({@link PlainConsumer})
 * or as a member of a consumer group ({@link GroupMember}, whose sessions are plain consumers).
 * The builder picks one, so that no method of the consumer asks which it is.
 */
interface Consumption extends AutoCloseable {
    /** Starts reading; returns once reading has begun, throws what the first request was refused with. */
    void start();

    Optional<Throwable> failure();

    long delivered();

    long duplicatesDropped();

    boolean isRunning();

    boolean awaitTermination(Duration timeout) throws InterruptedException;

    /** Idempotent. */
    @Override
    void close();

    /** The reading state, for diagnostics (see {@link ChangeConsumer#describe}). */
    String describe(Duration timeout);

    /** Empty when not in a group, or between a lost lease and joining again. */
    default Optional<GroupMembership> membership() {
        return Optional.empty();
    }

    /** Tests: behave as a process that died (a group member only). */
    default void crashForTest() {
        throw new IllegalStateException("not a consumer group member");
    }
}
