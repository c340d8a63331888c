package dev.tributary.deploy;

import dev.tributary.node.cli.CommandLines;
import java.time.Duration;
import java.util.List;

/** The launcher's commands read their option tables with the shared {@link CommandLines}; a bad line is a {@link UsageException}. */
final class DeployCli {
    private DeployCli() {
    }

    /** Reads {@code args} into {@code options}. @throws UsageException naming the option and what it expected */
    static void parse(Object options, List<String> args) throws UsageException {
        try {
            CommandLines.parse(CommandLines.of(options), args);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    /** The help generated from an option table. */
    static String usage(Object options) {
        return CommandLines.usage(CommandLines.of(options));
    }

    /** A timeout or wait that must be above zero (the grammar itself allows 0s). */
    static Duration positive(String option, Duration d) throws UsageException {
        if (d != null && d.isZero()) {
            throw new UsageException(option + " must be positive, got '0s'");
        }
        return d;
    }
}
