package dev.tributary.rules;

import dev.tributary.rules.errors.CatalogCodecException;
import dev.tributary.rules.errors.RulesException;
import dev.tributary.rules.transform.AddColumn;
import dev.tributary.rules.transform.DeclarativeTransformation;
import dev.tributary.rules.transform.DeleteColumn;
import dev.tributary.rules.transform.RenameColumn;
import dev.tributary.rules.transform.RenameSchema;
import dev.tributary.rules.transform.RenameTable;
import dev.tributary.rules.transform.RuleTransformations;
import dev.tributary.rules.transform.ValueType;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Encodes a {@link CatalogSnapshot} to bytes and back, so the node can store the catalog.
 *
 * <p>Format (big-endian): the magic {@code TRRC}, a format version (1), the name sequence, then
 * the rules and the rule sets. Strings are a length and UTF-8 bytes; optional values a presence
 * byte; enums by name, so reordering an enum does not change stored meaning. Conditions are
 * stored as text and parsed again on decode: the text is the rule's source of truth. Values of
 * add_column transformations are tagged: null, String, Integer, Long, Short, Byte, BigInteger,
 * BigDecimal, Double, Float, Boolean, Instant, LocalDate, LocalTime, UUID, byte[].
 *
 * <p>Stateless and thread-safe.
 */
public final class CatalogCodec {
    private static final int MAGIC = 0x54525243; // "TRRC"
    private static final int VERSION = 1;

    private CatalogCodec() {
    }

    public static byte[] encode(CatalogSnapshot snapshot) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(MAGIC);
            out.writeShort(VERSION);
            out.writeLong(snapshot.sequence());
            out.writeInt(snapshot.rules().size());
            for (Rule r : snapshot.rules()) {
                writeRule(out, r);
            }
            out.writeInt(snapshot.ruleSets().size());
            for (RuleSet s : snapshot.ruleSets()) {
                writeString(out, s.owner());
                writeString(out, s.name());
                writeString(out, s.comment());
                out.writeInt(s.rules().size());
                for (QualifiedName q : s.rules()) {
                    writeString(out, q.owner());
                    writeString(out, q.name());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("writing to memory failed", e);
        }
        return bytes.toByteArray();
    }

