package dev.tributary.bench;

import dev.tributary.client.ChangeReader;
import dev.tributary.client.ChangeRecord;
import dev.tributary.client.ChangeStream;
import dev.tributary.client.LcrPosition;

/**
 * Where a {@link ChangeFollower} reads a change log: reads of at most {@code limit} LCRs after a
 * position (exclusive), in the log's order (stream, then time, then batch sequence number).
 */
@FunctionalInterface
public interface ChangeSource {
    ChangeCursor open(LcrPosition after, int limit);

    /** The SDK's change reader on table {@code ks.t}: one server-streaming ReadChanges call per read. */
    static ChangeSource of(ChangeReader reader, String table) {
        return (after, limit) -> {
            ChangeStream s = reader.stream(table, after, limit);
            return new ChangeCursor() {
                @Override
                public boolean hasNext() {
                    return s.hasNext();
                }

                @Override
                public ChangeRecord next() {
                    return s.next();
                }

                @Override
                public void close() {
                    s.close();
                }
            };
        };
    }
}
