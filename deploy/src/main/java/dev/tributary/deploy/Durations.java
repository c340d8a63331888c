package dev.tributary.deploy;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses command-line durations as docs/REFERENCE.md writes them: {@code 500ms}, {@code 3s}, {@code 1m}, {@code 2h}. */
final class Durations {
    private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m|h)");

    private Durations() {
    }

    static Duration parse(String option, String text) throws UsageException {
        Matcher m = DURATION.matcher(text.trim());
        if (!m.matches()) {
            throw new UsageException(option + " wants a duration such as 500ms, 3s or 1m, got '" + text + "'");
        }
        long n = Long.parseLong(m.group(1));
        Duration d = switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            default -> Duration.ofHours(n);
        };
        if (d.isZero()) {
            throw new UsageException(option + " must be positive, got '" + text + "'");
        }
        return d;
    }
}
