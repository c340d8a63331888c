package dev.tributary.cql.ast;

import java.util.Objects;

/**
 * One field of {@code CREATE TYPE}. {@link #typeText()} is the type as written with normalized
 * spacing ({@code map<text, frozen<list<int>>>}), for {@code CqlType.parse(text, resolver)}.
 */
public record FieldSpec(String name, String typeText) {
    public FieldSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(typeText, "typeText");
    }
}
