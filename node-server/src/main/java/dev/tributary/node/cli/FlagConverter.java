package dev.tributary.node.cli;

import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * A flag's optional value: {@code --json} alone is true, {@code --json=false} turns it off (as a
 * properties file writes it, {@code restricted=false}); anything else is refused.
 */
public final class FlagConverter implements ITypeConverter<Boolean> {
    @Override
    public Boolean convert(String value) {
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new TypeConversionException("takes no value (or =true/=false), got '" + value + "'");
        };
    }
}
