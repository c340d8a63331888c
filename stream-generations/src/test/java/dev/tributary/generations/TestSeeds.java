package dev.tributary.generations;

/**
 * Seeds for randomized tests: a fresh one per run unless {@code -Dgenerations.seed=N} replays one.
 * The seed is printed so a failing run can be replayed.
 */
final class TestSeeds {

    private TestSeeds() {
    }

    static long seed(String test) {
        String fixed = System.getProperty("generations.seed");
        long seed = fixed != null ? Long.parseLong(fixed) : System.nanoTime() ^ test.hashCode();
        System.out.println(test + ": seed " + seed + " (replay with -Dgenerations.seed=" + seed + ")");
        return seed;
    }
}
