package dev.tributary.node.storage;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Key layouts of the column families. Big-endian throughout, so RocksDB's bytewise order is the
 * order Tributary needs:
 * <ul>
 *   <li>{@code rows}: object number (8) | token with the sign bit flipped (8) | partition key
 *       length (4) | partition key | per clustering column: length (4) | value. Partitions sort in
 *       token order, as Cassandra scans them; rows inside a partition are put in clustering order
 *       by the reader, since the serialized values do not sort by their CQL order.</li>
 *   <li>{@code redo}: commit SCN (8).</li>
 *   <li>{@code cdc_log}: log id (8) | stream id (16, the token half sign-flipped so streams sort in token order) | time micros (8) | time uuid low half (8) |
 *       batch sequence number (4).</li>
 *   <li>{@code meta}: a UTF-8 prefix ({@code dict/}, {@code ckpt/}, {@code node/}) and a suffix.</li>
 * </ul>
 */
public final class Keys {
    private Keys() {
    }

    public static byte[] tablePrefix(long objectNumber) {
        return ByteBuffer.allocate(8).putLong(objectNumber).array();
    }

    public static byte[] partitionPrefix(long objectNumber, long token, byte[] partitionKey) {
        return ByteBuffer.allocate(20 + partitionKey.length).putLong(objectNumber).putLong(token ^ Long.MIN_VALUE)
                .putInt(partitionKey.length).put(partitionKey).array();
    }

    public static byte[] tokenBound(long objectNumber, long token) {
        return ByteBuffer.allocate(16).putLong(objectNumber).putLong(token ^ Long.MIN_VALUE).array();
    }

    public static byte[] rowKey(long objectNumber, long token, byte[] partitionKey, List<byte[]> clustering) {
        int len = 20 + partitionKey.length;
        for (byte[] c : clustering) {
            len += 4 + c.length;
        }
        ByteBuffer b = ByteBuffer.allocate(len).putLong(objectNumber).putLong(token ^ Long.MIN_VALUE)
                .putInt(partitionKey.length).put(partitionKey);
        for (byte[] c : clustering) {
            b.putInt(c.length).put(c);
        }
        return b.array();
    }

    /** The parts of a {@code rows} key. */
    public record RowKey(long objectNumber, long token, byte[] partitionKey, List<byte[]> clustering) {
    }

    public static RowKey decodeRowKey(byte[] key) {
        ByteBuffer b = ByteBuffer.wrap(key);
        long obj = b.getLong();
        long token = b.getLong() ^ Long.MIN_VALUE;
        byte[] pk = new byte[b.getInt()];
        b.get(pk);
        List<byte[]> ck = new ArrayList<>();
        while (b.hasRemaining()) {
            byte[] c = new byte[b.getInt()];
            b.get(c);
            ck.add(c);
        }
        return new RowKey(obj, token, pk, ck);
    }

    public static byte[] scn(long scn) {
        return ByteBuffer.allocate(8).putLong(scn).array();
    }

    public static long scnOf(byte[] key) {
        return ByteBuffer.wrap(key).getLong();
    }

    public static byte[] meta(String prefix) {
        return prefix.getBytes(StandardCharsets.UTF_8);
    }

    public static byte[] meta(String prefix, long suffix) {
        byte[] p = meta(prefix);
        return ByteBuffer.allocate(p.length + 8).put(p).putLong(suffix).array();
    }

    public static long metaSuffix(byte[] key, int prefixLength) {
        return ByteBuffer.wrap(key, prefixLength, 8).getLong();
    }

    /** The smallest key greater than every key with this prefix. */
    public static byte[] prefixEnd(byte[] prefix) {
        byte[] end = Arrays.copyOf(prefix, prefix.length);
        for (int i = end.length - 1; i >= 0; i--) {
            if (end[i] != (byte) 0xFF) {
                end[i]++;
                return Arrays.copyOf(end, i + 1);
            }
        }
        return null;
    }

    public static boolean hasPrefix(byte[] key, byte[] prefix) {
        return key.length >= prefix.length && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
    }
}
