package dev.tributary.generations;

import dev.tributary.generations.internal.TokenRanges;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * A CDC stream generation of a vnode cluster: the timestamp from which it operates, a set of stream
 * IDs, and the mapping from every token of the ring to one of those streams. The mapping is global
 * to the cluster; it does not depend on the table written to.
 *
 * <p>The mapping is a list of vnodes sorted by end token: a token maps to the stream of the first
 * vnode whose end is {@code >=} the token, wrapping to the first vnode, the same lookup ScyllaDB's
 * {@code cdc::metadata::get_stream} does. Generations built by {@link #create} keep ScyllaDB's
 * invariant: the token of a key and the token of its stream lie in the same vnode. Immutable.
 *
 * @param timestampMillis milliseconds since the epoch from which writes use this generation
 * @param vnodes the vnodes' streams, strictly ascending by {@link VnodeStreams#rangeEnd()}
 */
public record Generation(long timestampMillis, List<VnodeStreams> vnodes) {

    public Generation {
        Objects.requireNonNull(vnodes, "vnodes");
        vnodes = List.copyOf(vnodes);
        if (vnodes.isEmpty()) {
            throw new IllegalArgumentException("generation " + timestampMillis + " maps no vnodes");
        }
        for (int i = 1; i < vnodes.size(); i++) {
            if (vnodes.get(i - 1).rangeEnd() >= vnodes.get(i).rangeEnd()) {
                throw new IllegalArgumentException("generation " + timestampMillis + ": vnode range ends must be"
                        + " strictly ascending, but " + vnodes.get(i - 1).rangeEnd() + " precedes "
                        + vnodes.get(i).rangeEnd());
            }
        }
    }

    /**
     * A new generation for {@code ring}: for each vnode one stream whose token is drawn from inside
     * the vnode and whose index is the vnode's index.
     *
     * @throws IllegalArgumentException if the ring is empty
     */
    public static Generation create(long timestampMillis, TokenRing ring, RandomGenerator rnd) {
        Objects.requireNonNull(ring, "ring");
        Objects.requireNonNull(rnd, "rnd");
        if (ring.isEmpty()) {
            throw new IllegalArgumentException("cannot create generation " + timestampMillis
                    + " for an empty token ring");
        }
        List<VnodeStreams> result = new ArrayList<>(ring.size());
        for (Vnode vnode : ring.vnodes()) {
            long token = TokenRanges.randomTokenIn(vnode.start(), vnode.end(), rnd);
            result.add(new VnodeStreams(vnode.end(), List.of(StreamId.create(token, vnode.index(), rnd))));
        }
        return new Generation(timestampMillis, result);
    }

    /** The stream a write of a key with this token goes to in this generation. */
    public StreamId streamFor(long token) {
        return vnodeFor(token).primary();
    }

    /** The vnode holding {@code token}: the first with {@code rangeEnd >= token}, else the first. */
    public VnodeStreams vnodeFor(long token) {
        int lo = 0;
        int hi = vnodes.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (vnodes.get(mid).rangeEnd() < token) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return vnodes.get(lo == vnodes.size() ? 0 : lo);
    }

    /** Every stream ID of this generation, in vnode order. */
    public List<StreamId> streams() {
        List<StreamId> all = new ArrayList<>();
        for (VnodeStreams vnode : vnodes) {
            all.addAll(vnode.streams());
        }
        return List.copyOf(all);
    }

    @Override
    public String toString() {
        return "Generation{timestamp=" + timestampMillis + ", vnodes=" + vnodes.size() + "}";
    }
}
