package dev.tributary.bench;

import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The bench's counts (rows, rates, threads): a whole number with an optional {@code k}
 * (thousand) or {@code m} (million) and {@code _} between digits, so {@code 200k} and
 * {@code 1_000_000} are 200000 and 1000000. Counts, not sizes: sizes are the node's
 * {@code Sizes} grammar.
 */
public final class Counts implements ITypeConverter<Long> {
    @Override
    public Long convert(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT).replace("_", "");
        long factor = 1;
        if (t.endsWith("k")) {
            factor = 1_000;
            t = t.substring(0, t.length() - 1);
        } else if (t.endsWith("m")) {
            factor = 1_000_000;
            t = t.substring(0, t.length() - 1);
        }
        try {
            return Math.multiplyExact(Long.parseLong(t), factor);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new TypeConversionException("wants a whole number, got '" + text + "'");
        }
    }
}
