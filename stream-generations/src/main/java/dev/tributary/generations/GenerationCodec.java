package dev.tributary.generations;

import dev.tributary.generations.errors.CorruptGenerationDataException;
import dev.tributary.generations.internal.ByteReader;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.zip.CRC32;

/**
 * The binary forms of {@link Generation}, {@link TabletStreamSet} and {@link TabletMap} stored in
 * ZooKeeper.
 *
 * <p>Every form is {@code format byte | body | CRC-32 of the preceding bytes (4 bytes)}, with
 * integers big-endian. The format byte names both the kind of data and its version, so reading a
 * tablet map where a generation was expected is reported as such. Bodies:
 * <ul>
 *   <li>{@link #GENERATION_V1}: timestamp (8), vnode count (4), then per vnode its range end (8),
 *       stream count (4) and streams (16 each);</li>
 *   <li>{@link #TABLET_STREAM_SET_V1}: timestamp (8), stream count (4), streams (16 each);</li>
 *   <li>{@link #TABLET_MAP_V1}: tablet count (4), then per tablet its replica node id as an unsigned
 *       16-bit UTF-8 byte length and the bytes.</li>
 * </ul>
 *
 * <p>Decoding fails with {@link CorruptGenerationDataException} on an unknown format byte,
 * truncated or trailing bytes, a checksum mismatch, malformed UTF-8, or decoded values that break
 * the type's own invariants. Stateless and thread-safe.
 */
public final class GenerationCodec {

    /** Format byte of a generation, version 1. */
    public static final byte GENERATION_V1 = 0x01;
    /** Format byte of a tablet stream set, version 1. */
    public static final byte TABLET_STREAM_SET_V1 = 0x02;
    /** Format byte of a tablet map, version 1. */
    public static final byte TABLET_MAP_V1 = 0x03;

    private static final int CHECKSUM_BYTES = 4;
    private static final int MAX_NODE_ID_BYTES = 0xFFFF;

    private GenerationCodec() {
    }

    public static byte[] encode(Generation generation) {
        Objects.requireNonNull(generation, "generation");
        Writer out = new Writer(GENERATION_V1);
        out.writeLong(generation.timestampMillis());
        out.writeInt(generation.vnodes().size());
        for (VnodeStreams vnode : generation.vnodes()) {
            out.writeLong(vnode.rangeEnd());
            out.writeInt(vnode.streams().size());
            for (StreamId stream : vnode.streams()) {
                out.writeStream(stream);
            }
        }
        return out.finish();
    }

    /**
     * @throws CorruptGenerationDataException if the bytes are not a valid encoded generation
     */
    public static Generation decodeGeneration(byte[] data) {
        ByteReader in = open("generation data", data, GENERATION_V1);
        long timestamp = in.readLong("timestamp");
        int vnodeCount = in.readCount("vnode count", 8 + 4);
        List<VnodeStreams> vnodes = new ArrayList<>(vnodeCount);
        for (int i = 0; i < vnodeCount; i++) {
            long rangeEnd = in.readLong("range end of vnode " + i);
            int streamCount = in.readCount("stream count of vnode " + i, StreamId.BYTES);
            List<StreamId> streams = new ArrayList<>(streamCount);
            for (int s = 0; s < streamCount; s++) {
                streams.add(readStream(in, "stream " + s + " of vnode " + i));
            }
            vnodes.add(build(in, () -> new VnodeStreams(rangeEnd, streams)));
        }
        in.expectEnd();
        return build(in, () -> new Generation(timestamp, vnodes));
    }

    public static byte[] encode(TabletStreamSet set) {
        Objects.requireNonNull(set, "set");
        Writer out = new Writer(TABLET_STREAM_SET_V1);
        out.writeLong(set.timestampMillis());
        out.writeInt(set.streams().size());
        for (StreamId stream : set.streams()) {
            out.writeStream(stream);
        }
        return out.finish();
    }

