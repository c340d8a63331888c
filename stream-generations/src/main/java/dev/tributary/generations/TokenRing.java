package dev.tributary.generations;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * The token ring of a vnode cluster: sorted tokens, each owned by a node id.
 *
 * <p>A token belongs to the vnode that ends at the first ring token {@code >=} it; tokens above the
 * last ring token wrap around to the first. Immutable and thread-safe; {@link #with} and
 * {@link #without} return new rings.
 */
public final class TokenRing {

    private static final TokenRing EMPTY = new TokenRing(new TreeMap<>());

    private final NavigableMap<Long, String> owners;
    private final long[] sortedTokens;
    private final List<Vnode> vnodes;

    private TokenRing(NavigableMap<Long, String> owners) {
        this.owners = Collections.unmodifiableNavigableMap(owners);
        this.sortedTokens = owners.keySet().stream().mapToLong(Long::longValue).toArray();
        this.vnodes = buildVnodes(owners);
    }

    /** The ring with no tokens. */
    public static TokenRing empty() {
        return EMPTY;
    }

    /**
     * A ring from a token → owner map.
     *
     * @throws IllegalArgumentException if a token is {@code Long.MIN_VALUE}
     */
    public static TokenRing of(Map<Long, String> tokenOwners) {
        Objects.requireNonNull(tokenOwners, "tokenOwners");
        TreeMap<Long, String> copy = new TreeMap<>();
        for (Map.Entry<Long, String> e : tokenOwners.entrySet()) {
            long token = Objects.requireNonNull(e.getKey(), "token");
            checkToken(token, e.getValue());
            copy.put(token, Objects.requireNonNull(e.getValue(), "owner of token " + token));
        }
        return new TokenRing(copy);
    }

    /**
     * This ring plus {@code tokens} owned by {@code node}.
     *
     * @throws IllegalArgumentException if a token is already on the ring, is {@code Long.MIN_VALUE},
     *     or no tokens are given
     */
    public TokenRing with(String node, Collection<Long> tokens) {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(tokens, "tokens");
        if (tokens.isEmpty()) {
            throw new IllegalArgumentException("node " + node + " joins the ring with no tokens");
        }
        TreeMap<Long, String> next = new TreeMap<>(owners);
        for (Long boxed : tokens) {
            long token = Objects.requireNonNull(boxed, "token of node " + node);
            checkToken(token, node);
            String previous = next.putIfAbsent(token, node);
            if (previous != null) {
                throw new IllegalArgumentException("token " + token + " of node " + node
                        + " is already owned by node " + previous);
            }
        }
        return new TokenRing(next);
    }

    /**
     * This ring without the tokens of {@code node}.
     *
     * @throws IllegalArgumentException if the node owns no token on this ring
     */
    public TokenRing without(String node) {
        Objects.requireNonNull(node, "node");
        TreeMap<Long, String> next = new TreeMap<>(owners);
        if (!next.values().removeIf(node::equals)) {
            throw new IllegalArgumentException("node " + node + " owns no tokens on the ring");
        }
        return new TokenRing(next);
    }

    /**
     * The node owning {@code token}: the owner of the first ring token {@code >= token}, wrapping
     * to the first ring token.
     *
     * @throws IllegalStateException if the ring is empty
     */
    public String owner(long token) {
        return vnodeOf(token).owner();
    }

    /**
     * The vnode holding {@code token}.
     *
     * @throws IllegalStateException if the ring is empty
     */
    public Vnode vnodeOf(long token) {
        if (owners.isEmpty()) {
            throw new IllegalStateException("the token ring is empty; no vnode holds token " + token);
        }
        int at = Arrays.binarySearch(sortedTokens, token);
        if (at < 0) {
            at = -at - 1; // the first ring token above `token`
        }
        return vnodes.get(at == sortedTokens.length ? 0 : at);
    }

    /** The vnodes in index order; vnode 0 wraps around (see {@link Vnode}). Empty for an empty ring. */
    public List<Vnode> vnodes() {
        return vnodes;
    }

    /** All ring tokens, ascending. */
    public List<Long> tokens() {
        return List.copyOf(owners.keySet());
    }

    /** The tokens owned by {@code node}, ascending; empty if it owns none. */
    public List<Long> tokensOf(String node) {
        Objects.requireNonNull(node, "node");
        List<Long> result = new ArrayList<>();
        owners.forEach((token, owner) -> {
            if (owner.equals(node)) {
                result.add(token);
            }
        });
        return List.copyOf(result);
    }

    /** The node ids on the ring, in the order of their first token. */
    public Set<String> nodes() {
        return Collections.unmodifiableSet(new LinkedHashSet<>(owners.values()));
    }

    /** The token → owner map, ascending by token. */
    public NavigableMap<Long, String> owners() {
        return owners;
    }

    /** The number of tokens (= vnodes). */
    public int size() {
        return owners.size();
    }

    public boolean isEmpty() {
        return owners.isEmpty();
    }

    private static void checkToken(long token, String node) {
        if (token == Long.MIN_VALUE) {
            throw new IllegalArgumentException("node " + node + " cannot own token " + Long.MIN_VALUE
                    + ", the minimum token");
        }
    }

    private static List<Vnode> buildVnodes(NavigableMap<Long, String> owners) {
        if (owners.isEmpty()) {
            return List.of();
        }
        List<Vnode> result = new ArrayList<>(owners.size());
        long previous = owners.lastKey();
        int index = 0;
        for (Map.Entry<Long, String> e : owners.entrySet()) {
            result.add(new Vnode(index++, previous, e.getKey(), e.getValue()));
            previous = e.getKey();
        }
        return List.copyOf(result);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TokenRing other && owners.equals(other.owners);
    }

    @Override
    public int hashCode() {
        return owners.hashCode();
    }

    @Override
    public String toString() {
        return "TokenRing" + owners;
    }
}
