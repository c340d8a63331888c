package dev.tributary.generations;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Which nodes hold the replicas of each replica group (docs/REPLICATION.md).
 *
 * <p>A replica group is one redo thread replicated by one Raft group: the tokens of the node that
 * created it (its home) and everything written in their ranges. Its members are fixed here and
 * changed only by the steps below, so the number of groups stays one per node that ever joined
 * rather than one per distinct run of successors on the ring (with 256 vnodes that would be
 * hundreds of RocksDB instances per node), and a node that dies leaves its tokens where they are:
 * the group lives on, led by a surviving member, and only its membership changes.
 *
 * <p>Pure and deterministic: the same placement and cluster give the same answer on every node;
 * ties go to the lower node id.
 *
 * @param groups each group's id and its members, the preferred leader first
 */
public record ReplicaPlacement(Map<String, List<String>> groups) {

    public ReplicaPlacement {
        Map<String, List<String>> copy = new LinkedHashMap<>();
        groups.forEach((id, members) -> {
            if (members.isEmpty() || members.size() != new TreeSet<>(members).size()) {
                throw new IllegalArgumentException("group " + id + " needs distinct members: " + members);
            }
            copy.put(id, List.copyOf(members));
        });
        groups = java.util.Collections.unmodifiableMap(copy);
    }

    public static ReplicaPlacement empty() {
        return new ReplicaPlacement(Map.of());
    }

    /**
     * Refuses a replication factor the cluster cannot meet: every replica of a group is on its own
     * node, so {@code rf} replicas need {@code rf} nodes.
     */
    public static void checkAchievable(String what, int rf, int nodes) {
        if (rf < 1) {
            throw new IllegalArgumentException("replication_factor must be at least 1, got " + rf);
        }
        if (rf > nodes) {
            throw new ReplicationUnavailableException(String.format(
                    "Cannot achieve replication_factor %d for %s: the cluster has %d node%s, and each "
                            + "replica needs a node of its own", rf, what, nodes, nodes == 1 ? "" : "s"));
        }
    }

