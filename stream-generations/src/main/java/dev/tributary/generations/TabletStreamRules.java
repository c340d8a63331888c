package dev.tributary.generations;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.random.RandomGenerator;

/**
 * What a tablet table's map and CDC stream sets become when it has a given number of tablets (the
 * Scylla seed's "CDC Stream Changes in tablets-based keyspaces"): the pure policy beside
 * {@link GenerationRules}, decided from what was read and applied by the caller under its lock.
 *
 * <p>A table's first set starts when the table was made, so writes right after its creation have
 * streams; a set after a split or merge starts a delay ahead of now (and after the newest set), so
 * every node switches at the same time. A split keeps each half on its tablet's replica, a merge
 * the left one's; the first map spreads the tablets over {@code nodes}.
 */
public final class TabletStreamRules {
    private TabletStreamRules() {
    }

    /**
     * What to write.
     *
     * @param map the table's new map, when it differs from the current one
     * @param set the stream set to publish, when the current one has another number of streams
     * @param after the timestamp of the set {@code set} must follow (empty for the first): the
     *              publish is conditional on it being the newest still
     */
    public record Decision(Optional<TabletMap> map, Optional<TabletStreamSet> set, OptionalLong after) {
        public boolean changes() {
            return map.isPresent() || set.isPresent();
        }
    }

    /**
     * @param currentMap the table's map as read, if it has one
     * @param history the table's stream sets as read, if it has any
     * @param firstMillis when the table was made: the first set's timestamp
     */
    public static Decision decide(Optional<TabletMap> currentMap, Optional<TabletStreamHistory> history, int tabletCount,
            List<String> nodes, long firstMillis, long nowMillis, long delayMillis, RandomGenerator random) {
        TabletMap map = currentMap.map(m -> m.withCount(tabletCount)).orElseGet(() -> TabletMap.create(tabletCount, nodes));
        Optional<TabletMap> newMap = currentMap.filter(map::equals).isPresent() ? Optional.empty() : Optional.of(map);
        if (history.isEmpty()) {
            return new Decision(newMap, Optional.of(TabletStreamHistory.create(firstMillis, map, random).latest()),
                    OptionalLong.empty());
        }
        TabletStreamHistory h = history.get();
        if (h.latest().streams().size() == tabletCount) {
            return new Decision(newMap, Optional.empty(), OptionalLong.empty());
        }
        TabletStreamSet next = h.next(h.nextTimestamp(nowMillis, delayMillis), map, random).latest();
        return new Decision(newMap, Optional.of(next), OptionalLong.of(h.latest().timestampMillis()));
    }
}
