package dev.tributary.rules.transform;

import java.util.Objects;

/** Renames the schema (keyspace) of row LCRs of {@code fromSchema} to {@code toSchema}. */
public record RenameSchema(String fromSchema, String toSchema, int stepNumber) implements DeclarativeTransformation {
    public RenameSchema {
        Objects.requireNonNull(fromSchema, "fromSchema");
        Objects.requireNonNull(toSchema, "toSchema");
    }

    @Override
    public int defaultOrder() {
        return 5;
    }

    @Override
    public TransformableLcr apply(TransformableLcr lcr) {
        return lcr.objectOwner().equals(fromSchema) ? lcr.withObjectOwner(toSchema) : lcr;
    }

    @Override
    public String kindName() {
        return "RENAME SCHEMA";
    }
}
