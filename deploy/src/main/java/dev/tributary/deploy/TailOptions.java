package dev.tributary.deploy;

import dev.tributary.client.StartPosition;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;

/** The command line of {@code tributary tail}. */
record TailOptions(boolean help, String connect, String table, String queue, StartPosition from, String group, long limit,
        Duration idleExit) {
    static final String USAGE = """
            usage: tributary tail --connect HOST:PORT (--table KS.T | --queue NAME) [--from earliest|latest|<ISO time>]
                                  [--group NAME] [--limit N] [--idle-exit DURATION] [--output json]
                                  [--user ROLE [--password P]]

            Follows a change stream across generations and tablet stream sets and prints one LCR per
            line as JSON (docs/REFERENCE.md, "LCRs", describes its fields). Per stream, LCRs come in position order.

              --connect HOST:PORT   a node of the cluster (the others are found from it)
              --table KS.T          the CDC log of a table with cdc enabled
              --queue NAME          a capture's queue
              --from WHERE          earliest (the whole log), latest (from now on; the default), or an
                                    ISO-8601 time such as 2024-05-01T12:00:00Z (LCRs at or after it)
              --group NAME          read as a member of consumer group NAME: resume where the group
                                    stopped (--from is for streams it never read), commit as it goes,
                                    and commit and leave on exit; several tails share the streams
              --limit N             exit after N LCRs
              --idle-exit DURATION  exit after that long without an LCR (500ms, 3s, 1m)
              --output json         the output format (json, the only one)
              --tls-ca FILE, --tls-client-cert FILE, --tls-client-key FILE
                                    TLS to the node, as for tributary cql
              --user ROLE, --password P
                                    log in as ROLE, as for tributary cql (the password defaults to
                                    $TRIBUTARY_PASSWORD)
            """;

    static TailOptions parse(List<String> args) throws UsageException {
        String connect = null;
        String table = null;
        String queue = null;
        StartPosition from = StartPosition.latest();
        String group = null;
        long limit = -1;
        Duration idle = null;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--help") || a.equals("-h")) {
                return new TailOptions(true, null, null, null, from, null, -1, null);
            }
            if (i + 1 >= args.size()) {
                throw new UsageException(a.startsWith("--") ? optionName(a) + " needs a value" : "unexpected argument '" + a + "'");
            }
            String v = args.get(++i);
            switch (a) {
                case "--connect" -> connect = v;
                case "--table" -> table = v;
                case "--queue" -> queue = v;
                case "--from" -> from = start(v);
                case "--group" -> group = v;
                case "--limit" -> limit = limit(v);
                case "--idle-exit" -> idle = Durations.parse("--idle-exit", v);
                case "--output" -> {
                    if (!v.equals("json")) {
                        throw new UsageException("--output: only json is supported, got '" + v + "'");
                    }
                }
                default -> throw new UsageException("unknown option '" + optionName(a) + "'");
            }
        }
        if (connect == null) {
            throw new UsageException("--connect HOST:PORT is needed");
        }
        if ((table == null) == (queue == null)) {
            throw new UsageException("give exactly one of --table KS.T or --queue NAME");
        }
        return new TailOptions(false, connect, table, queue, from, group, limit, idle);
    }

    /** The option's name without an {@code =value}: a mistyped --password=P must not echo P. */
    private static String optionName(String arg) {
        return arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
    }

    private static StartPosition start(String v) throws UsageException {
        switch (v) {
            case "earliest":
                return StartPosition.earliest();
            case "latest":
                return StartPosition.latest();
            default:
                try {
                    return StartPosition.at(Instant.parse(v));
                } catch (DateTimeParseException e) {
                    throw new UsageException("--from wants earliest, latest or an ISO-8601 time such as "
                            + "2024-05-01T12:00:00Z, got '" + v + "'");
                }
        }
    }

    private static long limit(String v) throws UsageException {
        try {
            long n = Long.parseLong(v);
            if (n < 1) {
                throw new UsageException("--limit must be at least 1, got " + v);
            }
            return n;
        } catch (NumberFormatException e) {
            throw new UsageException("--limit wants a number, got '" + v + "'");
        }
    }
}
