package dev.tributary.node.kit;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import com.google.protobuf.WireFormat;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Structured protobuf mutations for the wire fuzz (RELIABILITY P1): starts from a valid message
 * and damages one field at a time, at any depth, the way a broken or hostile client would — a
 * wrong wire type, a length beyond the message, an out-of-range number or enum, invalid UTF-8,
 * empty or oversized bytes, a malformed varint — or the message as a whole: truncated, with an
 * unknown field, nested thousands deep. Random bytes would almost all fail at the first tag; these
 * reach the service's own checks. Every mutant comes from the {@link Random} given, so a seed
 * replays a run.
 */
public final class ProtoMutator {
    /** What a mutant does to its message. */
    public enum Kind {
        WRONG_WIRE_TYPE, HUGE_LENGTH, OUT_OF_RANGE, INVALID_UTF8, EMPTY, OVERSIZED, MALFORMED_VARINT, DUPLICATE,
        TRUNCATED, UNKNOWN_FIELD, DEEP_NESTING, BAD_TAG
    }

    /** One mutant: its bytes and what was done, for the failure message. */
    public record Mutant(byte[] bytes, String what) {
    }

    private static final int[] DEPTHS = {10, 99, 100, 101, 1_000, 30_000};
    private final int oversizedBytes;

    /** @param oversizedBytes the largest string or bytes value an OVERSIZED mutant carries */
    public ProtoMutator(int oversizedBytes) {
        this.oversizedBytes = oversizedBytes;
    }

    /**
     * The fields of {@code type} and of the message types under it, each as its path from the
     * root, cut where a type repeats (a Value inside a Value): the fields cases take turns on.
     */
    public static List<List<FieldDescriptor>> fieldPaths(Descriptor type) {
        List<List<FieldDescriptor>> out = new ArrayList<>();
        walk(type, new ArrayList<>(), new ArrayList<>(List.of(type)), out);
        return out;
    }

    private static void walk(Descriptor type, List<FieldDescriptor> prefix, List<Descriptor> seen,
            List<List<FieldDescriptor>> out) {
        for (FieldDescriptor f : type.getFields()) {
            List<FieldDescriptor> path = new ArrayList<>(prefix);
            path.add(f);
            out.add(path);
            if (f.getJavaType() == FieldDescriptor.JavaType.MESSAGE && !seen.contains(f.getMessageType())) {
                seen.add(f.getMessageType());
                walk(f.getMessageType(), path, seen, out);
                seen.remove(seen.size() - 1);
            }
        }
    }

    /** The kinds that damage the message as a whole: the only ones for a message without fields. */
    public static final List<Kind> WHOLE_MESSAGE = List.of(Kind.TRUNCATED, Kind.UNKNOWN_FIELD, Kind.DEEP_NESTING);

    /** A mutant of {@code valid}: {@code kind} applied to the field at {@code path} (or the message, for whole-message kinds). */
    public Mutant mutate(Message valid, List<FieldDescriptor> path, Kind kind, Random random) {
        String where = path.stream().map(FieldDescriptor::getName).reduce((a, b) -> a + "." + b).orElse("");
        return switch (kind) {
            case TRUNCATED -> {
                byte[] whole = valid.toByteArray();
                // a message of one byte or none has nothing to cut: give it a field first
                byte[] withField = whole.length > 1 ? whole : path.isEmpty()
                        ? lengthDelimited(unusedNumber(valid.getDescriptorForType(), random), randomBytes(random, 8))
                        : encodeAt(valid, path, 0, Kind.OVERSIZED, random);
                int cut = withField.length <= 1 ? 0 : 1 + random.nextInt(withField.length - 1);
                yield new Mutant(Arrays.copyOf(withField, cut), "truncated at " + cut + " of " + withField.length);
            }
            case UNKNOWN_FIELD -> {
                ByteArrayOutputStream b = new ByteArrayOutputStream();
                b.writeBytes(valid.toByteArray());
                int number = unusedNumber(valid.getDescriptorForType(), random);
                b.writeBytes(anyWireType(number, random));
                yield new Mutant(b.toByteArray(), "unknown field " + number);
            }
            case DEEP_NESTING -> {
                int depth = DEPTHS[random.nextInt(DEPTHS.length)];
                yield new Mutant(nested(valid, depth, random), "nested " + depth + " deep");
            }
            default -> new Mutant(encodeAt(valid, path, 0, kind, random), kind + " at " + where);
        };
    }

