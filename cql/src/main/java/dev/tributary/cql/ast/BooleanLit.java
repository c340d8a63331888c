package dev.tributary.cql.ast;

/** {@code true} or {@code false}. */
public record BooleanLit(boolean value) implements Term {
    @Override
    public String cql() {
        return Boolean.toString(value);
    }
}
