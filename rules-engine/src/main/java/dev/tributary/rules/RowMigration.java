package dev.tributary.rules;

import dev.tributary.rules.transform.TransformableLcr;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What full evaluation asks the capture to do with an UPDATE selected by a subset rule: keep it,
 * turn it into an INSERT (the row moved into the subset) or into a DELETE (the row moved out).
 */
public enum RowMigration {
    NONE, TO_INSERT, TO_DELETE;

    /**
     * Rewrites a row LCR accordingly. TO_INSERT: command INSERT, no old image, the new image being
     * the old values overlaid with the new ones (so the inserted row carries the logged columns
     * the UPDATE did not change). TO_DELETE: command DELETE, the old image kept, no new image.
     * NONE returns the LCR unchanged.
     */
    public TransformableLcr apply(TransformableLcr lcr) {
        switch (this) {
            case TO_INSERT: {
                Map<String, Object> row = new LinkedHashMap<>();
                if (lcr.oldValues() != null) {
                    row.putAll(lcr.oldValues());
                }
                if (lcr.newValues() != null) {
                    row.putAll(lcr.newValues());
                }
                return new TransformableLcr(lcr.objectOwner(), lcr.objectName(), "INSERT", null, row);
            }
            case TO_DELETE:
                return new TransformableLcr(lcr.objectOwner(), lcr.objectName(), "DELETE",
                        lcr.oldValues() == null ? Map.of() : lcr.oldValues(), null);
            default:
                return lcr;
        }
    }
}
