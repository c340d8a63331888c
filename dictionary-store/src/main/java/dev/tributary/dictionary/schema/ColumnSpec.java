package dev.tributary.dictionary.schema;

import dev.tributary.dictionary.types.CqlType;
import java.util.Objects;

/** A column as written in {@code CREATE TABLE}, before it is numbered; see {@link TableDef#create}. */
public record ColumnSpec(String name, CqlType type, boolean isStatic) {
    public ColumnSpec {
        SchemaRules.requireName("column", name);
        Objects.requireNonNull(type, "type");
    }

    /** A non-static column. */
    public ColumnSpec(String name, CqlType type) {
        this(name, type, false);
    }
}
