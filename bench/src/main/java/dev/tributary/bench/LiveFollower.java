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
    private volatile boolean stopped;

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
            if (!stopped) {
                // the node ended the subscription (its instance stopped): what follows would never arrive
                failure = new IllegalStateException("the node ended the subscription");
            }
        } catch (RuntimeException e) {
            failure = e;
        }
    }

    @Override
    public void stop() {
        stopped = true;
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
