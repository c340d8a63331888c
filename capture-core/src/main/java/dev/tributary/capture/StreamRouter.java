package dev.tributary.capture;

import dev.tributary.dictionary.schema.TableDef;
import dev.tributary.generations.StreamId;

/**
 * Picks the CDC stream of a change: the stream of the generation (or tablet stream set) in force
 * at the change's time whose vnode (or tablet) holds the partition key's token.
 */
public interface StreamRouter {
    /** @throws dev.tributary.generations.errors.NoCdcStreamException when no generation is in force */
    StreamId streamFor(TableDef table, long token, long timeMillis);

    /**
     * When the table's first stream set (CDC generation, or tablet stream set) came into force,
     * if it has one: a queue record of a change made before it is placed at its start.
     */
    default java.util.OptionalLong firstMillis(TableDef table) {
        return java.util.OptionalLong.empty();
    }
}
