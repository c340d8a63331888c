package dev.tributary.client.internal;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The vnode ring as the client routes by it: sorted tokens, each with its owner. A node owns
 * (previous token, its token]: the owner of token t is the owner of the smallest ring token
 * {@code >= t}, wrapping to the smallest token overall, as the server's ring does. Immutable and
 * thread-safe.
 *
 * @param <T> what an owner is (an endpoint, a host id in tests)
 */
public final class TokenRing<T> {
    private static final TokenRing<?> EMPTY = new TokenRing<>(new long[0], List.of());

    private final long[] tokens;
    private final List<T> owners;

    private TokenRing(long[] tokens, List<T> owners) {
        this.tokens = tokens;
        this.owners = owners;
    }

    @SuppressWarnings("unchecked")
    public static <T> TokenRing<T> empty() {
        return (TokenRing<T>) EMPTY;
    }

    /** A ring from token → owner; a null owner is a range the ring knows no reachable owner of. */
    public static <T> TokenRing<T> of(Map<Long, T> owners) {
        TreeMap<Long, T> sorted = new TreeMap<>(owners);
        long[] tokens = new long[sorted.size()];
        int i = 0;
        for (long t : sorted.keySet()) {
            tokens[i++] = t;
        }
        return new TokenRing<>(tokens, java.util.Collections.unmodifiableList(new java.util.ArrayList<>(sorted.values())));
    }

    /** The owner of a token, or null when the ring is empty or the owner of its range is not known. */
    public T owner(long token) {
        if (tokens.length == 0) {
            return null;
        }
        int at = Arrays.binarySearch(tokens, token);
        if (at < 0) {
            at = -at - 1; // the first ring token above
        }
        return owners.get(at == tokens.length ? 0 : at);
    }

    public int size() {
        return tokens.length;
    }

    public boolean isEmpty() {
        return tokens.length == 0;
    }

    @Override
    public String toString() {
        return "TokenRing[" + tokens.length + " tokens]";
    }
}