    /** Refused because the cluster has too few nodes for a keyspace's replication factor. */
    public static final class ReplicationUnavailableException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public ReplicationUnavailableException(String message) {
            super(message);
        }
    }

    /** Replicas each node holds, over all groups (0 for a node of {@code nodes} that holds none). */
    public Map<String, Integer> load(Collection<String> nodes) {
        Map<String, Integer> load = new HashMap<>();
        nodes.forEach(n -> load.put(n, 0));
        groups.values().forEach(ms -> ms.forEach(m -> load.merge(m, 1, Integer::sum)));
        return load;
    }

    /**
     * Adds the group of a node that joins: the node itself first (it leads while it is up), then
     * the {@code rf - 1} other nodes holding the fewest replicas.
     */
    public ReplicaPlacement withGroup(String groupId, String home, Collection<String> nodes, int rf) {
        if (groups.containsKey(groupId)) {
            throw new IllegalArgumentException("group " + groupId + " exists");
        }
        SortedSet<String> all = new TreeSet<>(nodes);
        all.add(home);
        checkAchievable("replica group " + groupId, rf, all.size());
        List<String> members = new ArrayList<>(List.of(home));
        members.addAll(leastLoaded(load(all), all, members, rf - 1));
        Map<String, List<String>> next = new LinkedHashMap<>(groups);
        next.put(groupId, members);
        return new ReplicaPlacement(next);
    }

    /**
     * The placement once {@code gone} has left for good (removenode): in every group it was in, it
     * is replaced by the remaining node holding the fewest replicas that is not a member yet. A
     * group that cannot find one (fewer nodes than its size) just shrinks.
     */
    public ReplicaPlacement without(String gone, Collection<String> remaining) {
        SortedSet<String> nodes = new TreeSet<>(remaining);
        nodes.remove(gone);
        Map<String, List<String>> next = new LinkedHashMap<>();
        Map<String, Integer> load = load(nodes);
        for (Map.Entry<String, List<String>> g : groups.entrySet()) {
            List<String> members = new ArrayList<>(g.getValue());
            if (members.remove(gone)) {
                List<String> added = leastLoaded(load, nodes, members, 1);
                added.forEach(a -> load.merge(a, 1, Integer::sum));
                members.addAll(added);
            }
            if (!members.isEmpty()) {
                next.put(g.getKey(), members);
            }
        }
        return new ReplicaPlacement(next);
    }

    /**
     * The placement once {@code node} has decommissioned: it handed its own instance's data to
     * the other instances, so the group named after it is dissolved; in every other group it was
     * in it is replaced as by {@link #without}.
     */
    public ReplicaPlacement retired(String node, Collection<String> remaining) {
        Map<String, List<String>> rest = new LinkedHashMap<>(groups);
        rest.remove(node);
        return new ReplicaPlacement(rest).without(node, remaining);
    }

    /**
     * Grows every group with fewer than {@code rf} members (it was placed when the cluster had
     * fewer nodes) by the nodes holding the fewest replicas, as far as {@code nodes} allow.
     */
    public ReplicaPlacement grown(Collection<String> nodes, int rf) {
        SortedSet<String> all = new TreeSet<>(nodes);
        Map<String, Integer> load = load(all);
        Map<String, List<String>> next = new LinkedHashMap<>();
        for (Map.Entry<String, List<String>> g : groups.entrySet()) {
            List<String> members = new ArrayList<>(g.getValue());
            if (members.size() < rf) {
                List<String> added = leastLoaded(load, all, members, rf - members.size());
                added.forEach(a -> load.merge(a, 1, Integer::sum));
                members.addAll(added);
            }
            next.put(g.getKey(), members);
        }
        return new ReplicaPlacement(next);
    }

    /**
     * Moves replicas from the nodes holding the most to those holding the fewest until they differ
     * by at most one: a node that joins holds only its own group's replica until then. Only the
     * given nodes (the live ones) take part, and a node stays in the group named after it (its own,
     * which it leads when up): each move replaces one other member of one group (one membership
     * change, one snapshot sent), from the busiest node that has a group without the idlest.
     */
    public ReplicaPlacement balanced(Collection<String> nodes) {
        SortedSet<String> live = new TreeSet<>(nodes);
        if (live.isEmpty()) {
            return this;
        }
        Map<String, List<String>> next = new LinkedHashMap<>();
        groups.forEach((id, ms) -> next.put(id, new ArrayList<>(ms)));
        Map<String, Integer> load = load(live);
        Comparator<String> byLoad = Comparator.<String>comparingInt(load::get).thenComparing(Comparator.naturalOrder());
        while (true) {
            String idlest = live.stream().min(byLoad).orElseThrow();
            boolean moved = false;
            for (String busy : live.stream().sorted(byLoad.reversed()).toList()) {
                if (load.get(busy) - load.get(idlest) <= 1) {
                    break;
                }
                // a group is named by its home node, which stays in it (it leads the group when up)
                List<String> from = next.entrySet().stream()
                        .filter(g -> !g.getKey().equals(busy) && g.getValue().contains(busy) && !g.getValue().contains(idlest))
                        .map(Map.Entry::getValue).findFirst().orElse(null);
                if (from != null) {
                    from.set(from.indexOf(busy), idlest);
                    load.merge(busy, -1, Integer::sum);
                    load.merge(idlest, 1, Integer::sum);
                    moved = true;
                    break;
                }
            }
            if (!moved) {
                break;
            }
        }
        return new ReplicaPlacement(next);
    }

    /** The groups {@code node} is a member of, in placement order. */
    public List<String> groupsOf(String node) {
        List<String> out = new ArrayList<>();
        groups.forEach((id, ms) -> {
            if (ms.contains(node)) {
                out.add(id);
            }
        });
        return out;
    }

    public List<String> members(String groupId) {
        return Objects.requireNonNull(groups.get(groupId), () -> "no replica group " + groupId);
    }

    private static List<String> leastLoaded(Map<String, Integer> load, Collection<String> nodes,
            List<String> exclude, int count) {
        return nodes.stream().filter(n -> !exclude.contains(n))
                .sorted(Comparator.<String>comparingInt(n -> load.getOrDefault(n, 0))
                        .thenComparing(Comparator.naturalOrder()))
                .limit(count).toList();
    }
}
