package dev.tributary.rules.transform;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Renames column {@code fromColumn} to {@code toColumn} in the chosen images of row LCRs of
 * {@code tableOwner.tableName}, keeping the column's position. If the image already has a
 * column named {@code toColumn}, the renamed column replaces it.
 */
public record RenameColumn(String tableOwner, String tableName, String fromColumn, String toColumn,
                           ValueType valueType, int stepNumber) implements DeclarativeTransformation {
    public RenameColumn {
        Objects.requireNonNull(tableOwner, "tableOwner");
        Objects.requireNonNull(tableName, "tableName");
        Objects.requireNonNull(fromColumn, "fromColumn");
        Objects.requireNonNull(toColumn, "toColumn");
        Objects.requireNonNull(valueType, "valueType");
    }

    @Override
    public int defaultOrder() {
        return 2;
    }

    @Override
    public TransformableLcr apply(TransformableLcr lcr) {
        return lcr.mapImages(tableOwner, tableName, valueType, this::rename);
    }

    private Map<String, Object> rename(Map<String, Object> image) {
        if (image == null || !image.containsKey(fromColumn)) {
            return image;
        }
        Map<String, Object> out = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : image.entrySet()) {
            if (e.getKey().equals(fromColumn)) {
                out.put(toColumn, e.getValue());
            } else if (!e.getKey().equals(toColumn)) {
                out.put(e.getKey(), e.getValue());
            }
        }
        return out;
    }

    @Override
    public String kindName() {
        return "RENAME COLUMN";
    }
}
