package dev.tributary.rules.transform;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Adds {@code column} with {@code value} to the chosen images of row LCRs of
 * {@code tableOwner.tableName}. Only an image the LCR has is touched (an INSERT gets no old
 * image), and a column the image already has keeps its value. {@code value} is a value-model
 * object ({@code null} for NULL; byte[] for a blob); the catalog's codec stores the scalar types.
 */
public record AddColumn(String tableOwner, String tableName, String column, Object value, ValueType valueType,
                        int stepNumber) implements DeclarativeTransformation {
    public AddColumn {
        Objects.requireNonNull(tableOwner, "tableOwner");
        Objects.requireNonNull(tableName, "tableName");
        Objects.requireNonNull(column, "column");
        Objects.requireNonNull(valueType, "valueType");
        value = value instanceof byte[] b ? b.clone() : value;
    }

    @Override
    public Object value() {
        return value instanceof byte[] b ? b.clone() : value;
    }

    @Override
    public int defaultOrder() {
        return 3;
    }

    @Override
    public TransformableLcr apply(TransformableLcr lcr) {
        return lcr.mapImages(tableOwner, tableName, valueType, this::add);
    }

    private Map<String, Object> add(Map<String, Object> image) {
        if (image == null || image.containsKey(column)) {
            return image;
        }
        Map<String, Object> out = new LinkedHashMap<>(image);
        out.put(column, value());
        return out;
    }

    @Override
    public String kindName() {
        return "ADD COLUMN";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AddColumn a && stepNumber == a.stepNumber && valueType == a.valueType
                && tableOwner.equals(a.tableOwner) && tableName.equals(a.tableName) && column.equals(a.column)
                && Arrays.deepEquals(new Object[] {value}, new Object[] {a.value});
    }

    @Override
    public int hashCode() {
        return Objects.hash(tableOwner, tableName, column, valueType, stepNumber) * 31 + Arrays.deepHashCode(new Object[] {value});
    }
}
