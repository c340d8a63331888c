package dev.tributary.deploy;

import dev.tributary.client.TributaryClient;
import dev.tributary.node.cli.DurationConverter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * The option table of {@code tributary cql}, which picocli reads the command line into and writes
 * the help from; {@link #parse} returns it checked, and nothing changes it after.
 */
@Command(name = "tributary cql", synopsisHeading = "usage: ", sortOptions = false, descriptionHeading = "%n",
        optionListHeading = "%noptions:%n", footerHeading = "%n",
        description = {"Runs statements (separated by ';') against a Tributary cluster. With neither -e nor -f,",
            "reads statements from standard input as an interactive shell (prompt 'tributary> ';",
            "'exit', 'quit' or Ctrl-D ends it). On a terminal the shell edits lines, keeps its history",
            "across runs in ~/.tributary/cql_history (Up, Ctrl-R), continues a statement until its ';'",
            "and completes keywords, keyspaces, tables and columns with Tab."},
        footer = {"Errors go to stderr as 'ERROR <CODE>: <message>' and stop the run: exit status 2 for a",
            "syntax error, 1 for any other error, 0 when every statement succeeded."})
final class CqlOptions implements ClientCommand.Options {
    static final String DEFAULT_ENDPOINT = "127.0.0.1:9160";

    enum Output { TABLE, JSON }

    /** Where statements come from, in command-line order. */
    sealed interface Source permits Inline, ScriptFile {
    }

    /** {@code -e STMT}. */
    record Inline(String text) implements Source {
    }

    /** {@code -f FILE}. */
    record ScriptFile(String path) implements Source {
    }

    /** table or json, in any case. */
    static final class OutputConverter implements ITypeConverter<Output> {
        @Override
        public Output convert(String value) {
            try {
                return Output.valueOf(value.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException("is table or json, got '" + value + "'");
            }
        }
    }

    @Option(names = "--connect", order = 1, paramLabel = "HOST:PORT[,HOST:PORT...]",
            description = "the node(s) to connect to (default " + DEFAULT_ENDPOINT + "); with several, the next one is "
                    + "tried when one is unavailable")
    private List<String> connect = new ArrayList<>();

    private final List<Source> sources = new ArrayList<>();

    @Option(names = {"-e", "--execute"}, order = 2, paramLabel = "STMT", description = "run STMT (may hold several statements); repeatable")
    private void execute(String statement) {
        sources.add(new Inline(statement));
    }

    @Option(names = {"-f", "--file"}, order = 3, paramLabel = "FILE", description = "run the statements in FILE; repeatable")
    private void file(String path) {
        sources.add(new ScriptFile(path));
    }

    @Option(names = {"-o", "--output"}, order = 4, paramLabel = "table|json", defaultValue = "table", converter = OutputConverter.class,
            description = "table (as cqlsh; the default) or one JSON object per row and line")
    private Output output;

    @Option(names = "--request-timeout", order = 5, paramLabel = "DURATION", converter = DurationConverter.class,
            description = "how long one statement may take, e.g. 500ms, 30s, 2m (default 60s)")
    private Duration requestTimeout = TributaryClient.DEFAULT_REQUEST_TIMEOUT;

    @Mixin
    private ConnectionOptions connection = new ConnectionOptions();

    @Option(names = {"-h", "--help"}, order = 20, usageHelp = true, description = "print this help")
    private boolean help;

    private List<String> endpoints = List.of();

    static final String USAGE = DeployCli.usage(new CqlOptions());

    private CqlOptions() {
    }

    /** @throws UsageException naming the option whose value is missing or malformed */
    static CqlOptions parse(List<String> args) throws UsageException {
        CqlOptions o = new CqlOptions();
        try {
            DeployCli.parse(o, args);
        } catch (UsageException e) {
            throw e.getMessage().startsWith("unexpected argument")
                    ? new UsageException(e.getMessage() + " (statements go after -e)") : e;
        }
        o.endpoints = endpoints(o.connect);
        DeployCli.positive("--request-timeout", o.requestTimeout);
        return o;
    }

    /** Every --connect, each a comma-separated list; the default endpoint when none was given. */
    private static List<String> endpoints(List<String> given) throws UsageException {
        List<String> endpoints = new ArrayList<>();
        for (String v : given) {
            List<String> these = new ArrayList<>();
            for (String e : v.split(",")) {
                String endpoint = e.trim();
                if (!endpoint.isEmpty()) {
                    checkEndpoint(endpoint);
                    these.add(endpoint);
                }
            }
            if (these.isEmpty()) {
                throw new UsageException("--connect wants HOST:PORT, got '" + v + "'");
            }
            endpoints.addAll(these);
        }
        return endpoints.isEmpty() ? List.of(DEFAULT_ENDPOINT) : List.copyOf(endpoints);
    }

    private static void checkEndpoint(String endpoint) throws UsageException {
        try {
            TributaryClient.builder().endpoints(endpoint);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--connect: " + e.getMessage());
        }
    }

    List<String> endpoints() {
        return endpoints;
    }

    List<Source> sources() {
        return List.copyOf(sources);
    }

    Output output() {
        return output;
    }

    Duration requestTimeout() {
        return requestTimeout;
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
