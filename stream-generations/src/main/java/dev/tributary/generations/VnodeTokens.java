package dev.tributary.generations;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * Picks the tokens a bootstrapping node takes on the ring (its vnodes), as a node with
 * {@code --num-tokens N} does.
 *
 * <p>Stateless and thread-safe as long as the {@link RandomGenerator} passed in is not shared.
 */
public final class VnodeTokens {

    private VnodeTokens() {
    }

    /**
     * {@code numTokens} distinct tokens drawn uniformly from {@code rnd}, none of them in
     * {@code taken} and none equal to {@code Long.MIN_VALUE} (the minimum token, which no vnode may end
     * at), sorted ascending.
     *
     * @param taken tokens already on the ring; not modified
     * @throws IllegalArgumentException if {@code numTokens < 1}
     */
    public static List<Long> pick(int numTokens, RandomGenerator rnd, Set<Long> taken) {
        Objects.requireNonNull(rnd, "rnd");
        Objects.requireNonNull(taken, "taken");
        if (numTokens < 1) {
            throw new IllegalArgumentException("a node takes at least one token, asked for " + numTokens);
        }
        Set<Long> picked = new HashSet<>();
        while (picked.size() < numTokens) {
            long token = rnd.nextLong();
            if (token != Long.MIN_VALUE && !taken.contains(token)) {
                picked.add(token);
            }
        }
        List<Long> sorted = new ArrayList<>(picked);
        Collections.sort(sorted);
        return List.copyOf(sorted);
    }
}