    /**
     * @throws CorruptGenerationDataException if the bytes are not a valid encoded tablet stream set
     */
    public static TabletStreamSet decodeTabletStreamSet(byte[] data) {
        ByteReader in = open("tablet stream set data", data, TABLET_STREAM_SET_V1);
        long timestamp = in.readLong("timestamp");
        int count = in.readCount("stream count", StreamId.BYTES);
        List<StreamId> streams = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            streams.add(readStream(in, "stream " + i));
        }
        in.expectEnd();
        return build(in, () -> new TabletStreamSet(timestamp, streams));
    }

    /**
     * @throws IllegalArgumentException if a replica node id is longer than 65535 UTF-8 bytes
     */
    public static byte[] encode(TabletMap map) {
        Objects.requireNonNull(map, "map");
        Writer out = new Writer(TABLET_MAP_V1);
        out.writeInt(map.tabletCount());
        for (int tablet = 0; tablet < map.tabletCount(); tablet++) {
            byte[] nodeId = map.replica(tablet).getBytes(StandardCharsets.UTF_8);
            if (nodeId.length > MAX_NODE_ID_BYTES) {
                throw new IllegalArgumentException("replica node id of tablet " + tablet + " is " + nodeId.length
                        + " UTF-8 bytes; at most " + MAX_NODE_ID_BYTES + " can be stored");
            }
            out.writeShort(nodeId.length);
            out.writeBytes(nodeId);
        }
        return out.finish();
    }

    /**
     * @throws CorruptGenerationDataException if the bytes are not a valid encoded tablet map
     */
    public static TabletMap decodeTabletMap(byte[] data) {
        ByteReader in = open("tablet map data", data, TABLET_MAP_V1);
        int count = in.readCount("tablet count", 2);
        List<String> replicas = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int length = in.readUnsignedShort("replica length of tablet " + i);
            replicas.add(in.readUtf8(length, "replica of tablet " + i));
        }
        in.expectEnd();
        return build(in, () -> new TabletMap(replicas));
    }

    /** Checks the format byte and checksum; returns a reader over the body. */
    private static ByteReader open(String what, byte[] data, byte expectedFormat) {
        Objects.requireNonNull(data, "data");
        if (data.length < 1 + CHECKSUM_BYTES) {
            throw new CorruptGenerationDataException(what + ": " + data.length
                    + " bytes is shorter than a format byte and a checksum");
        }
        byte format = data[0];
        if (format != expectedFormat) {
            throw new CorruptGenerationDataException(what + ": format byte " + hex(format) + " is not "
                    + hex(expectedFormat) + " (" + describe(expectedFormat) + ")"
                    + (describe(format).isEmpty() ? "" : "; it holds a " + describe(format)));
        }
        int bodyEnd = data.length - CHECKSUM_BYTES;
        CRC32 crc = new CRC32();
        crc.update(data, 0, bodyEnd);
        int stored = new ByteReader(what, data, bodyEnd, data.length).readInt("checksum");
        if (stored != (int) crc.getValue()) {
            throw new CorruptGenerationDataException(what + ": checksum mismatch (stored "
                    + String.format(Locale.ROOT, "%08x", stored) + ", computed "
                    + String.format(Locale.ROOT, "%08x", (int) crc.getValue()) + ") over " + bodyEnd + " bytes");
        }
        return new ByteReader(what, data, 1, bodyEnd);
    }

    private static StreamId readStream(ByteReader in, String field) {
        long high = in.readLong(field);
        long low = in.readLong(field);
        return new StreamId(high, low);
    }

    private interface Builder<T> {
        T build();
    }

    /** Values that decode but break a type's invariants are corrupt data too. */
    private static <T> T build(ByteReader in, Builder<T> builder) {
        try {
            return builder.build();
        } catch (IllegalArgumentException e) {
            throw in.corrupt("invalid content: " + e.getMessage(), e);
        }
    }

    private static String hex(byte b) {
        return String.format(Locale.ROOT, "0x%02x", b & 0xff);
    }

    private static String describe(byte format) {
        switch (format) {
            case GENERATION_V1:
                return "generation v1";
            case TABLET_STREAM_SET_V1:
                return "tablet stream set v1";
            case TABLET_MAP_V1:
                return "tablet map v1";
            default:
                return "";
        }
    }

    /** Accumulates a body in memory and appends the checksum. */
    private static final class Writer {
        private byte[] buffer = new byte[256];
        private int size;

        Writer(byte format) {
            write(format);
        }

        private void write(int b) {
            if (size == buffer.length) {
                buffer = Arrays.copyOf(buffer, buffer.length * 2);
            }
            buffer[size++] = (byte) b;
        }

        void writeShort(int value) {
            write(value >>> 8);
            write(value);
        }

        void writeInt(int value) {
            for (int shift = 24; shift >= 0; shift -= 8) {
                write(value >>> shift);
            }
        }

        void writeLong(long value) {
            for (int shift = 56; shift >= 0; shift -= 8) {
                write((int) (value >>> shift));
            }
        }

        void writeBytes(byte[] bytes) {
            for (byte b : bytes) {
                write(b);
            }
        }

        void writeStream(StreamId stream) {
            writeLong(stream.high());
            writeLong(stream.low());
        }

        byte[] finish() {
            CRC32 crc = new CRC32();
            crc.update(buffer, 0, size);
            writeInt((int) crc.getValue());
            return Arrays.copyOf(buffer, size);
        }
    }
}
