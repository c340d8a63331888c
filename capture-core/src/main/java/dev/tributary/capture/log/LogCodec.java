package dev.tributary.capture.log;

import dev.tributary.dictionary.io.BinaryReader;
import dev.tributary.dictionary.io.BinaryWriter;
import dev.tributary.dictionary.io.CorruptRecordException;
import dev.tributary.capture.lcr.DdlLcr;
import dev.tributary.capture.lcr.Lcr;
import dev.tributary.capture.lcr.LcrColumn;
import dev.tributary.capture.lcr.RowLcr;
import dev.tributary.dictionary.types.CqlType;
import dev.tributary.dictionary.types.ValueCodec;
import java.util.ArrayList;
import java.util.List;

/**
 * The stored form of a {@link LogRecord}'s body (its log id and position live in the key).
 * Column values are stored with their CQL type, so the log reads back without the dictionary.
 */
public final class LogCodec {
    public static final int FORMAT = 1;

    private LogCodec() {
    }

    public static byte[] encodeBody(LogRecord r) {
        BinaryWriter w = new BinaryWriter(128);
        w.u8(FORMAT).u8(r.operation() == null ? 255 : r.operation().code()).u8(r.endOfBatch() ? 1 : 0)
                .varint(r.ttlSeconds());
        columns(w, r.image());
        Lcr lcr = r.lcr();
        if (lcr instanceof RowLcr row) {
            w.u8('R').string(row.sourceDatabaseName()).string(row.commandType()).string(row.objectOwner())
                    .string(row.objectName()).bytes(row.tag()).string(row.transactionId()).i64(row.scn())
                    .i64(row.commitScn());
            columns(w, row.oldValues());
            columns(w, row.newValues());
            columns(w, row.extra());
        } else {
            DdlLcr d = (DdlLcr) lcr;
            w.u8('D').string(d.sourceDatabaseName()).string(d.commandType()).string(d.objectOwner())
                    .string(d.objectName()).string(d.objectType()).string(d.ddlText()).string(d.logonUser())
                    .string(d.currentSchema()).string(d.baseTableOwner()).string(d.baseTableName()).bytes(d.tag())
                    .string(d.transactionId()).i64(d.scn());
            columns(w, d.extra());
        }
        return w.toByteArray();
    }

    public static LogRecord decodeBody(long logId, LogPosition position, byte[] bytes) {
        BinaryReader r = new BinaryReader(bytes);
        int format = r.u8();
        if (format != FORMAT) {
            throw new CorruptRecordException("unknown log record format " + format);
        }
        int op = r.u8();
        boolean end = r.u8() == 1;
        long ttl = r.varint();
        List<LcrColumn> image = columns(r);
        int kind = r.u8();
        Lcr lcr;
        if (kind == 'R') {
            lcr = new RowLcr(r.string(), r.string(), r.string(), r.string(), r.bytes(), r.string(), r.i64(), r.i64(),
                    columns(r), columns(r), nonNull(columns(r)));
        } else if (kind == 'D') {
            lcr = new DdlLcr(r.string(), r.string(), r.string(), r.string(), r.string(), r.string(), r.string(),
                    r.string(), r.string(), r.string(), r.bytes(), r.string(), r.i64(), nonNull(columns(r)));
        } else {
            throw new CorruptRecordException("unknown LCR kind " + kind);
        }
        r.expectEnd();
        return new LogRecord(logId, position, op == 255 ? null : CdcOperation.ofCode(op), end, ttl, lcr, image);
    }

    private static List<LcrColumn> nonNull(List<LcrColumn> l) {
        return l == null ? List.of() : l;
    }

    private static void columns(BinaryWriter w, List<LcrColumn> cols) {
        if (cols == null) {
            w.varint(0);
            return;
        }
        w.varint(cols.size() + 1L);
        for (LcrColumn c : cols) {
            w.string(c.name()).string(c.type().cql());
            w.bytes(c.value() == null ? null : ValueCodec.encode(c.type(), c.value()));
        }
    }

    private static List<LcrColumn> columns(BinaryReader r) {
        long n = r.varint();
        if (n == 0) {
            return null;
        }
        int count = (int) (n - 1);
        List<LcrColumn> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String name = r.string();
            CqlType type = CqlType.parse(r.string());
            byte[] v = r.bytes();
            out.add(new LcrColumn(name, type, v == null ? null : ValueCodec.decode(type, v)));
        }
        return out;
    }
}
