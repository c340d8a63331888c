package dev.tributary.dictionary;

import dev.tributary.dictionary.errors.DictionaryCodecException;
import dev.tributary.dictionary.errors.DictionaryException;
import dev.tributary.dictionary.internal.VIntCoding;
import dev.tributary.dictionary.schema.CdcOptions;
import dev.tributary.dictionary.schema.ClusteringOrder;
import dev.tributary.dictionary.schema.ColumnDef;
import dev.tributary.dictionary.schema.ColumnKind;
import dev.tributary.dictionary.schema.KeyspaceDef;
import dev.tributary.dictionary.schema.TableDef;
import dev.tributary.dictionary.schema.TableOptions;
import dev.tributary.dictionary.schema.UserTypeDef;
import dev.tributary.dictionary.types.CqlType;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * The compact binary form of dictionary changes and of whole dictionary versions (dictionary
 * builds), as written into the redo log.
 *
 * <p>Layout: a format byte ({@link #FORMAT_V1}), a record tag (one per {@link DictionaryChange}
 * kind, or a whole version), the payload, and a CRC32C of everything before it (4 bytes,
 * big-endian). In the payload integers are Cassandra vints ({@link VIntCoding}; signed ones
 * zigzag), strings a vint length and UTF-8, types a tag byte (the native protocol's type ids, with
 * 0x0A for {@code text} as distinct from {@code varchar}) followed by the frozen flag and the
 * element types for collections, and the keyspace, name and fields for user types. A version
 * holds its SCN, its next object number, then its keyspaces, user types (creation order) and
 * tables.
 *
 * <p>Stateless and thread-safe. Any input that is not exactly one valid record (unknown format or
 * tag, truncated, trailing bytes, checksum mismatch, or a schema that does not validate) throws
 * {@link DictionaryCodecException}.
 */
public final class DictionaryCodec {
    /** The only format so far. */
    public static final byte FORMAT_V1 = 1;

    private static final int TAG_CREATE_KEYSPACE = 1;
    private static final int TAG_DROP_KEYSPACE = 2;
    private static final int TAG_CREATE_TABLE = 3;
    private static final int TAG_ALTER_TABLE = 4;
    private static final int TAG_DROP_TABLE = 5;
    private static final int TAG_CREATE_TYPE = 6;
    private static final int TAG_DROP_TYPE = 7;
    private static final int TAG_TRUNCATE_TABLE = 8;
    private static final int TAG_VERSION = 0x40;

    private static final int TYPE_LIST = 0x20;
    private static final int TYPE_MAP = 0x21;
    private static final int TYPE_SET = 0x22;
    private static final int TYPE_UDT = 0x30;
    private static final int MAX_TYPE_DEPTH = 64;

    // the codes of enum values are their index here, fixed by the format, not by declaration order
    private static final ColumnKind[] COLUMN_KINDS =
            {ColumnKind.PARTITION_KEY, ColumnKind.CLUSTERING, ColumnKind.REGULAR, ColumnKind.STATIC};
    private static final ClusteringOrder[] ORDERS = {ClusteringOrder.ASC, ClusteringOrder.DESC};
    private static final CdcOptions.Preimage[] PREIMAGES =
            {CdcOptions.Preimage.OFF, CdcOptions.Preimage.ON, CdcOptions.Preimage.FULL};
    private static final CdcOptions.Delta[] DELTAS = {CdcOptions.Delta.FULL, CdcOptions.Delta.KEYS};

    private DictionaryCodec() {
    }

    // ---------------------------------------------------------------- public API

    public static byte[] encode(DictionaryChange change) {
        Sink out = new Sink(64);
        out.writeByte(FORMAT_V1);
        if (change instanceof DictionaryChange.CreateKeyspace c) {
            out.writeByte(TAG_CREATE_KEYSPACE);
            writeKeyspace(out, c.keyspace());
        } else if (change instanceof DictionaryChange.DropKeyspace d) {
            out.writeByte(TAG_DROP_KEYSPACE);
            out.writeString(d.keyspace());
        } else if (change instanceof DictionaryChange.CreateTable c) {
            out.writeByte(TAG_CREATE_TABLE);
            writeTable(out, c.table());
        } else if (change instanceof DictionaryChange.AlterTable a) {
            out.writeByte(TAG_ALTER_TABLE);
            writeTable(out, a.newDef());
        } else if (change instanceof DictionaryChange.DropTable d) {
            out.writeByte(TAG_DROP_TABLE);
            out.writeString(d.keyspace());
            out.writeString(d.name());
        } else if (change instanceof DictionaryChange.CreateType c) {
            out.writeByte(TAG_CREATE_TYPE);
            writeUserType(out, c.type());
        } else if (change instanceof DictionaryChange.DropType d) {
            out.writeByte(TAG_DROP_TYPE);
            out.writeString(d.keyspace());
            out.writeString(d.name());
        } else if (change instanceof DictionaryChange.TruncateTable t) {
            out.writeByte(TAG_TRUNCATE_TABLE);
            out.writeString(t.keyspace());
            out.writeString(t.name());
        }
        return out.finish();
    }

    /** @throws DictionaryCodecException if the bytes are not one encoded change */
    public static DictionaryChange decodeChange(byte[] bytes) {
        Source in = open(bytes);
        int tag = in.readByte();
        try {
            DictionaryChange c;
            switch (tag) {
                case TAG_CREATE_KEYSPACE -> c = new DictionaryChange.CreateKeyspace(readKeyspace(in));
                case TAG_DROP_KEYSPACE -> c = new DictionaryChange.DropKeyspace(in.readString());
                case TAG_CREATE_TABLE -> c = new DictionaryChange.CreateTable(readTable(in));
                case TAG_ALTER_TABLE -> c = new DictionaryChange.AlterTable(readTable(in));
                case TAG_DROP_TABLE -> c = new DictionaryChange.DropTable(in.readString(), in.readString());
                case TAG_CREATE_TYPE -> c = new DictionaryChange.CreateType(readUserType(in));
                case TAG_DROP_TYPE -> c = new DictionaryChange.DropType(in.readString(), in.readString());
                case TAG_TRUNCATE_TABLE -> c = new DictionaryChange.TruncateTable(in.readString(), in.readString());
                case TAG_VERSION -> throw new DictionaryCodecException(
                        "the bytes hold a whole dictionary version, not a change");
                default -> throw new DictionaryCodecException("unknown dictionary record tag " + tag);
            }
            in.requireEnd();
            return c;
        } catch (DictionaryCodecException e) {
            throw e;
        } catch (DictionaryException | IllegalArgumentException e) {
            throw new DictionaryCodecException("encoded dictionary change is invalid: " + e.getMessage(), e);
        }
    }

    public static byte[] encode(DictionaryVersion version) {
        Sink out = new Sink(256);
        out.writeByte(FORMAT_V1);
        out.writeByte(TAG_VERSION);
        out.writeSigned(version.scn());
        out.writeUnsigned(version.nextObjectNumber());
        out.writeUnsigned(version.keyspaces().size());
        for (KeyspaceDef k : version.keyspaces()) {
            writeKeyspace(out, k);
        }
        out.writeUnsigned(version.userTypes().size());
        for (UserTypeDef t : version.userTypes()) {
            writeUserType(out, t);
        }
        out.writeUnsigned(version.tables().size());
        for (TableDef t : version.tables()) {
            writeTable(out, t);
        }
        return out.finish();
    }

    /** @throws DictionaryCodecException if the bytes are not one encoded, consistent version */
    public static DictionaryVersion decodeVersion(byte[] bytes) {
        Source in = open(bytes);
        int tag = in.readByte();
        if (tag != TAG_VERSION) {
            throw new DictionaryCodecException(tag >= TAG_CREATE_KEYSPACE && tag <= TAG_TRUNCATE_TABLE
                    ? "the bytes hold a dictionary change, not a whole version"
                    : "unknown dictionary record tag " + tag);
        }
        try {
            long scn = in.readSigned();
            long nextObjectNumber = in.readUnsigned();
            int nk = in.readCount();
            List<KeyspaceDef> keyspaces = new ArrayList<>(nk);
            for (int i = 0; i < nk; i++) {
                keyspaces.add(readKeyspace(in));
            }
            int nt = in.readCount();
            List<UserTypeDef> types = new ArrayList<>(nt);
            for (int i = 0; i < nt; i++) {
                types.add(readUserType(in));
            }
            int nb = in.readCount();
            List<TableDef> tables = new ArrayList<>(nb);
            for (int i = 0; i < nb; i++) {
                tables.add(readTable(in));
            }
            in.requireEnd();
            return DictionaryVersion.restore(scn, nextObjectNumber, keyspaces, types, tables);
        } catch (DictionaryCodecException e) {
            throw e;
        } catch (DictionaryException | IllegalArgumentException e) {
            throw new DictionaryCodecException("encoded dictionary version is invalid: " + e.getMessage(), e);
        }
    }

    private static Source open(byte[] bytes) {
        if (bytes.length < 6) {
            throw new DictionaryCodecException("encoded dictionary record of " + bytes.length + " bytes is too short");
        }
        if (bytes[0] != FORMAT_V1) {
            throw new DictionaryCodecException("unsupported dictionary format " + (bytes[0] & 0xFF)
                    + "; this version reads format " + FORMAT_V1);
        }
        int end = bytes.length - 4;
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, end);
        int stored = ((bytes[end] & 0xFF) << 24) | ((bytes[end + 1] & 0xFF) << 16) | ((bytes[end + 2] & 0xFF) << 8)
                | (bytes[end + 3] & 0xFF);
        if ((int) crc.getValue() != stored) {
            throw new DictionaryCodecException("encoded dictionary record is corrupt: checksum mismatch");
        }
        return new Source(bytes, 1, end);
    }

    // ---------------------------------------------------------------- schema objects

    private static void writeKeyspace(Sink out, KeyspaceDef k) {
        out.writeString(k.name());
        writeStringMap(out, k.replication());
        out.writeByte(k.tabletsEnabled() ? 1 : 0);
    }

    private static KeyspaceDef readKeyspace(Source in) {
        String name = in.readString();
        Map<String, String> replication = readStringMap(in);
        return new KeyspaceDef(name, replication, in.readBoolean());
    }

    private static void writeUserType(Sink out, UserTypeDef t) {
        out.writeString(t.keyspace());
        out.writeString(t.name());
        writeFields(out, t.fields());
    }

    private static UserTypeDef readUserType(Source in) {
        String ks = in.readString();
        String name = in.readString();
        return new UserTypeDef(ks, name, readFields(in, 0));
    }

    private static void writeFields(Sink out, List<CqlType.Field> fields) {
        out.writeUnsigned(fields.size());
        for (CqlType.Field f : fields) {
            out.writeString(f.name());
            writeType(out, f.type());
        }
    }

    private static List<CqlType.Field> readFields(Source in, int depth) {
        int n = in.readCount();
        List<CqlType.Field> fields = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String name = in.readString();
            fields.add(new CqlType.Field(name, readType(in, depth + 1)));
        }
        return fields;
    }

    private static void writeTable(Sink out, TableDef t) {
        out.writeString(t.keyspace());
        out.writeString(t.name());
        out.writeUnsigned(t.objectNumber());
        out.writeUnsigned(t.nextColumnNumber());
        out.writeUnsigned(t.columns().size());
        for (ColumnDef c : t.columns()) {
            out.writeString(c.name());
            writeType(out, c.type());
            out.writeByte(code(COLUMN_KINDS, c.kind()));
            out.writeSigned(c.keyPosition());
            out.writeUnsigned(c.columnNumber());
            out.writeByte(code(ORDERS, c.order()));
        }
        TableOptions o = t.options();
        CdcOptions cdc = o.cdc();
        out.writeByte((cdc.enabled() ? 1 : 0) | (cdc.postimage() ? 2 : 0));
        out.writeByte(code(PREIMAGES, cdc.preimage()));
        out.writeByte(code(DELTAS, cdc.delta()));
        out.writeUnsigned(cdc.ttlSeconds());
        if (o.minTabletCount() == null) {
            out.writeByte(0);
        } else {
            out.writeByte(1);
            out.writeUnsigned(o.minTabletCount());
        }
        writeStringMap(out, o.other());
    }

    private static TableDef readTable(Source in) {
        String ks = in.readString();
        String name = in.readString();
        long objectNumber = in.readUnsigned();
        int nextColumnNumber = in.readInt32("next column number");
        int n = in.readCount();
        List<ColumnDef> columns = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String cname = in.readString();
            CqlType type = readType(in, 0);
            ColumnKind kind = in.readEnum(COLUMN_KINDS, "column kind");
            int keyPosition = (int) in.readSigned();
            int number = in.readInt32("column number");
            ClusteringOrder order = in.readEnum(ORDERS, "clustering order");
            columns.add(new ColumnDef(cname, type, kind, keyPosition, number, order));
        }
        int flags = in.readByte();
        if ((flags & ~3) != 0) {
            throw new DictionaryCodecException("unknown cdc flags " + flags + " in table " + ks + "." + name);
        }
        CdcOptions.Preimage preimage = in.readEnum(PREIMAGES, "cdc preimage");
        CdcOptions.Delta delta = in.readEnum(DELTAS, "cdc delta");
        int ttl = in.readInt32("cdc ttl");
        CdcOptions cdc = new CdcOptions((flags & 1) != 0, preimage, (flags & 2) != 0, delta, ttl);
        Integer minTablets = in.readBoolean() ? in.readInt32("min_tablet_count") : null;
        TableOptions options = new TableOptions(cdc, minTablets, readStringMap(in));
        return new TableDef(ks, name, objectNumber, columns, options, nextColumnNumber);
    }

    private static <E> int code(E[] table, E value) {
        for (int i = 0; i < table.length; i++) {
            if (table[i] == value) {
                return i;
            }
        }
        throw new AssertionError(value + " has no code in the dictionary format");
    }

    private static void writeStringMap(Sink out, Map<String, String> m) {
        out.writeUnsigned(m.size());
        for (Map.Entry<String, String> e : m.entrySet()) {
            out.writeString(e.getKey());
            out.writeString(e.getValue());
        }
    }

    private static Map<String, String> readStringMap(Source in) {
        int n = in.readCount();
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            String k = in.readString();
            m.put(k, in.readString());
        }
        return m;
    }

    // ---------------------------------------------------------------- types

    /** Native protocol type ids; 0x0A (text in protocol v1) tells text from varchar. */
    private static int nativeId(CqlType.Kind kind) {
        return switch (kind) {
            case ASCII -> 0x01;
            case BIGINT -> 0x02;
            case BLOB -> 0x03;
            case BOOLEAN -> 0x04;
            case COUNTER -> 0x05;
            case DECIMAL -> 0x06;
            case DOUBLE -> 0x07;
            case FLOAT -> 0x08;
            case INT -> 0x09;
            case TEXT -> 0x0A;
            case TIMESTAMP -> 0x0B;
            case UUID -> 0x0C;
            case VARCHAR -> 0x0D;
            case VARINT -> 0x0E;
            case TIMEUUID -> 0x0F;
            case INET -> 0x10;
            case DATE -> 0x11;
            case TIME -> 0x12;
            case SMALLINT -> 0x13;
            case TINYINT -> 0x14;
            case DURATION -> 0x15;
        };
    }

    private static final CqlType.Kind[] KIND_BY_ID = new CqlType.Kind[0x16];

    static {
        for (CqlType.Kind k : CqlType.Kind.values()) {
            KIND_BY_ID[nativeId(k)] = k;
        }
    }

    private static void writeType(Sink out, CqlType type) {
        if (type instanceof CqlType.Native n) {
            out.writeByte(nativeId(n.kind()));
        } else if (type instanceof CqlType.ListType l) {
            out.writeByte(TYPE_LIST);
            out.writeByte(l.frozen() ? 1 : 0);
            writeType(out, l.element());
        } else if (type instanceof CqlType.SetType s) {
            out.writeByte(TYPE_SET);
            out.writeByte(s.frozen() ? 1 : 0);
            writeType(out, s.element());
        } else if (type instanceof CqlType.MapType m) {
            out.writeByte(TYPE_MAP);
            out.writeByte(m.frozen() ? 1 : 0);
            writeType(out, m.key());
            writeType(out, m.value());
        } else {
            CqlType.UserType u = (CqlType.UserType) type;
            out.writeByte(TYPE_UDT);
            out.writeByte(u.frozen() ? 1 : 0);
            out.writeString(u.keyspace());
            out.writeString(u.name());
            writeFields(out, u.fields());
        }
    }

    private static CqlType readType(Source in, int depth) {
        if (depth > MAX_TYPE_DEPTH) {
            throw new DictionaryCodecException("types nested deeper than " + MAX_TYPE_DEPTH);
        }
        int id = in.readByte();
        if (id < KIND_BY_ID.length && KIND_BY_ID[id] != null) {
            return CqlType.of(KIND_BY_ID[id]);
        }
        switch (id) {
            case TYPE_LIST: {
                boolean frozen = in.readBoolean();
                return new CqlType.ListType(readType(in, depth + 1), frozen);
            }
            case TYPE_SET: {
                boolean frozen = in.readBoolean();
                return new CqlType.SetType(readType(in, depth + 1), frozen);
            }
            case TYPE_MAP: {
                boolean frozen = in.readBoolean();
                CqlType k = readType(in, depth + 1);
                return new CqlType.MapType(k, readType(in, depth + 1), frozen);
            }
            case TYPE_UDT: {
                boolean frozen = in.readBoolean();
                String ks = in.readString();
                String name = in.readString();
                return new CqlType.UserType(ks, name, readFields(in, depth), frozen);
            }
            default:
                throw new DictionaryCodecException("unknown type id 0x" + Integer.toHexString(id));
        }
    }

    // ---------------------------------------------------------------- bytes

    /** A growable output buffer. */
    private static final class Sink {
        private byte[] buf;
        private int pos;

        Sink(int capacity) {
            buf = new byte[capacity];
        }

        private void ensure(int n) {
            if (pos + n > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, pos + n));
            }
        }

        void writeByte(int b) {
            ensure(1);
            buf[pos++] = (byte) b;
        }

        void writeUnsigned(long v) {
            ensure(VIntCoding.MAX_SIZE);
            pos = VIntCoding.writeUnsigned(v, buf, pos);
        }

        void writeSigned(long v) {
            ensure(VIntCoding.MAX_SIZE);
            pos = VIntCoding.writeSigned(v, buf, pos);
        }

        void writeString(String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            writeUnsigned(b.length);
            ensure(b.length);
            System.arraycopy(b, 0, buf, pos, b.length);
            pos += b.length;
        }

        byte[] finish() {
            CRC32C crc = new CRC32C();
            crc.update(buf, 0, pos);
            int c = (int) crc.getValue();
            ensure(4);
            buf[pos++] = (byte) (c >>> 24);
            buf[pos++] = (byte) (c >>> 16);
            buf[pos++] = (byte) (c >>> 8);
            buf[pos++] = (byte) c;
            return Arrays.copyOf(buf, pos);
        }
    }

    /** A bounds-checked reader over the payload. */
    private static final class Source {
        private final byte[] buf;
        private final int end;
        private int pos;

        Source(byte[] buf, int pos, int end) {
            this.buf = buf;
            this.pos = pos;
            this.end = end;
        }

        private DictionaryCodecException truncated() {
            return new DictionaryCodecException("encoded dictionary record is truncated at byte " + pos);
        }

        int readByte() {
            if (pos >= end) {
                throw truncated();
            }
            return buf[pos++] & 0xFF;
        }

        boolean readBoolean() {
            int b = readByte();
            if (b > 1) {
                throw new DictionaryCodecException("invalid boolean " + b + " at byte " + (pos - 1));
            }
            return b == 1;
        }

        long readUnsigned() {
            if (pos >= end) {
                throw truncated();
            }
            int size = VIntCoding.sizeFromFirstByte(buf[pos]);
            if (size > end - pos) {
                throw truncated();
            }
            long v = VIntCoding.readUnsigned(buf, pos);
            pos += size;
            return v;
        }

        long readSigned() {
            return VIntCoding.decodeZigZag(readUnsigned());
        }

        int readInt32(String what) {
            long v = readUnsigned();
            if (v < 0 || v > Integer.MAX_VALUE) {
                throw new DictionaryCodecException(what + " " + Long.toUnsignedString(v) + " is out of range");
            }
            return (int) v;
        }

        /** A count of items, each taking at least one byte: bounded by what is left. */
        int readCount() {
            long n = readUnsigned();
            if (n < 0 || n > end - pos) {
                throw new DictionaryCodecException("count " + Long.toUnsignedString(n) + " at byte " + pos
                        + " exceeds the " + (end - pos) + " bytes left");
            }
            return (int) n;
        }

        <E> E readEnum(E[] values, String what) {
            int b = readByte();
            if (b >= values.length) {
                throw new DictionaryCodecException("invalid " + what + " " + b);
            }
            return values[b];
        }

        String readString() {
            int n = readCount();
            try {
                String s = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT)
                        .decode(java.nio.ByteBuffer.wrap(buf, pos, n)).toString();
                pos += n;
                return s;
            } catch (CharacterCodingException e) {
                throw new DictionaryCodecException("invalid UTF-8 string at byte " + pos, e);
            }
        }

        void requireEnd() {
            if (pos != end) {
                throw new DictionaryCodecException((end - pos) + " unexpected bytes after the encoded record");
            }
        }
    }
}
