package dev.tributary.generations;

import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * A random generator that first returns the given longs, then seeded pseudo-random ones, so a test
 * can force the draws (the minimum token, a taken token) that code must reject.
 */
final class ScriptedRandom implements RandomGenerator {

    private final long[] script;
    private final SplittableRandom rest = new SplittableRandom(42);
    private int next;
    private int draws;

    ScriptedRandom(long... script) {
        this.script = script.clone();
    }

    @Override
    public long nextLong() {
        draws++;
        return next < script.length ? script[next++] : rest.nextLong();
    }

    int draws() {
        return draws;
    }
}
