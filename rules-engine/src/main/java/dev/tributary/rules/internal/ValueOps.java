package dev.tributary.rules.internal;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Locale;
import java.util.UUID;

/**
 * Comparison, conversion and arithmetic on the Java values of the value model, with Oracle's
 * implicit conversions where they make sense: numbers compare numerically whatever their class
 * (BINARY_DOUBLE over BINARY_FLOAT over NUMBER, as Oracle's precedence), a string compares with a
 * number, UUID, timestamp, date, time, boolean or blob by converting the string. Values that
 * cannot be compared give {@link #INCOMPARABLE}; callers turn that into SQL NULL, so evaluating
 * a rule never throws. Pure and thread-safe.
 */
public final class ValueOps {
    /** Returned by {@link #compare} when the two values have no common order. */
    public static final int INCOMPARABLE = Integer.MIN_VALUE;
    private static final HexFormat HEX = HexFormat.of();

    private ValueOps() {
    }

    /** Negative, zero or positive as {@code a} sorts before, with or after {@code b}; or {@link #INCOMPARABLE}. Neither may be null. */
    public static int compare(Object a, Object b) {
        if (a instanceof String sa && b instanceof String sb) {
            return Integer.signum(sa.compareTo(sb));
        }
        if (a instanceof Number na && b instanceof Number nb) {
            return compareNumbers(na, nb);
        }
        if (a instanceof String sa) {
            Object converted = convertString(sa, b);
            return converted == null ? INCOMPARABLE : compare(converted, b);
        }
        if (b instanceof String sb) {
            Object converted = convertString(sb, a);
            return converted == null ? INCOMPARABLE : compare(a, converted);
        }
        if (a instanceof byte[] ba && b instanceof byte[] bb) {
            return Integer.signum(Arrays.compareUnsigned(ba, bb));
        }
        if (a instanceof Boolean x && b instanceof Boolean y) {
            return Boolean.compare(x, y);
        }
        if (a.getClass() == b.getClass() && a instanceof Comparable<?>) {
            @SuppressWarnings("unchecked")
            Comparable<Object> ca = (Comparable<Object>) a;
            return Integer.signum(ca.compareTo(b));
        }
        return a.equals(b) ? 0 : INCOMPARABLE;
    }

    /** 1 if equal, 0 if not, -1 if the values cannot be compared. Neither may be null. */
    public static int sqlEquals(Object a, Object b) {
        if (a instanceof String sa && b instanceof String sb) {
            return sa.equals(sb) ? 1 : 0;
        }
        int c = compare(a, b);
        if (c == INCOMPARABLE) {
            // values of one class with no order (collections, say) still have equality
            if (a.getClass() == b.getClass() || (a instanceof java.util.Collection<?> && b instanceof java.util.Collection<?>)
                    || (a instanceof java.util.Map<?, ?> && b instanceof java.util.Map<?, ?>)) {
                return a.equals(b) ? 1 : 0;
            }
            return -1;
        }
        return c == 0 ? 1 : 0;
    }

    static int compareNumbers(Number a, Number b) {
        if (isIntegral(a) && isIntegral(b)) {
            return Long.compare(a.longValue(), b.longValue());
        }
        if (a instanceof Double || b instanceof Double) {
            return Integer.signum(Double.compare(a.doubleValue(), b.doubleValue()));
        }
        if (a instanceof Float || b instanceof Float) {
            return Integer.signum(Float.compare(a.floatValue(), b.floatValue()));
        }
        return toBigDecimal(a).compareTo(toBigDecimal(b));
    }

    private static boolean isIntegral(Number n) {
        return n instanceof Integer || n instanceof Long || n instanceof Short || n instanceof Byte;
    }

    public static BigDecimal toBigDecimal(Number n) {
        if (n instanceof BigDecimal bd) {
            return bd;
        }
        if (n instanceof BigInteger bi) {
            return new BigDecimal(bi);
        }
        if (isIntegral(n)) {
            return BigDecimal.valueOf(n.longValue());
        }
        if (n instanceof Double || n instanceof Float) {
            return new BigDecimal(n.doubleValue());
        }
        return new BigDecimal(n.toString());
    }

