package dev.tributary.cql.ast;

import dev.tributary.dictionary.types.Blob;
import java.util.Objects;

/** A hex blob constant {@code 0x0a1b}; {@code 0x} alone is the empty blob. */
public record BlobLit(Blob value) implements Term {
    public BlobLit {
        Objects.requireNonNull(value, "value");
    }

    @Override
    public String cql() {
        return value.toString();
    }
}
