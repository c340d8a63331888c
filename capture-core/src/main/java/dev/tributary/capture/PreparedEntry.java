package dev.tributary.capture;

import dev.tributary.capture.redo.RedoEntry;
import dev.tributary.capture.redo.RowChange;
import dev.tributary.dictionary.schema.TableDef;
import dev.tributary.rules.PrefilterDecision;
import java.util.List;

/**
 * A redo entry after prefiltering: the rows that may be kept, each with its table (resolved with
 * the dictionary version at the entry's SCN) and what prefiltering decided; for a DDL entry,
 * whether its LCR may be kept.
 */
public record PreparedEntry(RedoEntry entry, List<Row> rows, PrefilterDecision ddlDecision) {
    /** Nothing of the entry is kept. */
    public static PreparedEntry discarded(RedoEntry e) {
        return new PreparedEntry(e, List.of(), PrefilterDecision.DISCARD);
    }

    public PreparedEntry {
        rows = List.copyOf(rows);
    }

    public boolean empty() {
        return rows.isEmpty() && !ddlDecision.converts();
    }

    /** A row change prefiltering did not discard. */
    public record Row(RowChange change, TableDef table, PrefilterDecision decision) {
    }
}
