package dev.tributary.node.cli;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one size grammar of every command line: a number of bytes, alone ({@code 16777216}, the
 * spelling every byte option took before units existed) or with a unit in any case: {@code B};
 * {@code KB}, {@code MB}, {@code GB}, {@code TB} in powers of 1000; {@code KiB}, {@code MiB},
 * {@code GiB}, {@code TiB} in powers of 1024 ({@code 16MiB} is 16777216, {@code 16MB} 16000000).
 * A fraction is allowed with a unit ({@code 1.5KiB}) and rounded to the byte. No sign.
 */
public final class Sizes {
    private static final Pattern SIZE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*([a-z]*)");
    private static final Map<String, Long> UNITS = Map.of("", 1L, "b", 1L,
            "kb", 1_000L, "mb", 1_000_000L, "gb", 1_000_000_000L, "tb", 1_000_000_000_000L,
            "kib", 1L << 10, "mib", 1L << 20, "gib", 1L << 30, "tib", 1L << 40);
    /** What a bad value is told it should look like. */
    public static final String EXPECTED = "a size such as 65536, 64KiB, 16MiB or 1GB";

    private Sizes() {
    }

    /** @throws IllegalArgumentException saying what a size looks like and quoting {@code text} */
    public static long parse(String text) {
        Matcher m = SIZE.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (m.matches() && UNITS.containsKey(m.group(2)) && (!m.group(2).isEmpty() || !m.group(1).contains("."))) {
            BigDecimal bytes = new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(UNITS.get(m.group(2))))
                    .setScale(0, RoundingMode.HALF_UP);
            if (bytes.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) <= 0) {
                return bytes.longValueExact();
            }
        }
        throw new IllegalArgumentException("wants " + EXPECTED + ", got '" + text + "'");
    }
}