    /** The string converted to the class of {@code target}'s family, or null if it does not convert. */
    private static Object convertString(String s, Object target) {
        String t = s.strip();
        try {
            if (target instanceof Number) {
                return new BigDecimal(t);
            }
            if (target instanceof UUID) {
                return UUID.fromString(t);
            }
            if (target instanceof Instant) {
                return parseTimestamp(t);
            }
            if (target instanceof LocalDate) {
                return LocalDate.parse(t);
            }
            if (target instanceof LocalTime) {
                return LocalTime.parse(t);
            }
            if (target instanceof Boolean) {
                if (t.equalsIgnoreCase("true")) {
                    return Boolean.TRUE;
                }
                if (t.equalsIgnoreCase("false")) {
                    return Boolean.FALSE;
                }
                return null;
            }
            if (target instanceof byte[]) {
                return parseHex(t);
            }
        } catch (IllegalArgumentException | DateTimeParseException e) {
            return null;
        }
        return null;
    }

    /** ISO-8601 instant, or {@code yyyy-mm-dd[ hh:mm[:ss[.f]]]} in UTC. */
    public static Instant parseTimestamp(String text) {
        String t = text.strip();
        try {
            return Instant.parse(t);
        } catch (DateTimeParseException e) {
            String iso = t.replace(' ', 'T');
            if (iso.length() == 10) {
                return LocalDate.parse(iso).atStartOfDay().toInstant(ZoneOffset.UTC);
            }
            return LocalDateTime.parse(iso).toInstant(ZoneOffset.UTC);
        }
    }

    /** Hex digits with an optional {@code 0x} prefix. */
    public static byte[] parseHex(String text) {
        String h = text.startsWith("0x") || text.startsWith("0X") ? text.substring(2) : text;
        return HEX.parseHex(h);
    }

    /** The text form used by LIKE, {@code ||} and TO_CHAR: strings as they are, blobs as upper-case hex. */
    public static String toText(Object v) {
        if (v instanceof String s) {
            return s;
        }
        if (v instanceof byte[] b) {
            return HEX.formatHex(b).toUpperCase(Locale.ROOT);
        }
        if (v instanceof BigDecimal bd) {
            return bd.toPlainString();
        }
        return String.valueOf(v);
    }

    /** The value as a number, converting a numeric string; null if it is not one. */
    public static Number toNumber(Object v) {
        if (v instanceof Number n) {
            return n;
        }
        if (v instanceof String s) {
            try {
                return new BigDecimal(s.strip());
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return null;
    }

    /** Arithmetic on two numbers: '+', '-', '*', '/'; null when either is not a number or on division by zero. */
    public static Object arithmetic(char op, Object a, Object b) {
        Number x = toNumber(a);
        Number y = toNumber(b);
        if (x == null || y == null) {
            return null;
        }
        if (x instanceof Double || y instanceof Double || x instanceof Float || y instanceof Float) {
            double dx = x.doubleValue();
            double dy = y.doubleValue();
            return switch (op) {
                case '+' -> dx + dy;
                case '-' -> dx - dy;
                case '*' -> dx * dy;
                default -> dy == 0 ? null : dx / dy;
            };
        }
        if (isIntegral(x) && isIntegral(y) && op != '/') {
            long lx = x.longValue();
            long ly = y.longValue();
            try {
                return switch (op) {
                    case '+' -> Math.addExact(lx, ly);
                    case '-' -> Math.subtractExact(lx, ly);
                    default -> Math.multiplyExact(lx, ly);
                };
            } catch (ArithmeticException overflow) {
                // fall through to exact decimal arithmetic
            }
        }
        BigDecimal bx = toBigDecimal(x);
        BigDecimal by = toBigDecimal(y);
        return switch (op) {
            case '+' -> bx.add(by);
            case '-' -> bx.subtract(by);
            case '*' -> bx.multiply(by);
            default -> by.signum() == 0 ? null : bx.divide(by, MathContext.DECIMAL128);
        };
    }
}
