package dev.tributary.node.cli;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one duration grammar of every command line: a number (a decimal fraction allowed) and a
 * unit, {@code ms}, {@code s}, {@code m} or {@code h}, in any case and with blanks around it:
 * {@code 500ms}, {@code 3s}, {@code 1.5s}, {@code 2m}, {@code 1h}. Kept to the millisecond. No
 * sign: what must not be negative cannot be written negative. Whether zero is allowed is the
 * option's business, not the grammar's.
 */
public final class Durations {
    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)");
    /** What a bad value is told it should look like. */
    public static final String EXPECTED = "a duration such as 500ms, 3s or 1m";

    private Durations() {
    }

    /** @throws IllegalArgumentException saying what a duration looks like and quoting {@code text} */
    public static Duration parse(String text) {
        Matcher d = DURATION.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (d.matches()) {
            long unitMillis = switch (d.group(2)) {
                case "ms" -> 1;
                case "s" -> 1_000;
                case "m" -> 60_000;
                default -> 3_600_000;
            };
            BigDecimal millis = new BigDecimal(d.group(1)).multiply(BigDecimal.valueOf(unitMillis))
                    .setScale(0, RoundingMode.HALF_UP);
            if (millis.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) <= 0) {
                return Duration.ofMillis(millis.longValueExact());
            }
        }
        throw new IllegalArgumentException("wants " + EXPECTED + ", got '" + text + "'");
    }

    /**
     * A duration in the grammar {@link #parse} reads back to the same value, in the largest unit
     * that holds it whole ({@code 5s}, {@code 1500ms}, {@code 2m}): for command lines written for
     * another process, and for help texts.
     */
    public static String format(Duration d) {
        long ms = d.toMillis();
        if (ms != 0 && ms % 3_600_000 == 0) {
            return ms / 3_600_000 + "h";
        }
        if (ms != 0 && ms % 60_000 == 0) {
            return ms / 60_000 + "m";
        }
        if (ms % 1_000 == 0) {
            return ms / 1_000 + "s";
        }
        return ms + "ms";
    }
}
