package dev.tributary.rules.eval;

/**
 * The answer to "what is this column's value in the LCR": either the column is absent from the
 * LCR (an UPDATE carries only the columns it changed plus the logged ones), or it is present
 * and its value is {@link #value()}, which may be {@code null} for a NULL value.
 *
 * <p>Values are the plain Java objects of the value model (String, Integer, Long, BigDecimal,
 * BigInteger, Double, Float, Boolean, Instant, LocalDate, UUID, byte[] for blobs, ...).
 * Conditions treat an absent column as unknown (the rule is then MAYBE, which is not TRUE) and
 * a present NULL as SQL NULL.
 *
 * @param present whether the column is in the LCR's image
 * @param value the value when present; {@code null} for NULL; always {@code null} when absent
 */
public record ColumnLookup(boolean present, Object value) {
    private static final ColumnLookup ABSENT = new ColumnLookup(false, null);
    private static final ColumnLookup NULL = new ColumnLookup(true, null);

    public ColumnLookup {
        if (!present && value != null) {
            throw new IllegalArgumentException("an absent column has no value");
        }
    }

    public static ColumnLookup absent() {
        return ABSENT;
    }

    /** A column present in the LCR with the given value ({@code null} for NULL). */
    public static ColumnLookup of(Object value) {
        return value == null ? NULL : new ColumnLookup(true, value);
    }

    public boolean isNull() {
        return present && value == null;
    }
}
