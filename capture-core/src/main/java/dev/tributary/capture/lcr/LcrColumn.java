package dev.tributary.capture.lcr;

import dev.tributary.dictionary.types.CqlType;

/** A column value in an LCR: self-describing, so a stored LCR reads back without a dictionary. */
public record LcrColumn(String name, CqlType type, Object value) {
}
