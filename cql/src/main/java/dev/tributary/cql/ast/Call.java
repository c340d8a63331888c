package dev.tributary.cql.ast;

import java.util.List;
import java.util.Objects;

/**
 * {@code CALL package.procedure(arg, ..., name => value, ...)}. {@link #procedure()} holds the
 * package in {@code keyspace} (e.g. {@code dbms_capture_adm}) and the procedure in {@code name}.
 * Positional arguments come before named ones, and no name is given twice.
 */
public record Call(QualifiedName procedure, List<Argument> arguments) implements Statement {
    public Call {
        Objects.requireNonNull(procedure, "procedure");
        arguments = List.copyOf(arguments);
    }
}
