package dev.tributary.cql.ast;

import java.util.List;
import java.util.Objects;

/** {@code CREATE TYPE [IF NOT EXISTS] [ks.]name (field type, ...)}; field names are distinct. */
public record CreateType(boolean ifNotExists, QualifiedName name, List<FieldSpec> fields) implements Statement {
    public CreateType {
        Objects.requireNonNull(name, "name");
        fields = List.copyOf(fields);
    }
}
