package dev.tributary.cql.ast;

import java.util.List;
import java.util.Objects;

/**
 * {@code DELETE [selections] FROM [ks.]t [USING TIMESTAMP t] WHERE relations [IF EXISTS]}. An empty
 * {@link #columns()} deletes whole rows (or partitions, or ranges, as the WHERE clause says).
 * {@link #using()} never has a TTL.
 */
public record Delete(QualifiedName table, List<Selection> columns, Using using, List<Relation> where,
                     boolean ifExists) implements ModificationStatement {
    public Delete {
        Objects.requireNonNull(table, "table");
        columns = List.copyOf(columns);
        Objects.requireNonNull(using, "using");
        where = List.copyOf(where);
    }
}
