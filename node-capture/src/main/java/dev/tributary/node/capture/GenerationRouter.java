package dev.tributary.node.capture;

import dev.tributary.capture.StreamRouter;
import dev.tributary.dictionary.MultiversionDictionary;
import dev.tributary.dictionary.schema.KeyspaceDef;
import dev.tributary.dictionary.schema.TableDef;
import dev.tributary.generations.GenerationHistory;
import dev.tributary.generations.StreamId;
import dev.tributary.generations.TabletStreamHistory;
import dev.tributary.generations.errors.NoCdcStreamException;
import java.util.Optional;
import java.util.function.LongFunction;
import java.util.function.Supplier;

/**
 * Routes a change to its stream at its time: for a table of a vnode keyspace the stream of the
 * CDC generation in force; for a table of a tablets keyspace the stream of its tablet in the
 * table's own stream set in force.
 */
public final class GenerationRouter implements StreamRouter {
    private final Supplier<GenerationHistory> history;
    private final MultiversionDictionary dictionary;
    private final LongFunction<Optional<TabletStreamHistory>> tablets;

    /** @param tablets a table's tablet stream sets, by object number */
    public GenerationRouter(Supplier<GenerationHistory> history, MultiversionDictionary dictionary,
            LongFunction<Optional<TabletStreamHistory>> tablets) {
        this.history = history;
        this.dictionary = dictionary;
        this.tablets = tablets;
    }

    /** Whether a table's keyspace uses tablets: its changes go to its own stream sets, not the generations'. */
    public boolean usesTablets(TableDef table) {
        return dictionary.latest().keyspace(table.keyspace()).map(KeyspaceDef::tabletsEnabled).orElse(false);
    }

    /** The cluster's CDC generations: the stream sets of every vnode keyspace's tables. */
    public GenerationHistory generations() {
        return history.get();
    }

    /** A tablets table's own stream sets; empty before its first set is published. */
    public Optional<TabletStreamHistory> tabletStreams(TableDef table) {
        return tablets.apply(table.objectNumber());
    }

    @Override
    public StreamId streamFor(TableDef table, long token, long timeMillis) {
        if (usesTablets(table)) {
            return tabletStreams(table).orElseThrow(() -> new NoCdcStreamException(timeMillis))
                    .streamFor(token, timeMillis);
        }
        return generations().streamFor(token, timeMillis);
    }

    @Override
    public java.util.OptionalLong firstMillis(TableDef table) {
        if (usesTablets(table)) {
            return tabletStreams(table).map(h -> java.util.OptionalLong.of(h.sets().get(0).timestampMillis()))
                    .orElse(java.util.OptionalLong.empty());
        }
        java.util.List<dev.tributary.generations.Generation> all = generations().generations();
        return all.isEmpty() ? java.util.OptionalLong.empty() : java.util.OptionalLong.of(all.get(0).timestampMillis());
    }
}
