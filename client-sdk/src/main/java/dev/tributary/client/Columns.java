package dev.tributary.client;

import dev.tributary.client.errors.UnknownColumnException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The columns of a result, shared by its rows, with lookup by name. Immutable. */
final class Columns {
    private static final int AMBIGUOUS = -1;

    private final List<ColumnDefinition> definitions;
    private final Map<String, Integer> exact = new HashMap<>();
    private final Map<String, Integer> folded = new HashMap<>();

    Columns(List<ColumnDefinition> definitions) {
        this.definitions = List.copyOf(definitions);
        for (int i = 0; i < this.definitions.size(); i++) {
            String name = this.definitions.get(i).name();
            exact.putIfAbsent(name, i);
            String lower = name.toLowerCase(Locale.ROOT);
            // Two columns that differ only in case ("A" and a) cannot be found case-insensitively.
            folded.merge(lower, i, (a, b) -> AMBIGUOUS);
        }
    }

    List<ColumnDefinition> definitions() {
        return definitions;
    }

    int size() {
        return definitions.size();
    }

    ColumnDefinition get(int index) {
        if (index < 0 || index >= definitions.size()) {
            throw new UnknownColumnException("no column at index " + index + "; the row has " + definitions.size()
                    + " columns: " + names());
        }
        return definitions.get(index);
    }

    /** The index of a column: its exact name first, else a unique case-insensitive match. */
    int indexOf(String name) {
        Integer i = exact.get(name);
        if (i != null) {
            return i;
        }
        String key = name;
        if (name.length() >= 2 && name.startsWith("\"") && name.endsWith("\"")) {
            key = name.substring(1, name.length() - 1).replace("\"\"", "\"");
            i = exact.get(key);
            if (i != null) {
                return i;
            }
        }
        i = folded.get(key.toLowerCase(Locale.ROOT));
        if (i == null || i == AMBIGUOUS) {
            throw new UnknownColumnException("no column '" + name + "'" + (i == null ? "" : " (ambiguous by case)")
                    + "; the columns are " + names());
        }
        return i;
    }

    List<String> names() {
        List<String> names = new ArrayList<>(definitions.size());
        for (ColumnDefinition d : definitions) {
            names.add(d.name());
        }
        return names;
    }
}
