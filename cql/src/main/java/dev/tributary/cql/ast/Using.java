package dev.tributary.cql.ast;

/**
 * {@code USING TIMESTAMP t AND TTL s} (also written {@code USING TIMESTAMP t USING TTL s}). Either
 * part is null when not given; each is an {@link IntegerLit} or a {@link BindMarker}. Literal
 * values are checked by the parser: a TTL is within 0..630720000 seconds and a timestamp fits a
 * signed 64-bit number of microseconds.
 */
public record Using(Term timestamp, Term ttl) {
    public static final Using NONE = new Using(null, null);

    public boolean isEmpty() {
        return timestamp == null && ttl == null;
    }
}