    /** {@code m} with the field at path[i] replaced by its mutant, recursing through message fields. */
    private byte[] encodeAt(Message m, List<FieldDescriptor> path, int i, Kind kind, Random random) {
        FieldDescriptor f = path.get(i);
        Message.Builder rest = m.toBuilder().clearField(f);
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes(rest.build().toByteArray());
        if (i == path.size() - 1) {
            b.writeBytes(mutantField(m, f, kind, random));
        } else {
            Message child = f.isRepeated()
                    ? (m.getRepeatedFieldCount(f) > 0 ? (Message) m.getRepeatedField(f, 0) : defaultChild(m, f))
                    : (Message) m.getField(f);
            byte[] inner = encodeAt(child, path, i + 1, kind, random);
            b.writeBytes(lengthDelimited(f.getNumber(), inner));
        }
        return b.toByteArray();
    }

    private static Message defaultChild(Message m, FieldDescriptor f) {
        return m.newBuilderForType().newBuilderForField(f).build();
    }

    private byte[] mutantField(Message m, FieldDescriptor f, Kind kind, Random random) {
        int n = f.getNumber();
        FieldDescriptor.Type t = f.getType();
        boolean text = t == FieldDescriptor.Type.STRING;
        boolean lengthy = text || t == FieldDescriptor.Type.BYTES || t == FieldDescriptor.Type.MESSAGE;
        return switch (kind) {
            case WRONG_WIRE_TYPE -> wrongWireType(n, wireTypeOf(f), random);
            case HUGE_LENGTH -> {
                long[] lengths = {Integer.MAX_VALUE, 0xFFFF_FFFFL, 1L << 40, 64, 1 << 20};
                ByteArrayOutputStream b = new ByteArrayOutputStream();
                b.writeBytes(tag(n, WireFormat.WIRETYPE_LENGTH_DELIMITED));
                b.writeBytes(varint(lengths[random.nextInt(lengths.length)]));
                b.writeBytes(randomBytes(random, random.nextInt(8)));
                yield b.toByteArray();
            }
            case OUT_OF_RANGE -> outOfRange(f, random);
            case INVALID_UTF8 -> {
                byte[][] bad = {{(byte) 0xC0, (byte) 0x80}, {(byte) 0xFF}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
                        {(byte) 0xE2, (byte) 0x82}, {(byte) 0xF8, (byte) 0x88, (byte) 0x80, (byte) 0x80, (byte) 0x80}};
                ByteArrayOutputStream v = new ByteArrayOutputStream();
                v.writeBytes("fz".getBytes(java.nio.charset.StandardCharsets.UTF_8));
                v.writeBytes(bad[random.nextInt(bad.length)]);
                v.writeBytes("t".getBytes(java.nio.charset.StandardCharsets.UTF_8));
                yield lengthDelimited(n, v.toByteArray());
            }
            case EMPTY -> lengthy ? lengthDelimited(n, new byte[0]) : tag(n, wireTypeOf(f));
            case OVERSIZED -> {
                int size = random.nextInt(4) == 0 ? oversizedBytes : 1 + random.nextInt(Math.max(1, oversizedBytes / 16));
                byte[] v = text ? "x".repeat(size).getBytes(java.nio.charset.StandardCharsets.US_ASCII) : randomBytes(random, size);
                yield lengthDelimited(n, v);
            }
            case MALFORMED_VARINT -> {
                ByteArrayOutputStream b = new ByteArrayOutputStream();
                b.writeBytes(tag(n, lengthy ? WireFormat.WIRETYPE_LENGTH_DELIMITED : WireFormat.WIRETYPE_VARINT));
                // eleven continuation bytes: longer than any varint may be
                byte[] v = new byte[random.nextBoolean() ? 11 : 1 + random.nextInt(5)];
                Arrays.fill(v, (byte) 0xFF);
                b.writeBytes(v);
                yield b.toByteArray();
            }
            case DUPLICATE -> {
                byte[] once = fieldBytes(m, f, random);
                ByteArrayOutputStream b = new ByteArrayOutputStream();
                b.writeBytes(once);
                b.writeBytes(mutantField(m, f, random.nextBoolean() ? Kind.OUT_OF_RANGE : Kind.OVERSIZED, random));
                b.writeBytes(once);
                yield b.toByteArray();
            }
            case BAD_TAG -> {
                // field number 0 and numbers past the largest a field may have are malformed tags
                long[] tags = {0, 7, (1L << 32) - 1, (long) Integer.MAX_VALUE << 3};
                ByteArrayOutputStream b = new ByteArrayOutputStream();
                b.writeBytes(varint(tags[random.nextInt(tags.length)]));
                b.writeBytes(varint(random.nextInt(1000)));
                yield b.toByteArray();
            }
            default -> throw new IllegalArgumentException(kind + " is not a field mutation");
        };
    }

