package dev.tributary.cql.ast;

import java.util.Objects;

/**
 * A column definition of {@code CREATE TABLE} or {@code ALTER TABLE ... ADD}: name, type as written
 * with normalized spacing (for {@code CqlType.parse(text, resolver)}), and whether it is
 * {@code STATIC}.
 */
public record ColumnSpec(String name, String typeText, boolean isStatic) {
    public ColumnSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(typeText, "typeText");
    }
}
