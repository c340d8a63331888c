package dev.tributary.cql.ast;

import dev.tributary.cql.lexer.DurationLiterals;
import dev.tributary.dictionary.types.CqlDuration;
import java.util.Objects;

/** A duration constant ({@code 1h30m}, {@code 2d}, {@code P1DT2H}); the sign is folded in. */
public record DurationLit(CqlDuration value) implements Term {
    public DurationLit {
        Objects.requireNonNull(value, "value");
    }

    @Override
    public String cql() {
        return DurationLiterals.format(value);
    }
}
