package dev.tributary.cql.ast;

import java.util.Objects;

/**
 * A number with a fraction or an exponent ({@code 1.5}, {@code 2e10}, {@code -3.25E-2}), kept as
 * written so that a decimal column receives it exactly; the sign is part of {@link #text()}.
 */
public record DecimalLit(String text) implements Term {
    public DecimalLit {
        Objects.requireNonNull(text, "text");
    }

    @Override
    public String cql() {
        return text;
    }
}
