package dev.tributary.cql.ast;

/** {@code NaN}, {@code Infinity} or {@code -Infinity}; {@link #value()} is the double it denotes. */
public record FloatSpecial(double value) implements Term {
    public static final FloatSpecial NAN = new FloatSpecial(Double.NaN);
    public static final FloatSpecial INFINITY = new FloatSpecial(Double.POSITIVE_INFINITY);
    public static final FloatSpecial NEGATIVE_INFINITY = new FloatSpecial(Double.NEGATIVE_INFINITY);

    public FloatSpecial {
        if (!Double.isNaN(value) && !Double.isInfinite(value)) {
            throw new IllegalArgumentException("not NaN or infinite: " + value);
        }
    }

    @Override
    public String cql() {
        if (Double.isNaN(value)) {
            return "NaN";
        }
        return value > 0 ? "Infinity" : "-Infinity";
    }
}
