package dev.tributary.generations;

import java.util.List;
import java.util.Objects;

/**
 * The serialized form of a partition key, the bytes {@link Murmur3Partitioner} hashes.
 *
 * <p>A key with one component is that component's serialized value as is. A key with several
 * components (a compound partition key) is encoded as Cassandra's {@code CompositeType} does: for
 * each component a 2-byte big-endian unsigned length, the bytes, and one end-of-component byte
 * {@code 0x00}.
 *
 * <p>Stateless and thread-safe.
 */
public final class PartitionKeys {

    /** A component's length is written as an unsigned 16-bit number. */
    public static final int MAX_COMPONENT_LENGTH = 0xFFFF;

    private PartitionKeys() {
    }

    /**
     * The serialized partition key for the given serialized component values, in partition key
     * order. The components are not modified; the result is a new array.
     *
     * @throws IllegalArgumentException if there are no components, or a component of a compound key
     *     is longer than {@link #MAX_COMPONENT_LENGTH} bytes
     * @throws NullPointerException if the list or a component is null
     */
    public static byte[] serialize(List<byte[]> components) {
        Objects.requireNonNull(components, "components");
        if (components.isEmpty()) {
            throw new IllegalArgumentException("a partition key has at least one component");
        }
        if (components.size() == 1) {
            return Objects.requireNonNull(components.get(0), "partition key component 0").clone();
        }
        int size = 0;
        for (int i = 0; i < components.size(); i++) {
            byte[] component = Objects.requireNonNull(components.get(i), "partition key component " + i);
            if (component.length > MAX_COMPONENT_LENGTH) {
                throw new IllegalArgumentException("partition key component " + i + " is " + component.length
                        + " bytes; a compound key component holds at most " + MAX_COMPONENT_LENGTH);
            }
            size += 2 + component.length + 1;
        }
        byte[] out = new byte[size];
        int at = 0;
        for (byte[] component : components) {
            out[at++] = (byte) (component.length >>> 8);
            out[at++] = (byte) component.length;
            System.arraycopy(component, 0, out, at, component.length);
            at += component.length;
            out[at++] = 0;
        }
        return out;
    }

    /** {@code Murmur3Partitioner.token(serialize(components))}. */
    public static long token(List<byte[]> components) {
        return Murmur3Partitioner.token(serialize(components));
    }

    /**
     * The components of a serialized compound key ({@link #serialize} with several components).
     *
     * @throws IllegalArgumentException if the bytes are not a key of {@code count} components
     */
    public static List<byte[]> deserialize(byte[] key, int count) {
        Objects.requireNonNull(key, "key");
        if (count == 1) {
            return List.of(key.clone());
        }
        List<byte[]> out = new java.util.ArrayList<>(count);
        int at = 0;
        for (int i = 0; i < count; i++) {
            if (at + 2 > key.length) {
                throw new IllegalArgumentException("compound key truncated in component " + i);
            }
            int len = ((key[at] & 0xFF) << 8) | (key[at + 1] & 0xFF);
            at += 2;
            if (at + len + 1 > key.length) {
                throw new IllegalArgumentException("compound key truncated in component " + i);
            }
            out.add(java.util.Arrays.copyOfRange(key, at, at + len));
            at += len + 1;
        }
        if (at != key.length) {
            throw new IllegalArgumentException((key.length - at) + " trailing bytes after a " + count + "-component key");
        }
        return out;
    }
}
