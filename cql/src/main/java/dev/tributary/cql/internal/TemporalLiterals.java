package dev.tributary.cql.internal;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Timestamp, date and time strings as Cassandra accepts them. A timestamp without a zone is UTC
 * (Cassandra would use the server's zone; a cluster's nodes must agree, so Tributary fixes UTC).
 * Stateless and thread-safe; every parse throws {@link IllegalArgumentException} with the reason.
 */
public final class TemporalLiterals {
    private static final Pattern TIMESTAMP = Pattern.compile(
            "(\\d{4})-(\\d{1,2})-(\\d{1,2})"
                    + "(?:[ Tt](\\d{1,2}):(\\d{2})(?::(\\d{2})(?:\\.(\\d{1,9}))?)?)?"
                    + "\\s?(Z|z|UTC|GMT|[+-]\\d{2}(?::?\\d{2})?)?");
    private static final Pattern DATE = Pattern.compile("(\\d{4})-(\\d{1,2})-(\\d{1,2})");
    private static final Pattern TIME = Pattern.compile("(\\d{1,2}):(\\d{2}):(\\d{2})(?:\\.(\\d{1,9}))?");
    private static final Pattern INTEGER = Pattern.compile("-?\\d{1,19}");
    private static final Pattern ZONE = Pattern.compile("([+-])(\\d{2}):?(\\d{2})?");
    /** The integer form of a date counts days with 1970-01-01 at 2^31. */
    public static final long DATE_EPOCH_OFFSET = 1L << 31;
    public static final long MAX_DATE_NUMBER = (1L << 32) - 1;
    public static final long MAX_TIME_NANOS = 86_399_999_999_999L;

    private TemporalLiterals() {
    }

    /**
     * {@code 2020-03-25 12:44:43.006+0000}, {@code 2020-03-25T12:44:43Z}, {@code 2020-03-25 12:44},
     * {@code 2020-03-25}, or milliseconds since the epoch; fractions beyond milliseconds are cut off.
     */
    public static Instant parseTimestamp(String text) {
        String s = text.trim();
        if (INTEGER.matcher(s).matches()) {
            try {
                return Instant.ofEpochMilli(Long.parseLong(s));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("milliseconds out of range");
            }
        }
        Matcher m = TIMESTAMP.matcher(s);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a timestamp (expected yyyy-mm-dd[ hh:mm[:ss[.fff]]][zone])");
        }
        try {
            LocalDate date = LocalDate.of(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                    Integer.parseInt(m.group(3)));
            LocalTime time = LocalTime.MIDNIGHT;
            if (m.group(4) != null) {
                int seconds = m.group(6) == null ? 0 : Integer.parseInt(m.group(6));
                time = LocalTime.of(Integer.parseInt(m.group(4)), Integer.parseInt(m.group(5)), seconds,
                        fractionNanos(m.group(7)));
            }
            Instant instant = LocalDateTime.of(date, time).toInstant(zone(m.group(8)));
            return instant.truncatedTo(ChronoUnit.MILLIS);
        } catch (DateTimeException e) {
            throw new IllegalArgumentException(e.getMessage());
        }
    }

    /** {@code 2020-01-01}, or the day number with 1970-01-01 at 2^31. */
    public static LocalDate parseDate(String text) {
        String s = text.trim();
        if (INTEGER.matcher(s).matches()) {
            return dateFromNumber(Long.parseLong(s));
        }
        Matcher m = DATE.matcher(s);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a date (expected yyyy-mm-dd)");
        }
        try {
            return LocalDate.of(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)));
        } catch (DateTimeException e) {
            throw new IllegalArgumentException(e.getMessage());
        }
    }

    public static LocalDate dateFromNumber(long n) {
        if (n < 0 || n > MAX_DATE_NUMBER) {
            throw new IllegalArgumentException("date number out of range 0.." + MAX_DATE_NUMBER);
        }
        return LocalDate.ofEpochDay(n - DATE_EPOCH_OFFSET);
    }

    /** {@code 12:34:56} or {@code 12:34:56.123456789}, or nanoseconds since midnight. */
    public static LocalTime parseTime(String text) {
        String s = text.trim();
        if (INTEGER.matcher(s).matches()) {
            return timeFromNanos(Long.parseLong(s));
        }
        Matcher m = TIME.matcher(s);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a time (expected hh:mm:ss[.fffffffff])");
        }
        try {
            return LocalTime.of(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)),
                    fractionNanos(m.group(4)));
        } catch (DateTimeException e) {
            throw new IllegalArgumentException(e.getMessage());
        }
    }

    public static LocalTime timeFromNanos(long nanos) {
        if (nanos < 0 || nanos > MAX_TIME_NANOS) {
            throw new IllegalArgumentException("nanoseconds of the day out of range 0.." + MAX_TIME_NANOS);
        }
        return LocalTime.ofNanoOfDay(nanos);
    }

    private static int fractionNanos(String digits) {
        if (digits == null) {
            return 0;
        }
        StringBuilder sb = new StringBuilder(digits);
        while (sb.length() < 9) {
            sb.append('0');
        }
        return Integer.parseInt(sb.toString());
    }

    private static ZoneOffset zone(String z) {
        if (z == null || z.equals("Z") || z.equals("z") || z.equals("UTC") || z.equals("GMT")) {
            return ZoneOffset.UTC;
        }
        Matcher m = ZONE.matcher(z);
        if (!m.matches()) {
            throw new IllegalArgumentException("bad zone offset " + z);
        }
        int hours = Integer.parseInt(m.group(2));
        int minutes = m.group(3) == null ? 0 : Integer.parseInt(m.group(3));
        int sign = m.group(1).equals("-") ? -1 : 1;
        return ZoneOffset.ofHoursMinutes(sign * hours, sign * minutes);
    }
}
