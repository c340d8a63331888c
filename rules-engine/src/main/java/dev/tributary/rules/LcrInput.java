package dev.tributary.rules;

import dev.tributary.rules.eval.ColumnLookup;
import dev.tributary.rules.eval.RuleInput;
import dev.tributary.rules.eval.ValueSide;
import java.util.Arrays;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A complete change as full evaluation sees it: a row LCR (with old and/or new values) or a DDL
 * LCR. Names are in rule form (see {@link RuleInput}); column maps are keyed by CQL column
 * name, may hold {@code null} values (present and NULL), and keep their insertion order.
 * A {@code null} map means the image is absent (an INSERT has no old values, a DELETE no new).
 * Immutable and thread-safe; build one with {@link #builder()}.
 */
public record LcrInput(String sourceDatabaseName, String objectOwner, String objectName, String commandType,
                       boolean ddl, byte[] tag, String objectType, String baseTableOwner, String baseTableName,
                       Map<String, Object> oldValues, Map<String, Object> newValues) implements RuleInput {

    public LcrInput {
        Objects.requireNonNull(commandType, "commandType");
        tag = tag == null ? null : tag.clone();
        oldValues = oldValues == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(oldValues));
        newValues = newValues == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(newValues));
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder initialised from this input. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.sourceDatabaseName = sourceDatabaseName;
        b.objectOwner = objectOwner;
        b.objectName = objectName;
        b.commandType = commandType;
        b.ddl = ddl;
        b.tag = tag;
        b.objectType = objectType;
        b.baseTableOwner = baseTableOwner;
        b.baseTableName = baseTableName;
        b.oldValues = oldValues == null ? null : new LinkedHashMap<>(oldValues);
        b.newValues = newValues == null ? null : new LinkedHashMap<>(newValues);
        return b;
    }

    /** The partial view of this change, as prefiltering would have seen it. */
    public PartialInput toPartial() {
        return new PartialInput(sourceDatabaseName, objectOwner, objectName, commandType, ddl, tag);
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
    public ColumnLookup value(ValueSide side, String column) {
        Map<String, Object> image = side == ValueSide.OLD ? oldValues : newValues;
        if (image == null || !image.containsKey(column)) {
            return ColumnLookup.absent();
        }
        return ColumnLookup.of(image.get(column));
    }

    @Override
    public boolean isPartial() {
        return false;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LcrInput l
                && ddl == l.ddl
                && Objects.equals(sourceDatabaseName, l.sourceDatabaseName)
                && Objects.equals(objectOwner, l.objectOwner)
                && Objects.equals(objectName, l.objectName)
                && commandType.equals(l.commandType)
                && Arrays.equals(tag, l.tag)
                && Objects.equals(objectType, l.objectType)
                && Objects.equals(baseTableOwner, l.baseTableOwner)
                && Objects.equals(baseTableName, l.baseTableName)
                && Objects.equals(oldValues, l.oldValues)
                && Objects.equals(newValues, l.newValues);
    }

    @Override
    public int hashCode() {
        return Objects.hash(sourceDatabaseName, objectOwner, objectName, commandType, ddl, objectType,
                baseTableOwner, baseTableName, oldValues, newValues) * 31 + Arrays.hashCode(tag);
    }

    @Override
    public String toString() {
        return "LcrInput[" + (ddl ? "DDL " : "ROW ") + commandType + " " + objectOwner + "." + objectName
                + " from " + sourceDatabaseName + ", tag=" + (tag == null ? "NULL" : "0x" + HexFormat.of().formatHex(tag))
                + (ddl ? ", type=" + objectType + ", base=" + baseTableOwner + "." + baseTableName
                       : ", old=" + oldValues + ", new=" + newValues) + "]";
    }

    /** Builds an {@link LcrInput}; not thread-safe. A fresh builder is a DML INSERT with no values. */
    public static final class Builder {
        private String sourceDatabaseName;
        private String objectOwner;
        private String objectName;
        private String commandType = "INSERT";
        private boolean ddl;
        private byte[] tag;
        private String objectType;
        private String baseTableOwner;
        private String baseTableName;
        private Map<String, Object> oldValues;
        private Map<String, Object> newValues;

        private Builder() {
        }

        public Builder sourceDatabaseName(String v) { this.sourceDatabaseName = v; return this; }
        public Builder objectOwner(String v) { this.objectOwner = v; return this; }
        public Builder objectName(String v) { this.objectName = v; return this; }
        /** Sets owner and name at once. */
        public Builder object(String owner, String name) { this.objectOwner = owner; this.objectName = name; return this; }
        public Builder commandType(String v) { this.commandType = v; return this; }
        public Builder ddl(boolean v) { this.ddl = v; return this; }
        public Builder tag(byte[] v) { this.tag = v == null ? null : v.clone(); return this; }
        public Builder objectType(String v) { this.objectType = v; return this; }
        public Builder baseTable(String owner, String name) { this.baseTableOwner = owner; this.baseTableName = name; return this; }

        /** Puts one old value (creating the old image if needed); {@code null} is a NULL value. */
        public Builder oldValue(String column, Object value) {
            if (oldValues == null) {
                oldValues = new LinkedHashMap<>();
            }
            oldValues.put(column, value);
            return this;
        }

        /** Puts one new value (creating the new image if needed); {@code null} is a NULL value. */
        public Builder newValue(String column, Object value) {
            if (newValues == null) {
                newValues = new LinkedHashMap<>();
            }
            newValues.put(column, value);
            return this;
        }

        /** Replaces the old image; {@code null} removes it. */
        public Builder oldValues(Map<String, Object> values) {
            this.oldValues = values == null ? null : new LinkedHashMap<>(values);
            return this;
        }

        /** Replaces the new image; {@code null} removes it. */
        public Builder newValues(Map<String, Object> values) {
            this.newValues = values == null ? null : new LinkedHashMap<>(values);
            return this;
        }

        public LcrInput build() {
            return new LcrInput(sourceDatabaseName, objectOwner, objectName, commandType, ddl, tag, objectType,
                    baseTableOwner, baseTableName, oldValues, newValues);
        }
    }
}
