package dev.tributary.capture.log;

import dev.tributary.capture.lcr.DdlLcr;
import dev.tributary.capture.lcr.Lcr;
import dev.tributary.capture.lcr.LcrColumn;
import dev.tributary.capture.lcr.RowLcr;
import dev.tributary.dictionary.errors.DictionaryException;
import dev.tributary.dictionary.io.BinaryReader;
import dev.tributary.dictionary.io.BinaryWriter;
import dev.tributary.dictionary.io.CorruptRecordException;
import dev.tributary.dictionary.io.RecordChecksum;
import dev.tributary.dictionary.types.CqlType;
import dev.tributary.dictionary.types.ValueCodec;
import java.util.ArrayList;
import java.util.List;

/**
 * The stored form of a {@link LogRecord}'s body (its log id and position live in the key).
 * Column values are stored with their CQL type, so the log reads back without the dictionary.
 *
 * <p>Format 2 writes each column type structurally (a user type with its keyspace, name and
 * fields), so every type of the value model reads back; format 1 wrote the type as its CQL text,
 * which cannot name a user type's fields, and is still read. Format 3 is format 2 with a CRC32C at
 * the end ({@link RecordChecksum}): a damaged record is refused, never decoded into other data. Stateless and thread-safe; bytes that
 * are not exactly one record throw {@link CorruptRecordException}.
 */
public final class LogCodec {
    public static final int FORMAT = 3;
    private static final int FORMAT_UNSEALED = 2;
    private static final int FORMAT_CQL_TYPE_TEXT = 1;
    private static final int NO_OPERATION = 255;

    private static final int TYPE_NATIVE = 1;
    private static final int TYPE_LIST = 2;
    private static final int TYPE_SET = 3;
    private static final int TYPE_MAP = 4;
    private static final int TYPE_UDT = 5;
    /** Deeper nesting than any schema allows: only a corrupt record gets there. */
    private static final int MAX_TYPE_DEPTH = 64;

    private LogCodec() {
    }

    public static byte[] encodeBody(LogRecord r) {
        return encodeBody(r, new BinaryWriter(512));
    }

    /**
     * Encodes with a writer the caller reuses across records (reset here), so a batch of records
     * grows one buffer instead of one per record.
     */
    public static byte[] encodeBody(LogRecord r, BinaryWriter scratch) {
        BinaryWriter w = scratch.reset();
        w.u8(FORMAT).u8(r.operation() == null ? NO_OPERATION : r.operation().code()).u8(r.endOfBatch() ? 1 : 0)
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
        return RecordChecksum.seal(w.toByteArray());
    }

    /** @throws CorruptRecordException if the bytes are not exactly one record body */
    public static LogRecord decodeBody(long logId, LogPosition position, byte[] bytes) {
        try {
            return decode(logId, position, bytes);
        } catch (DictionaryException | IllegalArgumentException e) {
            // a type or value that does not decode, or an unknown operation code: the bytes are damaged
            CorruptRecordException c = new CorruptRecordException("log record of log " + logId + " at " + position
                    + " is corrupt: " + e.getMessage());
            c.initCause(e);
            throw c;
        }
    }

    private static LogRecord decode(long logId, LogPosition position, byte[] bytes) {
        int format = bytes.length == 0 ? -1 : bytes[0] & 0xFF;
        if (format != FORMAT && format != FORMAT_UNSEALED && format != FORMAT_CQL_TYPE_TEXT) {
            throw new CorruptRecordException("unknown log record format " + format + " (this node reads formats "
                    + FORMAT_CQL_TYPE_TEXT + " to " + FORMAT + ")");
        }
        int length = format == FORMAT ? RecordChecksum.verify(bytes, () -> "log record of log " + logId + " at " + position)
                : bytes.length;
        BinaryReader r = new BinaryReader(bytes, length);
        r.u8();
        Reader in = new Reader(r, format, length);
        int op = r.u8();
        boolean end = flag(r.u8(), "end_of_batch");
        long ttl = r.varint();
        List<LcrColumn> image = in.columns();
        int kind = r.u8();
        Lcr lcr;
        if (kind == 'R') {
            lcr = new RowLcr(r.string(), r.string(), r.string(), r.string(), r.bytes(), r.string(), r.i64(), r.i64(),
                    in.columns(), in.columns(), nonNull(in.columns()));
        } else if (kind == 'D') {
            lcr = new DdlLcr(r.string(), r.string(), r.string(), r.string(), r.string(), r.string(), r.string(),
                    r.string(), r.string(), r.string(), r.bytes(), r.string(), r.i64(), nonNull(in.columns()));
        } else {
            throw new CorruptRecordException("unknown LCR kind " + kind);
        }
        r.expectEnd();
        return new LogRecord(logId, position, op == NO_OPERATION ? null : CdcOperation.ofCode(op), end, ttl, lcr, image);
    }

