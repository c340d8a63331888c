package dev.tributary.bench;

import dev.tributary.client.ChangeRecord;
import dev.tributary.client.LiveChanges;
import java.util.function.Consumer;

/**
 * Follows a table's CDC log live through one subscription ({@code ChangeStreamService.Subscribe}):
 * every LCR enqueued after the subscription started, under gRPC flow control. The subscription is
 * opened in the constructor, so LCRs written after construction are not missed.
 */
final class LiveFollower implements LogFollower {
    private final LiveChanges live;
    private final Consumer<ChangeRecord> sink;
    private volatile RuntimeException failure;

    LiveFollower(LiveChanges live, Consumer<ChangeRecord> sink) {
        this.live = live;
        this.sink = sink;
    }

    @Override
    public void run() {
        try {
            while (live.hasNext()) {
                sink.accept(live.next());
            }
        } catch (RuntimeException e) {
            failure = e;
        }
    }

    @Override
    public void stop() {
        live.close();
    }

    @Override
    public RuntimeException failure() {
        return failure;
    }

    @Override
    public long reads() {
        return 1;
    }
}
