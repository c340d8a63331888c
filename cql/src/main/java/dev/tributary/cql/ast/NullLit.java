package dev.tributary.cql.ast;

/** {@code null}. All instances are equal; use {@link #INSTANCE}. */
public record NullLit() implements Term {
    public static final NullLit INSTANCE = new NullLit();

    @Override
    public String cql() {
        return "null";
    }
}
