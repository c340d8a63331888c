package dev.tributary.capture.lcr;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A row LCR: a change to one row. INSERT has no old values, DELETE no new values, UPDATE both
 * (key columns plus the columns changed, or all columns with a full preimage). Equality is by
 * value, the tag's bytes included, so an LCR read back from the log equals the one written.
 */
public record RowLcr(String sourceDatabaseName, String commandType, String objectOwner, String objectName,
        byte[] tag, String transactionId, long scn, long commitScn, List<LcrColumn> oldValues,
        List<LcrColumn> newValues, List<LcrColumn> extra) implements Lcr {
    public static final String INSERT = "INSERT";
    public static final String UPDATE = "UPDATE";
    public static final String DELETE = "DELETE";

    public RowLcr {
        oldValues = oldValues == null ? null : List.copyOf(oldValues);
        newValues = newValues == null ? null : List.copyOf(newValues);
        extra = List.copyOf(extra);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RowLcr l && scn == l.scn && commitScn == l.commitScn
                && Objects.equals(sourceDatabaseName, l.sourceDatabaseName) && Objects.equals(commandType, l.commandType)
                && Objects.equals(objectOwner, l.objectOwner) && Objects.equals(objectName, l.objectName)
                && Arrays.equals(tag, l.tag) && Objects.equals(transactionId, l.transactionId)
                && Objects.equals(oldValues, l.oldValues) && Objects.equals(newValues, l.newValues)
                && extra.equals(l.extra);
    }

    @Override
    public int hashCode() {
        return Objects.hash(objectOwner, objectName, transactionId, scn, oldValues, newValues) * 31 + Arrays.hashCode(tag);
    }

    /** The new (or else old) value of a column, or null if the LCR does not carry it. */
    public LcrColumn column(String name) {
        LcrColumn c = find(newValues, name);
        return c != null ? c : find(oldValues, name);
    }

    public static LcrColumn find(List<LcrColumn> cols, String name) {
        if (cols != null) {
            for (LcrColumn c : cols) {
                if (c.name().equals(name)) {
                    return c;
                }
            }
        }
        return null;
    }
}
