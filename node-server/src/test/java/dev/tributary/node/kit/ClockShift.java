package dev.tributary.node.kit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Runs a node process with its wall clock off (RELIABILITY C6): the environment that does it, for
 * {@link dev.tributary.node.NodeProcess}. Only the wall clock moves: timers, timeouts and Raft's
 * elections run on the monotonic clock as on a real machine whose clock is wrong.
 */
public final class ClockShift {
    private static final Path FAKETIME = Path.of("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1");

    private ClockShift() {
    }

    /**
     * The environment that runs a JVM with its wall clock {@code offset} off: the kit's own shim
     * (src/test/resources/nemesis/clockshift.c, built in {@code dir} with the machine's C
     * compiler), else libfaketime. libfaketime makes every clock read 10-35 times slower, which on
     * two shared cores kept a node from starting within 90 s; the shim adds a constant.
     */
    public static Map<String, String> environment(Path dir, Duration offset, Consumer<String> log) throws IOException {
        Path shim = dir.resolve("clockshift.so");
        synchronized (ClockShift.class) {
            if (!Files.exists(shim)) {
                Path c = dir.resolve("clockshift.c");
                try (var in = ClockShift.class.getResourceAsStream("/nemesis/clockshift.c")) {
                    Files.copy(in, c);
                }
                try {
                    NemesisNetwork.run(true, "cc", "-O2", "-shared", "-fPIC", "-o", shim.toString(), c.toString(), "-ldl");
                } catch (IllegalStateException e) {
                    log.accept("no C compiler for the clock shim (" + e.getMessage() + "): libfaketime instead");
                }
            }
        }
        Map<String, String> env = new TreeMap<>();
        if (Files.exists(shim)) {
            env.put("LD_PRELOAD", shim.toString());
            env.put("TRIBUTARY_CLOCK_OFFSET_MS", Long.toString(offset.toMillis()));
            return env;
        }
        if (!Files.exists(FAKETIME)) {
            throw new IllegalStateException("a node with its clock offset needs a C compiler (cc) or libfaketime (" + FAKETIME
                    + ", Debian's faketime package; bin/test installs it)");
        }
        env.put("LD_PRELOAD", FAKETIME.toString());
        env.put("FAKETIME", (offset.isNegative() ? "-" : "+") + Math.abs(offset.toMillis()) / 1000.0 + "s");
        env.put("FAKETIME_DONT_FAKE_MONOTONIC", "1");
        env.put("NO_FAKE_STAT", "1"); // files keep their times
        return env;
    }
}
