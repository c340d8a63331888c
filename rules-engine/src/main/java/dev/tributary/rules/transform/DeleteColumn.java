package dev.tributary.rules.transform;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/** Removes {@code column} from the chosen images of row LCRs of {@code tableOwner.tableName}. */
public record DeleteColumn(String tableOwner, String tableName, String column, ValueType valueType, int stepNumber)
        implements DeclarativeTransformation {
    public DeleteColumn {
        Objects.requireNonNull(tableOwner, "tableOwner");
        Objects.requireNonNull(tableName, "tableName");
        Objects.requireNonNull(column, "column");
        Objects.requireNonNull(valueType, "valueType");
    }

    @Override
    public int defaultOrder() {
        return 1;
    }

    @Override
    public TransformableLcr apply(TransformableLcr lcr) {
        return lcr.mapImages(tableOwner, tableName, valueType, this::remove);
    }

    private Map<String, Object> remove(Map<String, Object> image) {
        if (image == null || !image.containsKey(column)) {
            return image;
        }
        Map<String, Object> out = new LinkedHashMap<>(image);
        out.remove(column);
        return out;
    }

    @Override
    public String kindName() {
        return "DELETE COLUMN";
    }
}
