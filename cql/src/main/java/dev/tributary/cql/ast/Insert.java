package dev.tributary.cql.ast;

import java.util.List;
import java.util.Objects;

/**
 * {@code INSERT INTO [ks.]t (cols) VALUES (terms) [IF NOT EXISTS] [USING ...]}. The parser
 * guarantees as many values as columns and distinct column names; {@link #using()} is never null.
 */
public record Insert(QualifiedName table, List<String> columns, List<Term> values, boolean ifNotExists,
                     Using using) implements ModificationStatement {
    public Insert {
        Objects.requireNonNull(table, "table");
        columns = List.copyOf(columns);
        values = List.copyOf(values);
        Objects.requireNonNull(using, "using");
    }
}
