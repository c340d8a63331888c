package dev.tributary.node.apply;

import dev.tributary.capture.apply.ApplyErrorException;
import dev.tributary.capture.lcr.LcrColumn;
import dev.tributary.capture.lcr.RowLcr;
import dev.tributary.node.capture.LcrJson;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

/** How both destinations find the row a change names: by the destination table's primary key. */
final class DestinationRows {
    private DestinationRows() {
    }

    /**
     * The change's values of the destination's key columns, in their order.
     *
     * @param table the destination table, for the error
     * @throws ApplyErrorException when the change lacks one
     */
    static List<LcrColumn> key(RowLcr row, List<String> keyColumns, String table) {
        List<LcrColumn> key = new ArrayList<>(keyColumns.size());
        for (String k : keyColumns) {
            LcrColumn v = row.column(k);
            if (v == null || v.value() == null) {
                throw new ApplyErrorException(ApplyErrorException.DESTINATION_ERROR, row.commandType() + " of "
                        + row.objectOwner() + "." + row.objectName() + ": the change carries no value for key column " + k
                        + " of the destination table " + table);
            }
            key.add(v);
        }
        return key;
    }

    /** The columns of an image (null: none) that are not in the key. */
    static List<LcrColumn> nonKey(List<String> keyColumns, List<LcrColumn> image) {
        return image == null ? List.of() : image.stream().filter(c -> !keyColumns.contains(c.name())).toList();
    }

    /** A row's key as the errors name it: (k1=v1, k2=v2). */
    static String keyText(List<LcrColumn> key) {
        StringJoiner j = new StringJoiner(", ", "(", ")");
        key.forEach(k -> j.add(k.name() + "=" + LcrJson.valueJson(k.value())));
        return j.toString();
    }
}
