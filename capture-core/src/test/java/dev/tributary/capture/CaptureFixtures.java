package dev.tributary.capture;

import dev.tributary.capture.redo.ColumnValue;
import dev.tributary.capture.redo.DdlChange;
import dev.tributary.capture.redo.RedoEntry;
import dev.tributary.capture.redo.RowChange;
import dev.tributary.capture.redo.RowOperation;
import dev.tributary.capture.redo.SessionInfo;
import dev.tributary.dictionary.DictionaryChange;
import dev.tributary.dictionary.schema.CdcOptions;
import dev.tributary.dictionary.schema.ColumnDef;
import dev.tributary.dictionary.schema.ColumnSpec;
import dev.tributary.dictionary.schema.KeyspaceDef;
import dev.tributary.dictionary.schema.TableDef;
import dev.tributary.dictionary.schema.TableOptions;
import dev.tributary.dictionary.types.CqlType;
import dev.tributary.dictionary.types.ValueCodec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Schemas, redo entries and column values for the capture tests, built through the real dictionary API. */
public final class CaptureFixtures {
    public static final CqlType INT = CqlType.parse("int");
    public static final CqlType TEXT = CqlType.parse("text");
    public static final SessionInfo SESSION = new SessionInfo("alice", 42, 7, 3);
    public static final KeyspaceDef KS = new KeyspaceDef("ks", Map.of("class", "SimpleStrategy", "replication_factor", "1"),
            false);

    private CaptureFixtures() {
    }

    public static CdcOptions cdc(CdcOptions.Preimage preimage, boolean postimage, CdcOptions.Delta delta) {
        return new CdcOptions(true, preimage, postimage, delta, CdcOptions.DEFAULT_TTL_SECONDS);
    }

    /**
     * {@code CREATE TABLE ks.<name> (pk int, ck int, v int, w text, PRIMARY KEY (pk, ck)) WITH cdc = ...}:
     * column numbers pk 0, ck 1, v 2, w 3.
     */
    public static TableDef table(String name, long objectNumber, CdcOptions cdc) {
        return TableDef.create("ks", name, objectNumber,
                List.of(new ColumnSpec("pk", INT), new ColumnSpec("ck", INT), new ColumnSpec("v", INT),
                        new ColumnSpec("w", TEXT)),
                List.of("pk"), List.of("ck"), Map.of(), TableOptions.DEFAULT.withCdc(cdc));
    }

    /** A column's value as redo carries it; {@code null} is NULL. */
    public static ColumnValue cv(TableDef t, String column, Object value) {
        ColumnDef c = t.requireColumn(column);
        return new ColumnValue(c.columnNumber(), value == null ? null : ValueCodec.encode(c.type(), value));
    }

    /** The serialized partition key of a table with one int partition key column. */
    public static byte[] pk(int value) {
        return ValueCodec.encode(INT, value);
    }

    /** {@code name=value} pairs, alternating. */
    public static List<ColumnValue> values(TableDef t, Object... nameValue) {
        List<ColumnValue> out = new ArrayList<>();
        for (int i = 0; i < nameValue.length; i += 2) {
            out.add(cv(t, (String) nameValue[i], nameValue[i + 1]));
        }
        return out;
    }

    public static RowChange insert(TableDef t, int pk, int ck, long writeMicros, Object... newValues) {
        return new RowChange(t.objectNumber(), RowOperation.INSERT, pk(pk), values(t, "pk", pk, "ck", ck),
                values(t, newValues), List.of(), writeMicros, 0);
    }

    public static RowChange update(TableDef t, int pk, int ck, long writeMicros, List<ColumnValue> newValues,
            List<ColumnValue> oldValues) {
        return new RowChange(t.objectNumber(), RowOperation.UPDATE, pk(pk), values(t, "pk", pk, "ck", ck), newValues,
                oldValues, writeMicros, 0);
    }

    public static RowChange delete(TableDef t, int pk, int ck, long writeMicros, Object... oldValues) {
        return new RowChange(t.objectNumber(), RowOperation.DELETE, pk(pk), values(t, "pk", pk, "ck", ck), List.of(),
                values(t, oldValues), writeMicros, 0);
    }

    public static RedoEntry rows(long scn, RowChange... rows) {
        return new RedoEntry(scn, "3." + Long.toHexString(scn), null, SESSION, List.of(rows), null);
    }

    public static RedoEntry ddl(long scn, DictionaryChange change, String command, String text) {
        String owner;
        String name;
        if (change instanceof DictionaryChange.CreateTable c) {
            owner = c.table().keyspace();
            name = c.table().name();
        } else if (change instanceof DictionaryChange.AlterTable a) {
            owner = a.newDef().keyspace();
            name = a.newDef().name();
        } else if (change instanceof DictionaryChange.DropTable d) {
            owner = d.keyspace();
            name = d.name();
        } else if (change instanceof DictionaryChange.TruncateTable t) {
            owner = t.keyspace();
            name = t.name();
        } else {
            owner = "ks";
            name = "ks";
        }
        return new RedoEntry(scn, "3." + Long.toHexString(scn), null, SESSION, List.of(),
                new DdlChange(change, command, owner, name, "TABLE", text, "ks", null, null));
    }

    /** An SCN at a wall-clock millisecond with a logical counter, as the node's clock makes them. */
    public static long scn(long millis, int logical) {
        return (millis << Scns.LOGICAL_BITS) | logical;
    }
}
