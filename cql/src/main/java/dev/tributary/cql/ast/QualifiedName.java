package dev.tributary.cql.ast;

import dev.tributary.cql.lexer.Identifiers;
import java.util.Objects;

/**
 * {@code name} or {@code keyspace.name} (a table, a type, or for CALL a package and procedure).
 * {@link #keyspace()} is null when not written.
 */
public record QualifiedName(String keyspace, String name) {
    public QualifiedName {
        Objects.requireNonNull(name, "name");
    }

    public static QualifiedName of(String keyspace, String name) {
        return new QualifiedName(keyspace, name);
    }

    /** The name written back as CQL, quoting parts that need it ({@code ks."MyTable"}). */
    public String cql() {
        String n = Identifiers.quoteIfNeeded(name);
        return keyspace == null ? n : Identifiers.quoteIfNeeded(keyspace) + "." + n;
    }

    @Override
    public String toString() {
        return cql();
    }
}
