package dev.tributary.generations;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The tablets of one table in a tablets keyspace: a power-of-two number of equal token ranges, each
 * with the node id of its replica.
 *
 * <p>With {@code N = 2^k} tablets, tablet {@code i} covers {@code (last(i-1), last(i)]} where
 * {@code last(i) = Long.MIN_VALUE + (i+1) * 2^64/N - 1}, and the last tablet ends at
 * {@code Long.MAX_VALUE}; tablet 0 starts at the minimum token. So the tablet of a token is its top
 * {@code k} bits once the sign bit is flipped, as in ScyllaDB's {@code tablet_map}. Splitting keeps
 * each half on its tablet's replica; merging keeps the replica of the left half. Immutable.
 *
 * @param replicas the replica node id of each tablet, in tablet order; its size is the tablet count
 */
public record TabletMap(List<String> replicas) {

    /** The largest tablet count this module handles. */
    public static final int MAX_TABLET_COUNT = 1 << 20;

    public TabletMap {
        Objects.requireNonNull(replicas, "replicas");
        replicas = List.copyOf(replicas);
        checkCount(replicas.size());
    }

    /**
     * A map of {@code tabletCount} tablets whose replicas are {@code nodes} in turn.
     *
     * @throws IllegalArgumentException if the count is not a power of two in
     *     {@code [1, MAX_TABLET_COUNT]} or there are no nodes
     */
    public static TabletMap create(int tabletCount, List<String> nodes) {
        Objects.requireNonNull(nodes, "nodes");
        checkCount(tabletCount);
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("tablets need at least one replica node");
        }
        List<String> replicas = new ArrayList<>(tabletCount);
        for (int i = 0; i < tabletCount; i++) {
            replicas.add(nodes.get(i % nodes.size()));
        }
        return new TabletMap(replicas);
    }

    public int tabletCount() {
        return replicas.size();
    }

    /** {@code log2(tabletCount())}: how many top bits of a token pick its tablet. */
    public int log2Count() {
        return Integer.numberOfTrailingZeros(replicas.size());
    }

    /** The tablet holding {@code token}. */
    public int tabletOf(long token) {
        int bits = log2Count();
        return bits == 0 ? 0 : (int) ((token ^ Long.MIN_VALUE) >>> (Long.SIZE - bits));
    }

    /**
     * The inclusive end token of {@code tablet}, the token of its CDC stream.
     *
     * @throws IndexOutOfBoundsException if there is no such tablet
     */
    public long lastToken(int tablet) {
        Objects.checkIndex(tablet, replicas.size());
        if (tablet == replicas.size() - 1) {
            return Long.MAX_VALUE;
        }
        // (i+1) * 2^(64-k) - 1 as an unsigned offset from the minimum token; it is below 2^64 - 1
        // for every tablet but the last, and flipping the sign bit adds Long.MIN_VALUE to it.
        long unsignedEnd = ((long) (tablet + 1) << (Long.SIZE - log2Count())) - 1;
        return unsignedEnd ^ Long.MIN_VALUE;
    }

    /** The smallest token of {@code tablet}; the minimum token for tablet 0. */
    public long firstToken(int tablet) {
        Objects.checkIndex(tablet, replicas.size());
        return tablet == 0 ? Long.MIN_VALUE : lastToken(tablet - 1) + 1;
    }

    /** The replica node id of {@code tablet}. */
    public String replica(int tablet) {
        return replicas.get(tablet);
    }

    /**
     * The same tablets spread evenly over {@code nodes}, moving as few as it can: a tablet whose
     * replica is not among them goes to the node with fewest tablets, then one tablet at a time
     * (the highest-numbered) goes from a node with the most to a node with the fewest until their
     * counts differ by at most one. Ties go to the node first in {@code nodes}, so every node that
     * computes it gets the same map.
     *
     * @throws IllegalArgumentException if {@code nodes} is empty
     */
    public TabletMap balancedOver(List<String> nodes) {
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("tablets need at least one replica node");
        }
        List<String> next = new ArrayList<>(replicas);
        java.util.Map<String, Integer> load = new java.util.LinkedHashMap<>();
        for (String n : nodes) {
            load.put(n, 0);
        }
        for (String r : next) {
            load.computeIfPresent(r, (k, v) -> v + 1);
        }
        for (int i = 0; i < next.size(); i++) {
            if (!load.containsKey(next.get(i))) {
                String to = leastLoaded(load);
                next.set(i, to);
                load.merge(to, 1, Integer::sum);
            }
        }
        while (true) {
            String from = nodes.get(0);
            for (String n : nodes) {
                if (load.get(n) > load.get(from)) {
                    from = n;
                }
            }
            String to = leastLoaded(load);
            if (load.get(from) - load.get(to) <= 1) {
                return new TabletMap(next);
            }
            int tablet = next.lastIndexOf(from);
            next.set(tablet, to);
            load.merge(from, -1, Integer::sum);
            load.merge(to, 1, Integer::sum);
        }
    }

    private static String leastLoaded(java.util.Map<String, Integer> load) {
        String best = null;
        for (java.util.Map.Entry<String, Integer> e : load.entrySet()) {
            if (best == null || e.getValue() < load.get(best)) {
                best = e.getKey();
            }
        }
        return best;
    }

    /**
     * Twice as many tablets, each half of a tablet kept on its replica.
     *
     * @throws IllegalStateException if the map already has {@link #MAX_TABLET_COUNT} tablets
     */
    public TabletMap split() {
        if (replicas.size() >= MAX_TABLET_COUNT) {
            throw new IllegalStateException("cannot split " + replicas.size() + " tablets; at most "
                    + MAX_TABLET_COUNT + " are supported");
        }
        List<String> next = new ArrayList<>(replicas.size() * 2);
        for (String replica : replicas) {
            next.add(replica);
            next.add(replica);
        }
        return new TabletMap(next);
    }

    /**
     * Half as many tablets, each pair merged onto the replica of its left tablet.
     *
     * @throws IllegalStateException if the map has a single tablet
     */
    public TabletMap merge() {
        if (replicas.size() == 1) {
            throw new IllegalStateException("cannot merge a single tablet");
        }
        List<String> next = new ArrayList<>(replicas.size() / 2);
        for (int i = 0; i < replicas.size(); i += 2) {
            next.add(replicas.get(i));
        }
        return new TabletMap(next);
    }

    /**
     * This map split or merged until it has {@code tabletCount} tablets.
     *
     * @throws IllegalArgumentException if the count is not a power of two in
     *     {@code [1, MAX_TABLET_COUNT]}
     */
    public TabletMap withCount(int tabletCount) {
        checkCount(tabletCount);
        TabletMap map = this;
        while (map.tabletCount() < tabletCount) {
            map = map.split();
        }
        while (map.tabletCount() > tabletCount) {
            map = map.merge();
        }
        return map;
    }

    private static void checkCount(int count) {
        if (count < 1 || count > MAX_TABLET_COUNT || Integer.bitCount(count) != 1) {
            throw new IllegalArgumentException("tablet count " + count + " is not a power of two between 1 and "
                    + MAX_TABLET_COUNT);
        }
    }
}
