package dev.tributary.capture;

import dev.tributary.capture.log.LogRecord;
import dev.tributary.capture.redo.RedoEntry;
import dev.tributary.capture.redo.RowChange;
import dev.tributary.dictionary.DictionaryChange;
import dev.tributary.dictionary.DictionaryVersion;
import dev.tributary.dictionary.MultiversionDictionary;
import dev.tributary.dictionary.schema.TableDef;
import dev.tributary.rules.PrefilterDecision;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The implicit capture of every table with {@code cdc = {'enabled': true}}: each redo entry is
 * resolved through the dictionary version at its SCN and becomes row and DDL LCRs laid out in
 * each table's {@code _scylla_cdc_log}. Stateless; thread-safe.
 */
public final class CdcTableCapture implements RedoCapturer {
    /** The implicit capture's name: its checkpoint key, and its row in the capture views. */
    public static final String NAME = "CDC$IMPLICIT";

    private final MultiversionDictionary dictionary;
    private final CdcLogFormatter formatter;

    public CdcTableCapture(MultiversionDictionary dictionary, CdcLogFormatter formatter) {
        this.dictionary = dictionary;
        this.formatter = formatter;
    }

    /** The rows of CDC-enabled tables; every one is kept (a CDC log has no rules). */
    @Override
    public PreparedEntry prepare(RedoEntry e) {
        if (e.isDdl()) {
            return new PreparedEntry(e, List.of(), PrefilterDecision.CONVERT);
        }
        DictionaryVersion version = dictionary.asOf(e.scn());
        List<PreparedEntry.Row> rows = new ArrayList<>();
        for (RowChange r : e.rows()) {
            Optional<TableDef> table = version.table(r.objectNumber());
            if (table.isPresent() && table.get().options().cdc().enabled()) {
                rows.add(new PreparedEntry.Row(r, table.get(), PrefilterDecision.CONVERT));
            }
        }
        return new PreparedEntry(e, rows, PrefilterDecision.DISCARD);
    }

    /** The log records of one redo entry, over every CDC-enabled table it touches, table by table. */
    @Override
    public List<LogRecord> build(PreparedEntry p, CaptureProgress progress) {
        RedoEntry e = p.entry();
        if (e.isDdl()) {
            return captureDdl(e);
        }
        if (p.rows().isEmpty()) {
            return List.of();
        }
        progress.at(CaptureState.CREATING_LCR);
        Map<Long, List<RowChange>> byTable = new LinkedHashMap<>();
        Map<Long, TableDef> tables = new LinkedHashMap<>();
        for (PreparedEntry.Row r : p.rows()) {
            byTable.computeIfAbsent(r.table().objectNumber(), k -> new ArrayList<>()).add(r.change());
            tables.putIfAbsent(r.table().objectNumber(), r.table());
        }
        List<LogRecord> out = new ArrayList<>();
        for (Map.Entry<Long, List<RowChange>> t : byTable.entrySet()) {
            out.addAll(formatter.rowRecords(e, tables.get(t.getKey()), t.getValue()));
        }
        return out;
    }

    /**
     * The DDL LCR of a CREATE or ALTER comes from the table definition in the redo entry itself, not
     * from the dictionary: the redo is visible to capture as soon as it is written, possibly before
     * the node's dictionary has applied the change.
     */
    private List<LogRecord> captureDdl(RedoEntry e) {
        if (e.ddl().replicated()) {
            return List.of(); // the node that ran the statement logs it, once for the cluster
        }
        DictionaryChange change = e.ddl().change();
        Optional<TableDef> table;
        if (change instanceof DictionaryChange.DropTable d) {
            table = dictionary.asOf(e.scn() - 1).table(d.keyspace(), d.name());
        } else if (change instanceof DictionaryChange.CreateTable c) {
            table = Optional.of(c.table());
        } else if (change instanceof DictionaryChange.AlterTable a) {
            table = Optional.of(a.newDef());
        } else {
            table = Optional.empty();
        }
        if (table.isPresent() && table.get().options().cdc().enabled()) {
            return List.of(formatter.ddlRecord(e, table.get()));
        }
        return List.of();
    }

}
