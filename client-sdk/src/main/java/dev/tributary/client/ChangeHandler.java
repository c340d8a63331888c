package dev.tributary.client;

/**
 * Receives a {@link ChangeConsumer}'s LCRs. The LCRs of one stream come one at a time, in
 * position order, on one worker thread; different streams may be handled at once on different
 * workers. An exception stops the consumer ({@link ChangeConsumer#failure()}); the LCR it was
 * thrown for counts as not delivered.
 */
@FunctionalInterface
public interface ChangeHandler {
    void handle(ChangeRecord record) throws Exception;
}
