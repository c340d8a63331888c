package dev.tributary.deploy;

import dev.tributary.client.StartPosition;
import dev.tributary.node.cli.DurationConverter;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * The option table of {@code tributary tail}, which picocli reads the command line into and writes
 * the help from; {@link #parse} returns it checked, and nothing changes it after.
 */
@Command(name = "tributary tail", synopsisHeading = "usage: ", sortOptions = false, descriptionHeading = "%n",
        optionListHeading = "%noptions:%n",
        description = {"Follows a change stream across generations and tablet stream sets and prints one LCR per",
            "line as JSON (docs/REFERENCE.md, \"LCRs\", describes its fields). Per stream, LCRs come in",
            "position order."})
final class TailOptions implements ClientCommand.Options {
    /** earliest, latest or an ISO-8601 instant. */
    static final class StartConverter implements ITypeConverter<StartPosition> {
        @Override
        public StartPosition convert(String v) {
            switch (v) {
                case "earliest":
                    return StartPosition.earliest();
                case "latest":
                    return StartPosition.latest();
                default:
                    try {
                        return StartPosition.at(Instant.parse(v));
                    } catch (DateTimeParseException e) {
                        throw new TypeConversionException("wants earliest, latest or an ISO-8601 time such as "
                                + "2024-05-01T12:00:00Z, got '" + v + "'");
                    }
            }
        }
    }

    @Option(names = "--connect", paramLabel = "HOST:PORT", description = "a node of the cluster (the others are found from it)")
    private String connect;

    @Option(names = "--table", paramLabel = "KS.T", description = "the CDC log of a table with cdc enabled")
    private String table;

    @Option(names = "--queue", paramLabel = "NAME", description = "a capture's queue")
    private String queue;

    @Option(names = "--from", paramLabel = "WHERE", converter = StartConverter.class,
            description = "earliest (the whole log), latest (from now on; the default), or an ISO-8601 time such as "
                    + "2024-05-01T12:00:00Z (LCRs at or after it)")
    private StartPosition from = StartPosition.latest();

    @Option(names = "--group", paramLabel = "NAME", description = "read as a member of consumer group NAME: resume where "
            + "the group stopped (--from is for streams it never read), commit as it goes, and commit and leave on exit; "
            + "several tails share the streams")
    private String group;

    @Option(names = "--limit", paramLabel = "N", description = "exit after N LCRs")
    private Long limit;

    @Option(names = "--idle-exit", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "exit after that long without an LCR (500ms, 3s, 1m)")
    private Duration idleExit;

    @Option(names = "--output", paramLabel = "json", description = "the output format (json, the only one)")
    private String output;

    @Mixin
    private ConnectionOptions connection = new ConnectionOptions();

    @Option(names = {"-h", "--help"}, order = 30, usageHelp = true, description = "print this help")
    private boolean help;

    static final String USAGE = DeployCli.usage(new TailOptions());

    private TailOptions() {
    }

    /** @throws UsageException naming the option that is missing, malformed or out of range */
    static TailOptions parse(List<String> args) throws UsageException {
        TailOptions o = new TailOptions();
        DeployCli.parse(o, args);
        if (o.help) {
            return o;
        }
        if (o.output != null && !o.output.equals("json")) {
            throw new UsageException("--output: only json is supported, got '" + o.output + "'");
        }
        if (o.limit != null && o.limit < 1) {
            throw new UsageException("--limit must be at least 1, got " + o.limit);
        }
        DeployCli.positive("--idle-exit", o.idleExit);
        if (o.connect == null) {
            throw new UsageException("--connect HOST:PORT is needed");
        }
        if ((o.table == null) == (o.queue == null)) {
            throw new UsageException("give exactly one of --table KS.T or --queue NAME");
        }
        return o;
    }

    String connect() {
        return connect;
    }

    String table() {
        return table;
    }

    String queue() {
        return queue;
    }

    StartPosition from() {
        return from;
    }

    String group() {
        return group;
    }

    /** The LCRs to print before exiting; -1 for no limit. */
    long limit() {
        return limit == null ? -1 : limit;
    }

    /** How long without an LCR before exiting; null to wait for ever. */
    Duration idleExit() {
        return idleExit;
    }

    @Override
    public ConnectionOptions connection() {
        return connection;
    }

    @Override
    public boolean help() {
        return help;
    }
}
