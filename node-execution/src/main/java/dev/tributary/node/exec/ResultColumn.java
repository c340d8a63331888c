package dev.tributary.node.exec;

import dev.tributary.dictionary.types.CqlType;

/** A column of a result: its display name and type. */
public record ResultColumn(String name, CqlType type) {
}
