package dev.tributary.generations;

import java.util.Objects;

/**
 * One vnode of a {@link TokenRing}: the token range {@code (start, end]} owned by {@code owner}.
 *
 * <p>Vnode 0 is the wrapping one: it starts at the ring's last token and ends at its first, so it
 * holds every token above the last ring token and every token up to the first. On a ring with a
 * single token, {@code start == end} and the vnode holds the whole ring. Indexes follow the order
 * of the vnodes' end tokens, as ScyllaDB numbers them when it builds a generation. Immutable.
 *
 * @param index the position of the vnode's end token among the ring's sorted tokens
 * @param start the exclusive start token (the previous ring token)
 * @param end the inclusive end token (a ring token)
 * @param owner the node id that owns the end token
 */
public record Vnode(int index, long start, long end, String owner) {

    public Vnode {
        Objects.requireNonNull(owner, "owner");
        if (index < 0) {
            throw new IllegalArgumentException("vnode index " + index + " is negative");
        }
    }

    /** Whether {@code token} lies in {@code (start, end]}, wrapping past the largest token. */
    public boolean contains(long token) {
        return contains(start, end, token);
    }

    /** Whether this is the vnode that wraps from the largest token to the smallest. */
    public boolean wraps() {
        return start >= end;
    }

    static boolean contains(long start, long end, long token) {
        if (start < end) {
            return start < token && token <= end;
        }
        // Wrapping range (including the single-token ring, where start == end covers everything).
        return token > start || token <= end;
    }

    @Override
    public String toString() {
        return "vnode " + index + " (" + start + ", " + end + "] of " + owner;
    }
}