    /** The field's valid encoding in {@code m}, or a plausible one when it is unset. */
    private static byte[] fieldBytes(Message m, FieldDescriptor f, Random random) {
        Message only = m.toBuilder().clear().build();
        Message.Builder b = only.toBuilder();
        if (f.isRepeated() ? m.getRepeatedFieldCount(f) > 0 : m.hasField(f)) {
            b.setField(f, m.getField(f));
            return b.build().toByteArray();
        }
        return f.getJavaType() == FieldDescriptor.JavaType.MESSAGE ? lengthDelimited(f.getNumber(), new byte[0])
                : tagged(f.getNumber(), WireFormat.WIRETYPE_VARINT, varint(random.nextInt(100)));
    }

    private static byte[] outOfRange(FieldDescriptor f, Random random) {
        int n = f.getNumber();
        return switch (f.getJavaType()) {
            case INT, LONG, ENUM, BOOLEAN -> {
                if (f.getType() == FieldDescriptor.Type.FIXED32 || f.getType() == FieldDescriptor.Type.SFIXED32) {
                    yield tagged(n, WireFormat.WIRETYPE_FIXED32, fixed32(random.nextBoolean() ? -1 : Integer.MIN_VALUE));
                }
                if (f.getType() == FieldDescriptor.Type.FIXED64 || f.getType() == FieldDescriptor.Type.SFIXED64) {
                    yield tagged(n, WireFormat.WIRETYPE_FIXED64, fixed64(random.nextBoolean() ? Long.MIN_VALUE : Long.MAX_VALUE));
                }
                // enums past the last value, ints beyond 32 bits, booleans other than 0/1, the extremes
                long[] values = {-1, Integer.MIN_VALUE, Integer.MAX_VALUE, 1L << 32, Long.MIN_VALUE, Long.MAX_VALUE, 2, 255,
                        1_000_000, random.nextLong()};
                yield tagged(n, WireFormat.WIRETYPE_VARINT, varint(values[random.nextInt(values.length)]));
            }
            case FLOAT -> tagged(n, WireFormat.WIRETYPE_FIXED32, fixed32(Float.floatToRawIntBits(new float[] {Float.NaN,
                    Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.MAX_VALUE, -0.0f}[random.nextInt(5)])));
            case DOUBLE -> tagged(n, WireFormat.WIRETYPE_FIXED64, fixed64(Double.doubleToRawLongBits(new double[] {Double.NaN,
                    Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MAX_VALUE, Double.MIN_VALUE}[random.nextInt(5)])));
            // a length-delimited field has no range: give it a number where it expects text or a message
            default -> tagged(n, WireFormat.WIRETYPE_VARINT, varint(random.nextLong()));
        };
    }

