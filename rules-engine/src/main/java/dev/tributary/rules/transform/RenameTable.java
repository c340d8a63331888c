package dev.tributary.rules.transform;

import java.util.Objects;

/** Renames {@code fromOwner.fromName} to {@code toOwner.toName} in row LCRs of that table. */
public record RenameTable(String fromOwner, String fromName, String toOwner, String toName, int stepNumber)
        implements DeclarativeTransformation {
    public RenameTable {
        Objects.requireNonNull(fromOwner, "fromOwner");
        Objects.requireNonNull(fromName, "fromName");
        Objects.requireNonNull(toOwner, "toOwner");
        Objects.requireNonNull(toName, "toName");
    }

    @Override
    public int defaultOrder() {
        return 4;
    }

    @Override
    public TransformableLcr apply(TransformableLcr lcr) {
        if (!lcr.isOf(fromOwner, fromName)) {
            return lcr;
        }
        return lcr.withObjectOwner(toOwner).withObjectName(toName);
    }

    @Override
    public String kindName() {
        return "RENAME TABLE";
    }
}
