package dev.tributary.dictionary.schema;

import dev.tributary.dictionary.errors.InvalidSchemaException;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A table's options: CDC, the tablets {@code min_tablet_count} (null when not set), and other
 * options kept as written for display. Immutable.
 */
public record TableOptions(CdcOptions cdc, Integer minTabletCount, Map<String, String> other) {
    /** CDC disabled, no tablet count, no other option. */
    public static final TableOptions DEFAULT = new TableOptions(CdcOptions.DISABLED, null, Map.of());

    public TableOptions {
        Objects.requireNonNull(cdc, "cdc");
        if (minTabletCount != null && minTabletCount < 0) {
            throw new InvalidSchemaException("invalid tablets option 'min_tablet_count': " + minTabletCount
                    + " is negative");
        }
        other = Collections.unmodifiableMap(new TreeMap<>(Objects.requireNonNull(other, "other")));
    }

    public TableOptions withCdc(CdcOptions newCdc) {
        return new TableOptions(newCdc, minTabletCount, other);
    }

    public TableOptions withMinTabletCount(Integer count) {
        return new TableOptions(cdc, count, other);
    }
}
