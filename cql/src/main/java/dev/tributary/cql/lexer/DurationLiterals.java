package dev.tributary.cql.lexer;

import dev.tributary.dictionary.types.CqlDuration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Duration text as Cassandra reads it: the unit form {@code 1y2mo3w4d5h6m7s8ms9us10ns} (units in
 * decreasing size, each at most once, {@code µs} also accepted, any case), the ISO-8601 forms
 * {@code P1Y2M3DT4H5M6S} and {@code P3W}, and the alternative ISO form
 * {@code P0001-02-03T04:05:06}; each may start with {@code -}. Stateless and thread-safe.
 */
public final class DurationLiterals {
    private static final long NANOS_PER_MICRO = 1_000L;
    private static final long NANOS_PER_MILLI = 1_000_000L;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final long NANOS_PER_MINUTE = 60 * NANOS_PER_SECOND;
    private static final long NANOS_PER_HOUR = 60 * NANOS_PER_MINUTE;

    /** Units in the order they must be written; longer spellings before their prefixes when matching. */
    private static final String[] UNITS = {"y", "mo", "w", "d", "h", "m", "s", "ms", "us", "ns"};
    private static final Pattern ISO = Pattern.compile(
            "P(?:(\\d+)Y)?(?:(\\d+)M)?(?:(\\d+)D)?(?:T(?:(\\d+)H)?(?:(\\d+)M)?(?:(\\d+)S)?)?",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern ISO_WEEK = Pattern.compile("P(\\d+)W", Pattern.CASE_INSENSITIVE);
    private static final Pattern ISO_ALTERNATIVE = Pattern.compile(
            "P(\\d{4})-(\\d{2})-(\\d{2})T(\\d{2}):(\\d{2}):(\\d{2})", Pattern.CASE_INSENSITIVE);

    private DurationLiterals() {
    }

    /** True when {@code word} is a whole ISO-8601 duration ({@code P1D}, {@code PT2H}, {@code P3W}). */
    public static boolean isIsoDuration(String word) {
        Matcher m = ISO.matcher(word);
        if (m.matches()) {
            return hasIsoParts(word, m);
        }
        return ISO_WEEK.matcher(word).matches();
    }

    /** The length of an alternative ISO duration starting at {@code offset}, or 0. */
    public static int alternativeIsoLength(CharSequence s, int offset) {
        Matcher m = ISO_ALTERNATIVE.matcher(s);
        m.region(offset, s.length());
        return m.lookingAt() ? m.end() - offset : 0;
    }

    /**
     * Parses a duration in any accepted form.
     *
     * @throws IllegalArgumentException naming the problem (malformed, units out of order, or a
     *                                  component too large)
     */
    public static CqlDuration parse(String text) {
        boolean negative = text.startsWith("-");
        String body = negative ? text.substring(1) : text;
        if (body.isEmpty()) {
            throw new IllegalArgumentException("empty duration");
        }
        Builder b = new Builder();
        char first = body.charAt(0);
        if (first == 'P' || first == 'p') {
            parseIso(body, b);
        } else {
            parseUnits(body, b);
        }
        return b.build(negative);
    }

    private static void parseIso(String body, Builder b) {
        Matcher alt = ISO_ALTERNATIVE.matcher(body);
        if (alt.matches()) {
            b.add(0, alt.group(1));
            b.add(1, alt.group(2));
            b.add(3, alt.group(3));
            b.add(4, alt.group(4));
            b.add(5, alt.group(5));
            b.add(6, alt.group(6));
            return;
        }
        Matcher week = ISO_WEEK.matcher(body);
        if (week.matches()) {
            b.add(2, week.group(1));
            return;
        }
        Matcher m = ISO.matcher(body);
        if (!m.matches() || !hasIsoParts(body, m)) {
            throw new IllegalArgumentException("not an ISO-8601 duration: " + body);
        }
        int[] unitOf = {0, 1, 3, 4, 5, 6};
        for (int g = 1; g <= 6; g++) {
            if (m.group(g) != null) {
                b.add(unitOf[g - 1], m.group(g));
            }
        }
    }

    private static boolean hasIsoParts(String word, Matcher m) {
        boolean any = false;
        for (int g = 1; g <= 6; g++) {
            any |= m.group(g) != null;
        }
        boolean hasT = word.indexOf('T') >= 0 || word.indexOf('t') >= 0;
        boolean timeParts = m.group(4) != null || m.group(5) != null || m.group(6) != null;
        return any && (!hasT || timeParts);
    }

    private static void parseUnits(String body, Builder b) {
        String lower = body.toLowerCase(Locale.ROOT).replace('µ', 'u');
        int i = 0;
        int lastUnit = -1;
        if (lower.isEmpty() || !Character.isDigit(lower.charAt(0))) {
            throw new IllegalArgumentException("a duration starts with a number: " + body);
        }
        while (i < lower.length()) {
            int st = i;
            while (i < lower.length() && isAsciiDigit(lower.charAt(i))) {
                i++;
            }
            if (st == i) {
                throw new IllegalArgumentException("expected a number at '" + lower.substring(i) + "'");
            }
            String digits = lower.substring(st, i);
            int unit = matchUnit(lower, i);
            if (unit < 0) {
                throw new IllegalArgumentException("missing or unknown unit after " + digits);
            }
            if (unit <= lastUnit) {
                throw new IllegalArgumentException("unit " + UNITS[unit] + " given out of order or twice");
            }
            lastUnit = unit;
            i += UNITS[unit].length();
            b.add(unit, digits);
        }
    }

    /** The unit at {@code i}, preferring two-letter units (mo, ms, us, ns) over one-letter ones. */
    private static int matchUnit(String s, int i) {
        int best = -1;
        for (int u = 0; u < UNITS.length; u++) {
            if (s.startsWith(UNITS[u], i) && (best < 0 || UNITS[u].length() > UNITS[best].length())) {
                best = u;
            }
        }
        return best;
    }

    private static boolean isAsciiDigit(char c) {
        return c >= '0' && c <= '9';
    }

    /** Writes a duration the way Cassandra prints one ({@code 1y2mo3d4h5m6s7ms8us9ns}, {@code 0s} for zero). */
    public static String format(CqlDuration d) {
        boolean negative = d.months() < 0 || d.days() < 0 || d.nanos() < 0;
        long months = Math.abs((long) d.months());
        long days = Math.abs((long) d.days());
        long nanos = d.nanos() == Long.MIN_VALUE ? Long.MAX_VALUE : Math.abs(d.nanos());
        StringBuilder sb = new StringBuilder();
        if (negative) {
            sb.append('-');
        }
        append(sb, months / 12, "y");
        append(sb, months % 12, "mo");
        append(sb, days, "d");
        append(sb, nanos / NANOS_PER_HOUR, "h");
        nanos %= NANOS_PER_HOUR;
        append(sb, nanos / NANOS_PER_MINUTE, "m");
        nanos %= NANOS_PER_MINUTE;
        append(sb, nanos / NANOS_PER_SECOND, "s");
        nanos %= NANOS_PER_SECOND;
        append(sb, nanos / NANOS_PER_MILLI, "ms");
        nanos %= NANOS_PER_MILLI;
        append(sb, nanos / NANOS_PER_MICRO, "us");
        append(sb, nanos % NANOS_PER_MICRO, "ns");
        if (sb.length() == (negative ? 1 : 0)) {
            sb.append("0s");
        }
        return sb.toString();
    }

    private static void append(StringBuilder sb, long value, String unit) {
        if (value != 0) {
            sb.append(value).append(unit);
        }
    }

    /** Sums components into months, days and nanoseconds, refusing overflow. */
    private static final class Builder {
        private long months;
        private long days;
        private long nanos;

        void add(int unit, String digits) {
            long v;
            try {
                v = Long.parseLong(digits);
            } catch (NumberFormatException e) {
                throw tooLarge();
            }
            try {
                switch (unit) {
                    case 0 -> months = Math.addExact(months, Math.multiplyExact(v, 12L));
                    case 1 -> months = Math.addExact(months, v);
                    case 2 -> days = Math.addExact(days, Math.multiplyExact(v, 7L));
                    case 3 -> days = Math.addExact(days, v);
                    case 4 -> nanos = Math.addExact(nanos, Math.multiplyExact(v, NANOS_PER_HOUR));
                    case 5 -> nanos = Math.addExact(nanos, Math.multiplyExact(v, NANOS_PER_MINUTE));
                    case 6 -> nanos = Math.addExact(nanos, Math.multiplyExact(v, NANOS_PER_SECOND));
                    case 7 -> nanos = Math.addExact(nanos, Math.multiplyExact(v, NANOS_PER_MILLI));
                    case 8 -> nanos = Math.addExact(nanos, Math.multiplyExact(v, NANOS_PER_MICRO));
                    default -> nanos = Math.addExact(nanos, v);
                }
            } catch (ArithmeticException e) {
                throw tooLarge();
            }
        }

        CqlDuration build(boolean negative) {
            if (months > Integer.MAX_VALUE || days > Integer.MAX_VALUE) {
                throw tooLarge();
            }
            int sign = negative ? -1 : 1;
            return new CqlDuration(sign * (int) months, sign * (int) days, sign * nanos);
        }

        private static IllegalArgumentException tooLarge() {
            return new IllegalArgumentException("duration too large (months and days must fit 32 bits, nanoseconds 64 bits)");
        }
    }
}
