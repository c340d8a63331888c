package dev.tributary.rules.transform;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The view of a row LCR that rule-based transformations work on: owner, object name, command
 * type and the old and new images. Names are CQL names as stored (lower case for unquoted
 * names), not the rule form conditions compare. Images keep column order, may hold
 * {@code null} values (present and NULL), and are {@code null} when absent (an INSERT has no old
 * image, a DELETE no new one). Immutable and thread-safe: every {@code with...} method returns a
 * new value, which the capture copies back into its LCR.
 */
public record TransformableLcr(String objectOwner, String objectName, String commandType,
                               Map<String, Object> oldValues, Map<String, Object> newValues) {

    public TransformableLcr {
        Objects.requireNonNull(objectOwner, "objectOwner");
        Objects.requireNonNull(objectName, "objectName");
        Objects.requireNonNull(commandType, "commandType");
        oldValues = freeze(oldValues);
        newValues = freeze(newValues);
    }

    private static Map<String, Object> freeze(Map<String, Object> values) {
        return values == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    public TransformableLcr withObjectOwner(String owner) {
        return new TransformableLcr(owner, objectName, commandType, oldValues, newValues);
    }

    public TransformableLcr withObjectName(String name) {
        return new TransformableLcr(objectOwner, name, commandType, oldValues, newValues);
    }

    public TransformableLcr withCommandType(String command) {
        return new TransformableLcr(objectOwner, objectName, command, oldValues, newValues);
    }

    public TransformableLcr withOldValues(Map<String, Object> values) {
        return new TransformableLcr(objectOwner, objectName, commandType, values, newValues);
    }

    public TransformableLcr withNewValues(Map<String, Object> values) {
        return new TransformableLcr(objectOwner, objectName, commandType, oldValues, values);
    }

    /**
     * This LCR with {@code f} applied to the images {@code valueType} chooses (old, new or both),
     * when it is a row LCR of {@code owner.table}; itself otherwise. How the column
     * transformations act.
     */
    public TransformableLcr mapImages(String owner, String table, ValueType valueType,
            java.util.function.UnaryOperator<Map<String, Object>> f) {
        if (!isOf(owner, table)) {
            return this;
        }
        TransformableLcr out = this;
        if (valueType.touchesOld()) {
            out = out.withOldValues(f.apply(out.oldValues()));
        }
        if (valueType.touchesNew()) {
            out = out.withNewValues(f.apply(out.newValues()));
        }
        return out;
    }

    /** Whether this LCR is of the table {@code owner.name} (CQL names, compared exactly). */
    public boolean isOf(String owner, String name) {
        return objectOwner.equals(owner) && objectName.equals(name);
    }
}
