package dev.tributary.generations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class ReplicaPlacementTest {

    @Test
    void eachJoiningNodeLeadsItsOwnGroupAndLoadStaysEven() {
        ReplicaPlacement p = ReplicaPlacement.empty();
        List<String> nodes = new ArrayList<>();
        for (String n : List.of("a", "b", "c")) {
            nodes.add(n);
            int rf = Math.min(3, nodes.size());
            p = p.withGroup(n, n, nodes, rf);
        }
        assertEquals(List.of("a"), p.members("a"));
        assertEquals(List.of("b", "a"), p.members("b"));
        assertEquals(List.of("c", "b", "a"), p.members("c"));
        p = p.withGroup("d", "d", List.of("a", "b", "c", "d"), 3);
        assertEquals("d", p.members("d").get(0));
        // Before d's group a holds 3 replicas, b 2, c 1: the least loaded take it.
        assertEquals(List.of("d", "c", "b"), p.members("d"));
        // a and b hold 3 replicas, c 2, d only its own: one of b's (the busiest, ties to the
        // higher id) moves to d, in the first group where b is not the home.
        ReplicaPlacement balanced = p.balanced(List.of("a", "b", "c", "d"));
        assertEquals(List.of("b", "a"), balanced.members("b"), "b leads its own group: it stays");
        assertEquals(List.of("c", "d", "a"), balanced.members("c"));
        assertEquals(Map.of("a", 3, "b", 2, "c", 2, "d", 2), balanced.load(List.of("a", "b", "c", "d")));
        assertEquals(balanced, balanced.balanced(List.of("a", "b", "c", "d")));
    }

    @Test
    void removedNodeIsReplacedInEveryGroupItWasIn() {
        Map<String, List<String>> groups = new java.util.LinkedHashMap<>();
        groups.put("g1", List.of("a", "b", "c"));
        groups.put("g2", List.of("b", "c", "a"));
        groups.put("g3", List.of("c", "a", "b"));
        ReplicaPlacement p = new ReplicaPlacement(groups);
        ReplicaPlacement after = p.without("b", List.of("a", "b", "c", "d"));
        for (String g : List.of("g1", "g2", "g3")) {
            List<String> ms = after.members(g);
            assertEquals(3, ms.size(), g + " " + ms);
            assertTrue(ms.contains("d") && !ms.contains("b"), g + " " + ms);
        }
        // The group b led keeps its survivors in order; the replacement comes last.
        assertEquals(List.of("c", "a", "d"), after.members("g2"));
        assertEquals(List.of("g1", "g2", "g3"), after.groupsOf("d"));
    }

    @Test
    void aDecommissionedNodesGroupIsDissolvedAndItIsReplacedInTheOthers() {
        Map<String, List<String>> groups = new java.util.LinkedHashMap<>();
        groups.put("a", List.of("a", "b", "c"));
        groups.put("b", List.of("b", "c", "d"));
        groups.put("c", List.of("c", "d", "a"));
        groups.put("d", List.of("d", "a", "b"));
        ReplicaPlacement after = new ReplicaPlacement(groups).retired("b", List.of("a", "b", "c", "d"));
        assertEquals(List.of("a", "c", "d"), List.copyOf(after.groups().keySet()), "b's own group is gone");
        assertEquals(List.of(), after.groupsOf("b"));
        // a and d lost b: each takes the live node not yet in it
        assertEquals(List.of("a", "c", "d"), after.members("a"));
        assertEquals(List.of("d", "a", "c"), after.members("d"));
        assertEquals(List.of("c", "d", "a"), after.members("c"), "a group b was not in is unchanged");
    }

    @Test
    void groupsPlacedOnASmallerClusterGrowAsNodesJoin() {
        ReplicaPlacement p = ReplicaPlacement.empty().withGroup("a", "a", List.of("a"), 1)
                .withGroup("b", "b", List.of("a", "b"), 2);
        ReplicaPlacement grown = p.grown(List.of("a", "b", "c"), 3);
        assertEquals(List.of("a", "c", "b"), grown.members("a"), "the least loaded first, the home stays first");
        assertEquals(List.of("b", "a", "c"), grown.members("b"));
        assertEquals(grown, grown.grown(List.of("a", "b", "c"), 3));
        assertEquals(List.of("a", "b"), p.grown(List.of("a", "b"), 3).members("a"), "as far as the nodes allow");
    }

    @Test
    void withoutAReplacementAGroupShrinks() {
        ReplicaPlacement p = new ReplicaPlacement(Map.of("g1", List.of("a", "b", "c")));
        assertEquals(List.of("a", "c"), p.without("b", List.of("a", "c")).members("g1"));
    }

    @Test
    void replicationFactorAboveTheNodeCountIsRefusedWithTheReason() {
        ReplicaPlacement.ReplicationUnavailableException e = assertThrows(
                ReplicaPlacement.ReplicationUnavailableException.class,
                () -> ReplicaPlacement.checkAchievable("keyspace ks", 3, 2));
        assertEquals("Cannot achieve replication_factor 3 for keyspace ks: the cluster has 2 nodes, and each "
                + "replica needs a node of its own", e.getMessage());
        ReplicaPlacement.checkAchievable("keyspace ks", 3, 3);
        assertThrows(IllegalArgumentException.class, () -> ReplicaPlacement.checkAchievable("keyspace ks", 0, 3));
        assertThrows(ReplicaPlacement.ReplicationUnavailableException.class,
                () -> ReplicaPlacement.empty().withGroup("g", "a", List.of("a", "b"), 3));
    }

    @Test
    void randomJoinsAndRemovalsKeepThreeDistinctLiveMembersAndBalancedLoad() {
        long seed = TestSeeds.seed("ReplicaPlacementTest");
        Random r = new Random(seed);
        ReplicaPlacement p = ReplicaPlacement.empty();
        TreeSet<String> nodes = new TreeSet<>(List.of("n0", "n1", "n2"));
        for (String n : nodes) {
            p = p.withGroup(n, n, nodes, 3);
        }
        int next = 3;
        for (int step = 0; step < 300; step++) {
            if (nodes.size() <= 3 || r.nextBoolean()) {
                String n = "n" + (next++);
                nodes.add(n);
                p = p.withGroup(n, n, nodes, 3).balanced(nodes);
            } else {
                String gone = new ArrayList<>(nodes).get(r.nextInt(nodes.size()));
                nodes.remove(gone);
                p = p.without(gone, nodes).balanced(nodes);
            }
            for (Map.Entry<String, List<String>> g : p.groups().entrySet()) {
                assertTrue(nodes.containsAll(g.getValue()), "seed " + seed + " " + g);
                assertEquals(3, g.getValue().size(), "seed " + seed + " " + g);
            }
            Map<String, Integer> load = p.load(nodes);
            int min = load.values().stream().mapToInt(Integer::intValue).min().orElse(0);
            int max = load.values().stream().mapToInt(Integer::intValue).max().orElse(0);
            assertTrue(max - min <= 1, "seed " + seed + " step " + step + " load " + load);
        }
    }
}
