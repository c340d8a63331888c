package dev.tributary.capture.apply;

import java.util.List;
import java.util.Locale;

/**
 * An update conflict handler of one destination table: it resolves a conflict confined to its
 * column list (as Oracle's column groups do); a conflict in a column of no handler's list is an
 * error. For MAXIMUM and MINIMUM the resolution column must be in the list.
 *
 * @param owner the table's keyspace (lower case)
 * @param table the table (lower case)
 */
public record ConflictHandler(String owner, String table, ConflictMethod method, String resolutionColumn,
        List<String> columns) {
    public ConflictHandler {
        columns = columns.stream().map(c -> c.toLowerCase(Locale.ROOT)).toList();
        resolutionColumn = resolutionColumn == null ? null : resolutionColumn.toLowerCase(Locale.ROOT);
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("an update conflict handler needs a column_list");
        }
        if ((method == ConflictMethod.MAXIMUM || method == ConflictMethod.MINIMUM)
                && (resolutionColumn == null || !columns.contains(resolutionColumn))) {
            throw new IllegalArgumentException(method + " needs a resolution_column from its column_list " + columns);
        }
    }

    public String objectName() {
        return owner + "." + table;
    }
}
