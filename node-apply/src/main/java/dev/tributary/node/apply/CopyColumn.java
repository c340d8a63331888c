package dev.tributary.node.apply;

import dev.tributary.dictionary.types.CqlType;

/** A source table's column as instantiate_table copies it: its name, type and place in the primary key. */
public record CopyColumn(String name, CqlType type, Kind kind) {
    public enum Kind {
        PARTITION_KEY, CLUSTERING, REGULAR
    }

    public boolean key() {
        return kind != Kind.REGULAR;
    }
}
