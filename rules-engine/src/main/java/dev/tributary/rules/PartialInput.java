package dev.tributary.rules;

import dev.tributary.rules.eval.ColumnLookup;
import dev.tributary.rules.eval.RuleInput;
import dev.tributary.rules.eval.ValueSide;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * What prefiltering knows about a change before it becomes an LCR: source database, owner,
 * object name, command type, DML or DDL, and the tag. Names are in rule form (see
 * {@link RuleInput}). Immutable and thread-safe; the tag is copied in and out.
 */
public record PartialInput(String sourceDatabaseName, String objectOwner, String objectName,
                           String commandType, boolean ddl, byte[] tag) implements RuleInput {

    public PartialInput {
        Objects.requireNonNull(commandType, "commandType");
        tag = tag == null ? null : tag.clone();
    }

    /** A row change ({@code :dml}) with a NULL tag. */
    public static PartialInput dml(String sourceDatabaseName, String owner, String name, String commandType) {
        return new PartialInput(sourceDatabaseName, owner, name, commandType, false, null);
    }

    /** A DDL change ({@code :ddl}) with a NULL tag. */
    public static PartialInput ddl(String sourceDatabaseName, String owner, String name, String commandType) {
        return new PartialInput(sourceDatabaseName, owner, name, commandType, true, null);
    }

    /** The same change with another tag ({@code null} for NULL). */
    public PartialInput withTag(byte[] newTag) {
        return new PartialInput(sourceDatabaseName, objectOwner, objectName, commandType, ddl, newTag);
    }

    @Override
    public byte[] tag() {
        return tag == null ? null : tag.clone();
    }

    @Override
    public boolean isNullTag() {
        return tag == null;
    }

    @Override
    public boolean isDdl() {
        return ddl;
    }

    @Override
    public String objectType() {
        return null;
    }

    @Override
    public String baseTableOwner() {
        return null;
    }

    @Override
    public String baseTableName() {
        return null;
    }

    @Override
    public ColumnLookup value(ValueSide side, String column) {
        throw new UnsupportedOperationException("a partial input has no column values");
    }

    @Override
    public boolean isPartial() {
        return true;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PartialInput p
                && ddl == p.ddl
                && Objects.equals(sourceDatabaseName, p.sourceDatabaseName)
                && Objects.equals(objectOwner, p.objectOwner)
                && Objects.equals(objectName, p.objectName)
                && commandType.equals(p.commandType)
                && Arrays.equals(tag, p.tag);
    }

    @Override
    public int hashCode() {
        return Objects.hash(sourceDatabaseName, objectOwner, objectName, commandType, ddl) * 31 + Arrays.hashCode(tag);
    }

    @Override
    public String toString() {
        return "PartialInput[" + (ddl ? "DDL " : "DML ") + commandType + " " + objectOwner + "." + objectName
                + " from " + sourceDatabaseName + ", tag=" + (tag == null ? "NULL" : "0x" + HexFormat.of().formatHex(tag)) + "]";
    }
}
