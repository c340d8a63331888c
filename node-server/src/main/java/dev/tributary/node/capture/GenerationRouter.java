package dev.tributary.node.capture;

import dev.tributary.capture.StreamRouter;
import dev.tributary.dictionary.schema.TableDef;
import dev.tributary.generations.GenerationHistory;
import dev.tributary.generations.StreamId;
import java.util.function.Supplier;

/** Routes a change to the stream of the CDC generation in force at its time (vnode keyspaces). */
public final class GenerationRouter implements StreamRouter {
    private final Supplier<GenerationHistory> history;

    public GenerationRouter(Supplier<GenerationHistory> history) {
        this.history = history;
    }

    @Override
    public StreamId streamFor(TableDef table, long token, long timeMillis) {
        return history.get().streamFor(token, timeMillis);
    }
}