    private static int wireTypeOf(FieldDescriptor f) {
        if (f.isPacked()) {
            return WireFormat.WIRETYPE_LENGTH_DELIMITED;
        }
        return f.getLiteType().getWireType();
    }

    private static byte[] wrongWireType(int n, int proper, Random random) {
        int[] types = {WireFormat.WIRETYPE_VARINT, WireFormat.WIRETYPE_FIXED64, WireFormat.WIRETYPE_LENGTH_DELIMITED,
                WireFormat.WIRETYPE_START_GROUP, WireFormat.WIRETYPE_END_GROUP, WireFormat.WIRETYPE_FIXED32, 6, 7};
        int t;
        do {
            t = types[random.nextInt(types.length)];
        } while (t == proper);
        return payloadOf(n, t, random);
    }

    private static byte[] anyWireType(int n, Random random) {
        int[] types = {WireFormat.WIRETYPE_VARINT, WireFormat.WIRETYPE_FIXED64, WireFormat.WIRETYPE_LENGTH_DELIMITED,
                WireFormat.WIRETYPE_START_GROUP, WireFormat.WIRETYPE_FIXED32};
        return payloadOf(n, types[random.nextInt(types.length)], random);
    }

    private static byte[] payloadOf(int n, int wireType, Random random) {
        return switch (wireType) {
            case WireFormat.WIRETYPE_VARINT -> tagged(n, wireType, varint(random.nextLong()));
            case WireFormat.WIRETYPE_FIXED64 -> tagged(n, wireType, fixed64(random.nextLong()));
            case WireFormat.WIRETYPE_FIXED32 -> tagged(n, wireType, fixed32(random.nextInt()));
            case WireFormat.WIRETYPE_LENGTH_DELIMITED -> lengthDelimited(n, randomBytes(random, random.nextInt(32)));
            case WireFormat.WIRETYPE_START_GROUP -> {
                ByteArrayOutputStream b = new ByteArrayOutputStream();
                b.writeBytes(tag(n, WireFormat.WIRETYPE_START_GROUP));
                b.writeBytes(tagged(n + 1, WireFormat.WIRETYPE_VARINT, varint(1)));
                // half of the groups are never closed
                if (random.nextBoolean()) {
                    b.writeBytes(tag(n, WireFormat.WIRETYPE_END_GROUP));
                }
                yield b.toByteArray();
            }
            // an END_GROUP with no group open, and the two wire types protobuf never defined
            default -> tagged(n, wireType, randomBytes(random, random.nextInt(4)));
        };
    }