    private static boolean flag(int b, String what) {
        if (b > 1) {
            throw new CorruptRecordException("invalid " + what + " flag " + b);
        }
        return b == 1;
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
            w.string(c.name());
            writeType(w, c.type());
            w.bytes(c.value() == null ? null : ValueCodec.encode(c.type(), c.value()));
        }
    }

    private static void writeType(BinaryWriter w, CqlType type) {
        if (type instanceof CqlType.Native n) {
            w.u8(TYPE_NATIVE).string(n.cql());
        } else if (type instanceof CqlType.ListType l) {
            w.u8(TYPE_LIST).u8(l.frozen() ? 1 : 0);
            writeType(w, l.element());
        } else if (type instanceof CqlType.SetType s) {
            w.u8(TYPE_SET).u8(s.frozen() ? 1 : 0);
            writeType(w, s.element());
        } else if (type instanceof CqlType.MapType m) {
            w.u8(TYPE_MAP).u8(m.frozen() ? 1 : 0);
            writeType(w, m.key());
            writeType(w, m.value());
        } else {
            CqlType.UserType u = (CqlType.UserType) type;
            w.u8(TYPE_UDT).u8(u.frozen() ? 1 : 0).string(u.keyspace()).string(u.name()).varint(u.fields().size());
            for (CqlType.Field f : u.fields()) {
                w.string(f.name());
                writeType(w, f.type());
            }
        }
    }

    /** Reads columns in the type layout of one format. */
    private record Reader(BinaryReader r, int format, int recordSize) {
        List<LcrColumn> columns() {
            long n = r.varint();
            if (n == 0) {
                return null;
            }
            if (n - 1 > recordSize) {
                throw new CorruptRecordException("column count " + (n - 1) + " exceeds the record size " + recordSize);
            }
            int count = (int) (n - 1);
            List<LcrColumn> out = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                String name = r.string();
                CqlType type = format == FORMAT_CQL_TYPE_TEXT ? CqlType.parse(required(r.string())) : type(0);
                byte[] v = r.bytes();
                out.add(new LcrColumn(name, type, v == null ? null : ValueCodec.decode(type, v)));
            }
            return out;
        }

        private CqlType type(int depth) {
            if (depth > MAX_TYPE_DEPTH) {
                throw new CorruptRecordException("column type nested deeper than " + MAX_TYPE_DEPTH);
            }
            int tag = r.u8();
            switch (tag) {
                case TYPE_NATIVE: {
                    CqlType t = CqlType.parse(required(r.string()));
                    if (!(t instanceof CqlType.Native)) {
                        throw new CorruptRecordException("native column type expected, got " + t.cql());
                    }
                    return t;
                }
                case TYPE_LIST: {
                    boolean frozen = flag(r.u8(), "frozen");
                    return new CqlType.ListType(type(depth + 1), frozen);
                }
                case TYPE_SET: {
                    boolean frozen = flag(r.u8(), "frozen");
                    return new CqlType.SetType(type(depth + 1), frozen);
                }
                case TYPE_MAP: {
                    boolean frozen = flag(r.u8(), "frozen");
                    CqlType key = type(depth + 1);
                    return new CqlType.MapType(key, type(depth + 1), frozen);
                }
                case TYPE_UDT: {
                    boolean frozen = flag(r.u8(), "frozen");
                    String keyspace = required(r.string());
                    String name = required(r.string());
                    int n = r.count();
                    List<CqlType.Field> fields = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        String field = required(r.string());
                        fields.add(new CqlType.Field(field, type(depth + 1)));
                    }
                    return new CqlType.UserType(keyspace, name, fields, frozen);
                }
                default:
                    throw new CorruptRecordException("unknown column type tag " + tag);
            }
        }

        private static String required(String s) {
            if (s == null) {
                throw new CorruptRecordException("missing type name");
            }
            return s;
        }
    }
}
