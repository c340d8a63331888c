package dev.tributary.bench;

import dev.tributary.client.ChangeConsumer;
import dev.tributary.client.ChangeRecord;
import dev.tributary.client.StartPosition;
import dev.tributary.client.TributaryClient;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * Follows a table's CDC log through the SDK's {@link ChangeConsumer}, as an application does:
 * every node's streams, merged by safe time, each LCR once. Started in the constructor from the
 * log's beginning (the table is new), so nothing written after construction is missed.
 */
final class SdkFollower implements LogFollower {
    private final ChangeConsumer consumer;
    private volatile boolean stopped;

    SdkFollower(TributaryClient client, String table, Consumer<ChangeRecord> sink) {
        // one worker: the sink counts and timestamps on one thread, as the other followers do
        consumer = ChangeConsumer.builder(client).table(table).start(StartPosition.earliest()).handler(sink::accept)
                .workers(1).build();
        consumer.start();
    }

    @Override
    public void run() {
        try {
            while (!stopped && !consumer.awaitTermination(Duration.ofSeconds(1))) {
                // delivering on the consumer's own threads
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void stop() {
        stopped = true;
        consumer.close();
    }

    @Override
    public RuntimeException failure() {
        return consumer.failure().map(t -> t instanceof RuntimeException re ? re : new IllegalStateException(t)).orElse(null);
    }

    @Override
    public long reads() {
        return 1;
    }
}