    /**
     * Decodes bytes written by {@link #encode}.
     *
     * @throws CatalogCodecException if the bytes are truncated, corrupt or of an unknown version
     */
    public static CatalogSnapshot decode(byte[] data) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data))) {
            if (in.readInt() != MAGIC) {
                throw new CatalogCodecException("not a rule catalog: bad magic number", null);
            }
            int version = in.readUnsignedShort();
            if (version != VERSION) {
                throw new CatalogCodecException("rule catalog format version " + version + " is not supported (expected "
                        + VERSION + ")", null);
            }
            long sequence = in.readLong();
            int nRules = count(in);
            List<Rule> rules = new ArrayList<>(nRules);
            for (int i = 0; i < nRules; i++) {
                rules.add(readRule(in));
            }
            int nSets = count(in);
            List<RuleSet> sets = new ArrayList<>(nSets);
            for (int i = 0; i < nSets; i++) {
                String owner = readString(in);
                String name = readString(in);
                String comment = readString(in);
                int n = count(in);
                List<QualifiedName> members = new ArrayList<>(n);
                for (int j = 0; j < n; j++) {
                    members.add(new QualifiedName(readString(in), readString(in)));
                }
                sets.add(new RuleSet(owner, name, members, comment));
            }
            if (in.read() != -1) {
                throw new CatalogCodecException("rule catalog has trailing bytes", null);
            }
            return new CatalogSnapshot(sequence, rules, sets);
        } catch (CatalogCodecException e) {
            throw e;
        } catch (EOFException e) {
            throw new CatalogCodecException("rule catalog is truncated", e);
        } catch (IOException | RuntimeException e) {
            String what = e instanceof RulesException ? e.getMessage() : e.toString();
            throw new CatalogCodecException("rule catalog is corrupt: " + what, e);
        }
    }

    /** Whether an add_column value is of a type this codec stores. */
    public static boolean canStore(Object v) {
        return v == null || v instanceof String || v instanceof Integer || v instanceof Long || v instanceof Short
                || v instanceof Byte || v instanceof BigInteger || v instanceof BigDecimal || v instanceof Double
                || v instanceof Float || v instanceof Boolean || v instanceof Instant || v instanceof LocalDate
                || v instanceof LocalTime || v instanceof UUID || v instanceof byte[];
    }

    // ------------------------------------------------------------------ rules

    private static void writeRule(DataOutputStream out, Rule r) throws IOException {
        writeString(out, r.owner());
        writeString(out, r.name());
        writeString(out, r.condition().text());
        writeString(out, r.kind().name());
        writeOptional(out, r.ruleType().map(Enum::name));
        out.writeBoolean(r.system().isPresent());
        if (r.system().isPresent()) {
            SystemRuleSpec s = r.system().get();
            writeOptional(out, s.schemaName());
            writeOptional(out, s.objectName());
            writeOptional(out, s.subsettingOperation().map(Enum::name));
            writeOptional(out, s.dmlCondition());
            out.writeInt(s.subsetColumns().size());
            for (String c : s.subsetColumns()) {
                writeString(out, c);
            }
            out.writeBoolean(s.includeTaggedLcr());
            writeString(out, s.sourceDatabase());
            writeOptional(out, s.andCondition());
            writeString(out, s.originalCondition());
        }
        List<DeclarativeTransformation> ts = r.transformations().declarative();
        out.writeInt(ts.size());
        for (DeclarativeTransformation t : ts) {
            writeTransformation(out, t);
        }
        writeOptional(out, r.transformations().custom());
        writeString(out, r.comment());
    }

    private static Rule readRule(DataInputStream in) throws IOException {
        String owner = readString(in);
        String name = readString(in);
        Condition condition = Condition.parse(readString(in));
        RuleKind kind = RuleKind.valueOf(readString(in));
        Optional<DmlOrDdl> type = readOptional(in).map(DmlOrDdl::valueOf);
        Optional<SystemRuleSpec> system = Optional.empty();
        if (in.readBoolean()) {
            Optional<String> schema = readOptional(in);
            Optional<String> object = readOptional(in);
            Optional<SubsetOperation> op = readOptional(in).map(SubsetOperation::valueOf);
            Optional<String> dml = readOptional(in);
            int n = count(in);
            Set<String> columns = new LinkedHashSet<>();
            for (int i = 0; i < n; i++) {
                columns.add(readString(in));
            }
            boolean tagged = in.readBoolean();
            String source = readString(in);
            Optional<String> and = readOptional(in);
            String original = readString(in);
            system = Optional.of(new SystemRuleSpec(schema, object, op, dml, columns, tagged, source, and, original));
        }
        int nt = count(in);
        List<DeclarativeTransformation> ts = new ArrayList<>(nt);
        for (int i = 0; i < nt; i++) {
            ts.add(readTransformation(in));
        }
        Optional<String> custom = readOptional(in);
        String comment = readString(in);
        return new Rule(owner, name, condition, kind, type, system, new RuleTransformations(ts, custom), comment);
    }

    private static void writeTransformation(DataOutputStream out, DeclarativeTransformation t) throws IOException {
        if (t instanceof RenameSchema rs) {
            writeString(out, "RENAME_SCHEMA");
            out.writeInt(t.stepNumber());
            writeString(out, rs.fromSchema());
            writeString(out, rs.toSchema());
        } else if (t instanceof RenameTable rt) {
            writeString(out, "RENAME_TABLE");
            out.writeInt(t.stepNumber());
            writeString(out, rt.fromOwner());
            writeString(out, rt.fromName());
            writeString(out, rt.toOwner());
            writeString(out, rt.toName());
        } else if (t instanceof RenameColumn rc) {
            writeString(out, "RENAME_COLUMN");
            out.writeInt(t.stepNumber());
            writeString(out, rc.tableOwner());
            writeString(out, rc.tableName());
            writeString(out, rc.fromColumn());
            writeString(out, rc.toColumn());
            writeString(out, rc.valueType().name());
        } else if (t instanceof AddColumn ac) {
            writeString(out, "ADD_COLUMN");
            out.writeInt(t.stepNumber());
            writeString(out, ac.tableOwner());
            writeString(out, ac.tableName());
            writeString(out, ac.column());
            writeValue(out, ac.value());
            writeString(out, ac.valueType().name());
        } else if (t instanceof DeleteColumn dc) {
            writeString(out, "DELETE_COLUMN");
            out.writeInt(t.stepNumber());
            writeString(out, dc.tableOwner());
            writeString(out, dc.tableName());
            writeString(out, dc.column());
            writeString(out, dc.valueType().name());
        } else {
            throw new IllegalStateException("unknown transformation " + t);
        }
    }

    private static DeclarativeTransformation readTransformation(DataInputStream in) throws IOException {
        String kind = readString(in);
        int step = in.readInt();
        return switch (kind) {
            case "RENAME_SCHEMA" -> new RenameSchema(readString(in), readString(in), step);
            case "RENAME_TABLE" -> new RenameTable(readString(in), readString(in), readString(in), readString(in), step);
            case "RENAME_COLUMN" -> new RenameColumn(readString(in), readString(in), readString(in), readString(in),
                    ValueType.valueOf(readString(in)), step);
            case "ADD_COLUMN" -> new AddColumn(readString(in), readString(in), readString(in), readValue(in),
                    ValueType.valueOf(readString(in)), step);
            case "DELETE_COLUMN" -> new DeleteColumn(readString(in), readString(in), readString(in),
                    ValueType.valueOf(readString(in)), step);
            default -> throw new CatalogCodecException("unknown transformation kind " + kind, null);
        };
    }

    // ------------------------------------------------------------------ primitives

    private static void writeValue(DataOutputStream out, Object v) throws IOException {
        if (v == null) {
            out.writeByte(0);
        } else if (v instanceof String s) {
            out.writeByte(1);
            writeString(out, s);
        } else if (v instanceof Integer i) {
            out.writeByte(2);
            out.writeInt(i);
        } else if (v instanceof Long l) {
            out.writeByte(3);
            out.writeLong(l);
        } else if (v instanceof Short s) {
            out.writeByte(4);
            out.writeShort(s);
        } else if (v instanceof Byte b) {
            out.writeByte(5);
            out.writeByte(b);
        } else if (v instanceof BigInteger bi) {
            out.writeByte(6);
            writeString(out, bi.toString());
        } else if (v instanceof BigDecimal bd) {
            out.writeByte(7);
            writeString(out, bd.toString());
        } else if (v instanceof Double d) {
            out.writeByte(8);
            out.writeDouble(d);
        } else if (v instanceof Float f) {
            out.writeByte(9);
            out.writeFloat(f);
        } else if (v instanceof Boolean b) {
            out.writeByte(10);
            out.writeBoolean(b);
        } else if (v instanceof Instant t) {
            out.writeByte(11);
            out.writeLong(t.getEpochSecond());
            out.writeInt(t.getNano());
        } else if (v instanceof LocalDate d) {
            out.writeByte(12);
            out.writeLong(d.toEpochDay());
        } else if (v instanceof LocalTime t) {
            out.writeByte(13);
            out.writeLong(t.toNanoOfDay());
        } else if (v instanceof UUID u) {
            out.writeByte(14);
            out.writeLong(u.getMostSignificantBits());
            out.writeLong(u.getLeastSignificantBits());
        } else if (v instanceof byte[] b) {
            out.writeByte(15);
            out.writeInt(b.length);
            out.write(b);
        } else {
            throw new IllegalArgumentException("cannot store a value of type " + v.getClass().getName());
        }
    }

    private static Object readValue(DataInputStream in) throws IOException {
        int tag = in.readUnsignedByte();
        return switch (tag) {
            case 0 -> null;
            case 1 -> readString(in);
            case 2 -> in.readInt();
            case 3 -> in.readLong();
            case 4 -> in.readShort();
            case 5 -> in.readByte();
            case 6 -> new BigInteger(readString(in));
            case 7 -> new BigDecimal(readString(in));
            case 8 -> in.readDouble();
            case 9 -> in.readFloat();
            case 10 -> in.readBoolean();
            case 11 -> Instant.ofEpochSecond(in.readLong(), in.readInt());
            case 12 -> LocalDate.ofEpochDay(in.readLong());
            case 13 -> LocalTime.ofNanoOfDay(in.readLong());
            case 14 -> new UUID(in.readLong(), in.readLong());
            case 15 -> {
                byte[] b = new byte[count(in)];
                in.readFully(b);
                yield b;
            }
            default -> throw new CatalogCodecException("unknown value tag " + tag, null);
        };
    }

    private static int count(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > in.available() + 1) {
            // every element takes at least one byte, so a count beyond the remaining bytes is corrupt
            throw new CatalogCodecException("rule catalog is corrupt: count " + n + " exceeds the remaining data", null);
        }
        return n;
    }

    private static void writeString(DataOutputStream out, String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    private static String readString(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > in.available()) {
            throw new EOFException("string of " + n + " bytes runs past the end");
        }
        byte[] b = new byte[n];
        in.readFully(b);
        return new String(b, StandardCharsets.UTF_8);
    }

    private static void writeOptional(DataOutputStream out, Optional<String> v) throws IOException {
        out.writeBoolean(v.isPresent());
        if (v.isPresent()) {
            writeString(out, v.get());
        }
    }

    private static Optional<String> readOptional(DataInputStream in) throws IOException {
        return in.readBoolean() ? Optional.of(readString(in)) : Optional.empty();
    }
}
