package dev.tributary.cql.ast;

import java.math.BigInteger;
import java.util.Objects;

/** An integer literal of any size, sign folded in ({@code -5} is {@code IntegerLit(-5)}). */
public record IntegerLit(BigInteger value) implements Term {
    public IntegerLit {
        Objects.requireNonNull(value, "value");
    }

    public static IntegerLit of(long value) {
        return new IntegerLit(BigInteger.valueOf(value));
    }

    @Override
    public String cql() {
        return value.toString();
    }
}
