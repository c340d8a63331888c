package dev.tributary.deploy;

import java.io.InputStream;
import java.io.PrintStream;
import java.util.Objects;

/**
 * The streams a command reads and writes, injected so tests can run commands in-process.
 *
 * @param interactive whether a person is at a terminal: the shell prints prompts only then
 */
public record Terminal(InputStream in, PrintStream out, PrintStream err, boolean interactive) {
    public Terminal {
        Objects.requireNonNull(in, "in");
        Objects.requireNonNull(out, "out");
        Objects.requireNonNull(err, "err");
    }

    /** The process's own streams; interactive when the JVM has a console. */
    public static Terminal system() {
        return new Terminal(System.in, System.out, System.err, System.console() != null);
    }
}
