package dev.tributary.capture;

import dev.tributary.dictionary.types.Blob;
import dev.tributary.dictionary.types.CqlDuration;
import dev.tributary.dictionary.types.CqlType;

/** The CQL type of a value a transformation added to an LCR, read off its Java class. */
final class LcrTypes {
    private LcrTypes() {
    }

    static CqlType infer(Object v) {
        CqlType.Kind k;
        if (v == null || v instanceof String) {
            k = CqlType.Kind.TEXT;
        } else if (v instanceof Integer) {
            k = CqlType.Kind.INT;
        } else if (v instanceof Long) {
            k = CqlType.Kind.BIGINT;
        } else if (v instanceof Short) {
            k = CqlType.Kind.SMALLINT;
        } else if (v instanceof Byte) {
            k = CqlType.Kind.TINYINT;
        } else if (v instanceof java.math.BigInteger) {
            k = CqlType.Kind.VARINT;
        } else if (v instanceof java.math.BigDecimal) {
            k = CqlType.Kind.DECIMAL;
        } else if (v instanceof Float) {
            k = CqlType.Kind.FLOAT;
        } else if (v instanceof Double) {
            k = CqlType.Kind.DOUBLE;
        } else if (v instanceof Boolean) {
            k = CqlType.Kind.BOOLEAN;
        } else if (v instanceof java.time.Instant) {
            k = CqlType.Kind.TIMESTAMP;
        } else if (v instanceof java.time.LocalDate) {
            k = CqlType.Kind.DATE;
        } else if (v instanceof java.time.LocalTime) {
            k = CqlType.Kind.TIME;
        } else if (v instanceof CqlDuration) {
            k = CqlType.Kind.DURATION;
        } else if (v instanceof Blob) {
            k = CqlType.Kind.BLOB;
        } else if (v instanceof java.util.UUID) {
            k = CqlType.Kind.UUID;
        } else if (v instanceof java.net.InetAddress) {
            k = CqlType.Kind.INET;
        } else {
            throw new IllegalArgumentException("a transformation added a value of unsupported class "
                    + v.getClass().getName() + "; use a scalar CQL value");
        }
        return CqlType.of(k);
    }
}
