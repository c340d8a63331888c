package dev.tributary.node.cli;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** picocli's reading of a byte-size option: the {@link Sizes} grammar. */
public final class SizeConverter implements ITypeConverter<Long> {
    @Override
    public Long convert(String value) {
        try {
            return Sizes.parse(value);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }
}
