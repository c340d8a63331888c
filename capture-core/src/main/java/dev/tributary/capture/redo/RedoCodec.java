package dev.tributary.capture.redo;

import dev.tributary.dictionary.DictionaryChange;
import dev.tributary.dictionary.DictionaryCodec;
import dev.tributary.dictionary.errors.DictionaryCodecException;
import dev.tributary.dictionary.io.BinaryReader;
import dev.tributary.dictionary.io.BinaryWriter;
import dev.tributary.dictionary.io.CorruptRecordException;
import dev.tributary.dictionary.io.RecordChecksum;
import java.util.ArrayList;
import java.util.List;

/**
 * The binary form of {@link RedoEntry} as stored in the redo column family. Stateless and
 * thread-safe; {@link #decode} throws {@link CorruptRecordException} for bytes that are not
 * exactly one entry (including a DDL entry whose dictionary change does not decode).
 */
public final class RedoCodec {
    /** Bumped when the format changes; a downstream reader refuses formats it does not know. */
    public static final int FORMAT = 2;
    /** Format 1: the same entry without the CRC32C at its end (still read). */
    private static final int FORMAT_UNSEALED = 1;

    private RedoCodec() {
    }

    /** About the encoded size, so a batch of rows is written into one buffer rather than regrown. */
    private static int estimate(RedoEntry e) {
        long size = 128;
        for (RowChange r : e.rows()) {
            size += 64 + (r.partitionKey() == null ? 0 : r.partitionKey().length) + estimate(r.key())
                    + estimate(r.newValues()) + estimate(r.oldValues());
        }
        return (int) Math.min(size, Integer.MAX_VALUE - 16);
    }

    private static long estimate(List<ColumnValue> values) {
        long size = 0;
        for (ColumnValue v : values) {
            size += 8 + (v.value() == null ? 0 : v.value().length);
        }
        return size;
    }

    public static byte[] encode(RedoEntry e) {
        BinaryWriter w = new BinaryWriter(estimate(e));
        w.u8(FORMAT).i64(e.scn()).string(e.transactionId()).bytes(e.tag());
        SessionInfo s = e.session();
        w.string(s.username()).i64(s.sessionNumber()).i64(s.serialNumber()).i32(s.threadNumber());
        if (e.ddl() != null) {
            DdlChange d = e.ddl();
            // kind 1: a DDL issued on this node; 3: one replicated from another node's schema change
            w.u8(d.replicated() ? 3 : 1).bytes(DictionaryCodec.encode(d.change())).string(d.commandType()).string(d.objectOwner())
                    .string(d.objectName()).string(d.objectType()).string(d.ddlText()).string(d.currentSchema())
                    .string(d.baseTableOwner()).string(d.baseTableName());
        } else if (e.build() != null) {
            DictionaryBuildPart b = e.build();
            w.u8(2).i64(b.buildScn()).i32(b.part()).i32(b.parts()).bytes(b.payload());
        } else {
            w.u8(0);
        }
        w.varint(e.rows().size());
        for (RowChange r : e.rows()) {
            w.i64(r.objectNumber()).u8(r.operation().ordinal()).bytes(r.partitionKey());
            columns(w, r.key());
            columns(w, r.newValues());
            columns(w, r.oldValues());
            w.i64(r.writeTimeMicros()).i32(r.ttlSeconds());
        }
        return RecordChecksum.seal(w.toByteArray());
    }

    private static void columns(BinaryWriter w, List<ColumnValue> cols) {
        w.varint(cols.size());
        for (ColumnValue c : cols) {
            w.varint(c.columnNumber()).bytes(c.value());
        }
    }

    public static RedoEntry decode(byte[] bytes) {
        int format = bytes.length == 0 ? -1 : bytes[0] & 0xFF;
        if (format != FORMAT && format != FORMAT_UNSEALED) {
            throw new CorruptRecordException("unknown redo format " + format + " (this node reads formats "
                    + FORMAT_UNSEALED + " and " + FORMAT + ")");
        }
        int length = format == FORMAT_UNSEALED ? bytes.length : RecordChecksum.verify(bytes, () -> "the redo entry "
                + (bytes.length >= 9 ? "of SCN " + java.nio.ByteBuffer.wrap(bytes, 1, 8).getLong() + " (as stored)" : "")
                + " of " + bytes.length + " bytes");
        BinaryReader r = new BinaryReader(bytes, length);
        r.u8();
        long scn = r.i64();
        String tx = r.string();
        byte[] tag = r.bytes();
        SessionInfo session = new SessionInfo(r.string(), r.i64(), r.i64(), r.i32());
        DdlChange ddl = null;
        DictionaryBuildPart build = null;
        int kind = r.u8();
        if (kind == 1 || kind == 3) {
            ddl = new DdlChange(dictionaryChange(r.bytes(), scn), r.string(), r.string(), r.string(),
                    r.string(), r.string(), r.string(), r.string(), r.string(), kind == 3);
        } else if (kind == 2) {
            long buildScn = r.i64();
            int part = r.i32();
            int parts = r.i32();
            byte[] payload = r.bytes();
            if (part < 1 || part > parts || payload == null) {
                throw new CorruptRecordException("dictionary build record at SCN " + scn + " is part " + part + " of " + parts
                        + (payload == null ? " without a payload" : ""));
            }
            build = new DictionaryBuildPart(buildScn, part, parts, payload);
        } else if (kind != 0) {
            throw new CorruptRecordException("unknown redo entry kind " + kind + " at SCN " + scn);
        }
        int n = r.count();
        List<RowChange> rows = new ArrayList<>(n);
        RowOperation[] ops = RowOperation.values();
        for (int i = 0; i < n; i++) {
            long obj = r.i64();
            int op = r.u8();
            if (op >= ops.length) {
                throw new CorruptRecordException("unknown row operation " + op);
            }
            byte[] pk = r.bytes();
            if (pk == null) {
                throw new CorruptRecordException("row change " + i + " of the redo entry at SCN " + scn
                        + " has no partition key");
            }
            List<ColumnValue> key = columns(r);
            List<ColumnValue> nv = columns(r);
            List<ColumnValue> ov = columns(r);
            rows.add(new RowChange(obj, ops[op], pk, key, nv, ov, r.i64(), r.i32()));
        }
        r.expectEnd();
        return new RedoEntry(scn, tx, tag, session, rows, ddl, build);
    }

    private static DictionaryChange dictionaryChange(byte[] bytes, long scn) {
        if (bytes == null) {
            throw new CorruptRecordException("DDL redo entry at SCN " + scn + " has no dictionary change");
        }
        try {
            return DictionaryCodec.decodeChange(bytes);
        } catch (DictionaryCodecException e) {
            CorruptRecordException c = new CorruptRecordException("DDL redo entry at SCN " + scn + ": " + e.getMessage());
            c.initCause(e);
            throw c;
        }
    }

    private static List<ColumnValue> columns(BinaryReader r) {
        int n = r.count();
        List<ColumnValue> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            long number = r.varint();
            if (number < 0 || number > Integer.MAX_VALUE) {
                throw new CorruptRecordException("column number " + number + " out of range");
            }
            out.add(new ColumnValue((int) number, r.bytes()));
        }
        return out;
    }
}