    /**
     * {@code valid} with a chain nested {@code depth} deep appended: through a message type that
     * contains itself (a Value in a collection in a Value) when one is reachable from the message,
     * else as unknown groups inside groups.
     */
    private static byte[] nested(Message valid, int depth, Random random) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes(valid.toByteArray());
        List<FieldDescriptor> toCycle = new ArrayList<>();
        List<FieldDescriptor> cycle = new ArrayList<>();
        if (random.nextBoolean() && findCycle(valid.getDescriptorForType(), toCycle, cycle)) {
            List<FieldDescriptor> chain = new ArrayList<>(toCycle);
            for (int d = 0; d < depth; d++) {
                chain.addAll(cycle);
            }
            byte[] inner = new byte[0];
            for (int i = chain.size() - 1; i >= 0; i--) {
                inner = lengthDelimited(chain.get(i).getNumber(), inner);
            }
            b.writeBytes(inner);
        } else {
            int n = unusedNumber(valid.getDescriptorForType(), random);
            for (int d = 0; d < depth; d++) {
                b.writeBytes(tag(n, WireFormat.WIRETYPE_START_GROUP));
            }
            for (int d = 0; d < depth; d++) {
                b.writeBytes(tag(n, WireFormat.WIRETYPE_END_GROUP));
            }
        }
        return b.toByteArray();
    }

    /** A path from {@code root} to a message type and a path from that type back to itself, by breadth-first search. */
    private static boolean findCycle(Descriptor root, List<FieldDescriptor> toCycle, List<FieldDescriptor> cycle) {
        Map<Descriptor, List<FieldDescriptor>> reached = new HashMap<>();
        ArrayDeque<Descriptor> queue = new ArrayDeque<>();
        reached.put(root, List.of());
        queue.add(root);
        while (!queue.isEmpty()) {
            Descriptor d = queue.poll();
            List<FieldDescriptor> back = pathTo(d, d);
            if (back != null) {
                toCycle.addAll(reached.get(d));
                cycle.addAll(back);
                return true;
            }
            for (FieldDescriptor f : d.getFields()) {
                if (f.getJavaType() == FieldDescriptor.JavaType.MESSAGE && !reached.containsKey(f.getMessageType())) {
                    List<FieldDescriptor> p = new ArrayList<>(reached.get(d));
                    p.add(f);
                    reached.put(f.getMessageType(), p);
                    queue.add(f.getMessageType());
                }
            }
        }
        return false;
    }

    private static List<FieldDescriptor> pathTo(Descriptor from, Descriptor target) {
        Map<Descriptor, List<FieldDescriptor>> reached = new HashMap<>();
        ArrayDeque<Descriptor> queue = new ArrayDeque<>();
        reached.put(from, List.of());
        queue.add(from);
        while (!queue.isEmpty()) {
            Descriptor d = queue.poll();
            for (FieldDescriptor f : d.getFields()) {
                if (f.getJavaType() != FieldDescriptor.JavaType.MESSAGE) {
                    continue;
                }
                List<FieldDescriptor> p = new ArrayList<>(reached.get(d));
                p.add(f);
                if (f.getMessageType() == target) {
                    return p;
                }
                if (!reached.containsKey(f.getMessageType())) {
                    reached.put(f.getMessageType(), p);
                    queue.add(f.getMessageType());
                }
            }
        }
        return null;
    }

    private static int unusedNumber(Descriptor type, Random random) {
        int n;
        do {
            n = random.nextBoolean() ? 1 + random.nextInt(64) : 1 + random.nextInt((1 << 29) - 1);
        } while (type.findFieldByNumber(n) != null || (n >= 19_000 && n <= 19_999));
        return n;
    }

    private static byte[] randomBytes(Random random, int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    private static byte[] tag(int number, int wireType) {
        return varint(((long) number << 3) | wireType);
    }

    private static byte[] tagged(int number, int wireType, byte[] payload) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes(tag(number, wireType));
        b.writeBytes(payload);
        return b.toByteArray();
    }

    private static byte[] lengthDelimited(int number, byte[] value) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes(tag(number, WireFormat.WIRETYPE_LENGTH_DELIMITED));
        b.writeBytes(varint(value.length));
        b.writeBytes(value);
        return b.toByteArray();
    }

    private static byte[] varint(long v) {
        byte[] out = new byte[CodedOutputStream.computeUInt64SizeNoTag(v)];
        write(out, o -> o.writeUInt64NoTag(v));
        return out;
    }

    private static byte[] fixed32(int v) {
        byte[] out = new byte[4];
        write(out, o -> o.writeFixed32NoTag(v));
        return out;
    }

    private static byte[] fixed64(long v) {
        byte[] out = new byte[8];
        write(out, o -> o.writeFixed64NoTag(v));
        return out;
    }

    private interface Writes {
        void to(CodedOutputStream o) throws IOException;
    }

    private static void write(byte[] into, Writes w) {
        try {
            CodedOutputStream o = CodedOutputStream.newInstance(into);
            w.to(o);
            o.checkNoSpaceLeft();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
