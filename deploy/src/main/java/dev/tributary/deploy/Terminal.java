package dev.tributary.deploy;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.Objects;

/**
 * The streams a command reads and writes, injected so tests can run commands in-process.
 *
 * @param interactive whether a person is at a terminal: the shell prints prompts only then
 * @param lineEditor opens the JLine terminal the shell edits lines on, or null: the shell then
 *        reads {@code in} line by line (piped input, and tests of the plain prompts)
 */
public record Terminal(InputStream in, PrintStream out, PrintStream err, boolean interactive, LineEditor lineEditor) {
    public Terminal {
        Objects.requireNonNull(in, "in");
        Objects.requireNonNull(out, "out");
        Objects.requireNonNull(err, "err");
    }

    public Terminal(InputStream in, PrintStream out, PrintStream err, boolean interactive) {
        this(in, out, err, interactive, null);
    }

    /** Opens the terminal line editing runs on; the caller closes it. */
    @FunctionalInterface
    public interface LineEditor {
        org.jline.terminal.Terminal open() throws IOException;
    }

    /**
     * The process's own streams; interactive when the JVM has a console (standard input and
     * output both a terminal), and then with JLine's line editing on the system terminal.
     */
    public static Terminal system() {
        boolean console = System.console() != null;
        return new Terminal(System.in, System.out, System.err, console, !console ? null
                : () -> org.jline.terminal.TerminalBuilder.builder().system(true).name("tributary").build());
    }
}
