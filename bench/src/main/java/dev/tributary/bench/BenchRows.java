package dev.tributary.bench;

/**
 * The content of the benchmark's rows, the same for the SDK writers and the baseline: row
 * {@code i} has {@code pk = i}, {@code bucket = i % 100} (what a subset rule selects on) and a
 * blob of pseudo-random bytes derived from the row and its version, so an UPDATE really changes
 * the value and nothing compresses better than real data would. Stateless and thread-safe.
 */
public final class BenchRows {
    private BenchRows() {
    }

    public static int bucket(long row) {
        return (int) Math.floorMod(row, 100L);
    }

    /** {@code bytes} bytes for row {@code row}, version 0 for the insert and 1 for the update. */
    public static byte[] payload(long row, int version, int bytes) {
        byte[] out = new byte[bytes];
        long x = row * 0x9E3779B97F4A7C15L + version * 0xC2B2AE3D27D4EB4FL + 1;
        for (int i = 0; i < bytes; i += 8) {
            // splitmix64: cheap, so the writers measure the node rather than their own random numbers
            x += 0x9E3779B97F4A7C15L;
            long z = x;
            z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
            z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
            z ^= z >>> 31;
            for (int b = 0; b < 8 && i + b < bytes; b++) {
                out[i + b] = (byte) (z >>> (8 * b));
            }
        }
        return out;
    }

    /** How many of rows {@code 0 .. rows-1} a subset rule {@code bucket < percent} keeps. */
    public static long subsetCount(long rows, int percent) {
        long full = rows / 100 * percent;
        long rest = rows % 100;
        return full + Math.min(rest, percent);
    }
}
