package dev.tributary.deploy;

import dev.tributary.client.TributaryClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The parsed options of {@code tributary cql}. Immutable. */
record CqlOptions(List<String> endpoints, List<Source> sources, Output output, Duration requestTimeout, boolean help) {

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

    CqlOptions {
        endpoints = List.copyOf(endpoints);
        sources = List.copyOf(sources);
    }

    static final String USAGE = """
            usage: tributary cql [--connect HOST:PORT[,HOST:PORT...]] [-e STMT]... [-f FILE]...
                                 [--output table|json] [--user ROLE [--password P]] [--request-timeout DURATION]

            Runs statements (separated by ';') against a Tributary cluster. With neither -e nor -f,
            reads statements from standard input as an interactive shell (prompt 'tributary> ';
            'exit', 'quit' or Ctrl-D ends it). On a terminal the shell edits lines, keeps its history
            across runs in ~/.tributary/cql_history (Up, Ctrl-R), continues a statement until its ';'
            and completes keywords, keyspaces, tables and columns with Tab.

            options:
              --connect HOST:PORT    the node(s) to connect to (default 127.0.0.1:9160); with several,
                                     the next one is tried when one is unavailable
              -e, --execute STMT     run STMT (may hold several statements); repeatable
              -f, --file FILE        run the statements in FILE; repeatable
              --output table|json    table (as cqlsh; default) or one JSON object per row and line
              --user ROLE            log in as ROLE (a node started with --authenticator password);
                                     the session runs as ROLE (default anonymous, not logged in)
              --password P           ROLE's password; without it $TRIBUTARY_PASSWORD, which keeps it
                                     out of the process list
              --request-timeout D    how long one statement may take, e.g. 500ms, 30s, 2m (default 60s)
              --tls-ca FILE          connect with TLS, trusting the CA certificates in FILE (PEM)
              --tls-client-cert FILE, --tls-client-key FILE
                                     the certificate and PKCS#8 key to present to a node that
                                     requires one (started with --tls-client-ca)
              -h, --help             print this help

            Errors go to stderr as 'ERROR <CODE>: <message>' and stop the run: exit status 2 for a
            syntax error, 1 for any other error, 0 when every statement succeeded.
            """;

    static CqlOptions parse(List<String> args) throws UsageException {
        List<String> endpoints = new ArrayList<>();
        List<Source> sources = new ArrayList<>();
        Output output = Output.TABLE;
        Duration timeout = TributaryClient.DEFAULT_REQUEST_TIMEOUT;
        boolean help = false;
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            String name = arg;
            String inlineValue = null;
            if (arg.startsWith("--") && arg.contains("=")) {
                name = arg.substring(0, arg.indexOf('='));
                inlineValue = arg.substring(arg.indexOf('=') + 1);
            }
            switch (name) {
                case "-h":
                case "--help":
                    help = true;
                    break;
                case "--connect": {
                    String v = inlineValue != null ? inlineValue : value(args, ++i, name);
                    for (String e : v.split(",")) {
                        String endpoint = e.trim();
                        if (endpoint.isEmpty()) {
                            continue;
                        }
                        checkEndpoint(endpoint);
                        endpoints.add(endpoint);
                    }
                    if (endpoints.isEmpty()) {
                        throw new UsageException("--connect wants HOST:PORT, got '" + v + "'");
                    }
                    break;
                }
                case "-e":
                case "--execute":
                    sources.add(new Inline(inlineValue != null ? inlineValue : value(args, ++i, name)));
                    break;
                case "-f":
                case "--file":
                    sources.add(new ScriptFile(inlineValue != null ? inlineValue : value(args, ++i, name)));
                    break;
                case "-o":
                case "--output": {
                    String v = inlineValue != null ? inlineValue : value(args, ++i, name);
                    try {
                        output = Output.valueOf(v.trim().toUpperCase(Locale.ROOT));
                    } catch (IllegalArgumentException e) {
                        throw new UsageException("--output is table or json, got '" + v + "'");
                    }
                    break;
                }
                case "--request-timeout":
                    timeout = Durations.parse(name, inlineValue != null ? inlineValue : value(args, ++i, name));
                    break;
                default:
                    // the name alone: a mistyped --password=P must not echo P
                    throw new UsageException(arg.startsWith("-") ? "unknown option '" + name + "'"
                            : "unexpected argument '" + arg + "' (statements go after -e)");
            }
        }
        if (endpoints.isEmpty()) {
            endpoints.add(DEFAULT_ENDPOINT);
        }
        return new CqlOptions(endpoints, sources, output, timeout, help);
    }

    private static String value(List<String> args, int i, String option) throws UsageException {
        if (i >= args.size()) {
            throw new UsageException(option + " needs a value");
        }
        return args.get(i);
    }

    private static void checkEndpoint(String endpoint) throws UsageException {
        try {
            TributaryClient.builder().endpoints(endpoint);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--connect: " + e.getMessage());
        }
    }
}
