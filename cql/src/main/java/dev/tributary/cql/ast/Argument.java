package dev.tributary.cql.ast;

import java.util.Objects;

/** A CALL argument: {@code name => value} (name lowercased) or positional ({@link #name()} null). */
public record Argument(String name, Term value) {
    public Argument {
        Objects.requireNonNull(value, "value");
    }
}
