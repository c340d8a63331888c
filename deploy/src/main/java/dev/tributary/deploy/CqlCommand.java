package dev.tributary.deploy;

import dev.tributary.client.ResultSet;
import dev.tributary.client.Row;
import dev.tributary.client.Session;
import dev.tributary.client.TributaryClient;
import dev.tributary.client.errors.SyntaxErrorException;
import dev.tributary.client.errors.TributaryException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code tributary cql}: runs statements from {@code -e} and {@code -f} in order, stopping at the
 * first error, or reads them from standard input as a shell that reports errors and goes on.
 * Exit status: 0 when all succeeded, 2 for a syntax error, 1 for any other error (the shell
 * returns the status of its last failed statement), 2 for a command line it cannot run.
 */
final class CqlCommand extends ClientCommand<CqlOptions> {
    static final int OK = 0;
    static final int FAILED = 1;
    static final int SYNTAX = 2;
    static final int USAGE = 2;
    static final String CONTINUATION_PROMPT = "   ... ";

    private final Path historyFile;
    /** The connected client, for reading an operation's progress while a statement waits on it. */
    private TributaryClient client;

    /** @param env the environment ($TRIBUTARY_PASSWORD), replaceable in tests */
    CqlCommand(Terminal terminal, ClientFactory clients, java.util.function.Function<String, String> env) {
        this(terminal, clients, defaultHistoryFile(), env);
    }

    /** @param historyFile where the interactive shell keeps its history across runs */
    CqlCommand(Terminal terminal, ClientFactory clients, Path historyFile) {
        this(terminal, clients, historyFile, System::getenv);
    }

    private CqlCommand(Terminal terminal, ClientFactory clients, Path historyFile,
            java.util.function.Function<String, String> env) {
        super("cql", CqlOptions.USAGE, terminal, clients, env);
        this.historyFile = historyFile;
    }

    /** {@code ~/.tributary/cql_history}. */
    static Path defaultHistoryFile() {
        return Path.of(System.getProperty("user.home"), ".tributary", "cql_history");
    }

    @Override
    CqlOptions parse(List<String> args) throws UsageException {
        return CqlOptions.parse(args);
    }

    @Override
    int run(CqlOptions options, ClientFactory connector) {
        // Read every script before connecting, so a missing file runs nothing.
        List<String> statements = new ArrayList<>();
        for (CqlOptions.Source source : options.sources()) {
            try {
                String text = source instanceof CqlOptions.Inline inline ? inline.text()
                        : Files.readString(Path.of(((CqlOptions.ScriptFile) source).path()), StandardCharsets.UTF_8);
                statements.addAll(StatementSplitter.splitAll(text));
            } catch (IOException e) {
                terminal.err().println("ERROR IO_ERROR: cannot read file '" + ((CqlOptions.ScriptFile) source).path()
                        + "': " + describe(e));
                return FAILED;
            }
        }
        try (TributaryClient client = connector.connect(options.endpoints(), options.requestTimeout(),
                TributaryClient.DEFAULT_USERNAME)) {
            this.client = client;
            Session session = client.session();
            if (options.sources().isEmpty()) {
                if (terminal.lineEditor() != null) {
                    try (org.jline.terminal.Terminal lines = terminal.lineEditor().open()) {
                        return lineEditingShell(session, options.output(), lines);
                    } catch (IOException e) {
                        terminal.err().println("tributary cql: no line editing (" + describe(e) + ")");
                    }
                }
                return shell(session, options.output());
            }
            for (String statement : statements) {
                int status = runOne(session, statement, options.output());
                if (status != OK) {
                    return status;
                }
            }
            return OK;
        }
    }

    /** Reads statements until EOF or exit/quit; statements may span lines until their ';'. */
    private int shell(Session session, CqlOptions.Output output) {
        BufferedReader reader = new BufferedReader(new InputStreamReader(terminal.in(), StandardCharsets.UTF_8));
        PrintStream out = terminal.out();
        StringBuilder pending = new StringBuilder();
        int status = OK;
        try {
            while (true) {
                if (terminal.interactive()) {
                    out.print(pending.length() == 0 ? prompt(session) : CONTINUATION_PROMPT);
                    out.flush();
                }
                String line = reader.readLine();
                if (line == null) {
                    break;
                }
                if (pending.length() == 0 && isExit(line)) {
                    return status;
                }
                pending.append(line).append('\n');
                StatementSplitter.Split split = StatementSplitter.split(pending.toString());
                for (String statement : split.statements()) {
                    int s = runOne(session, statement, output);
                    if (s != OK) {
                        status = s;
                    }
                }
                pending.setLength(0);
                if (split.hasUnfinished()) {
                    pending.append(split.remainder());
                }
            }
        } catch (IOException e) {
            terminal.err().println("ERROR IO_ERROR: cannot read standard input: " + describe(e));
            return FAILED;
        }
        // At end of input a statement without its ';' still runs, as with -e and -f.
        for (String statement : StatementSplitter.splitAll(pending.toString())) {
            int s = runOne(session, statement, output);
            if (s != OK) {
                status = s;
            }
        }
        if (terminal.interactive()) {
            out.println();
        }
        return status;
    }

    /**
     * The shell on a terminal, as cqlsh: line editing, history kept in {@link #historyFile}
     * across runs (a multi-line statement is one entry), Enter before the {@code ;} continues the
     * statement, Tab completes keywords and the live schema's names. Ctrl-C drops the line being
     * typed; Ctrl-D, exit or quit ends the shell.
     */
    private int lineEditingShell(Session session, CqlOptions.Output output, org.jline.terminal.Terminal lines) {
        try {
            Files.createDirectories(historyFile.toAbsolutePath().getParent());
        } catch (IOException e) {
            terminal.err().println("tributary cql: history not kept (" + describe(e) + ")");
        }
        org.jline.reader.LineReader reader = org.jline.reader.LineReaderBuilder.builder().terminal(lines).appName("tributary")
                .parser(new StatementParser()).completer(new CqlCompleter(session))
                .variable(org.jline.reader.LineReader.HISTORY_FILE, historyFile)
                .variable(org.jline.reader.LineReader.SECONDARY_PROMPT_PATTERN, CONTINUATION_PROMPT)
                .option(org.jline.reader.LineReader.Option.CASE_INSENSITIVE, true)
                // '!' is CQL (!=), not a history reference
                .option(org.jline.reader.LineReader.Option.DISABLE_EVENT_EXPANSION, true)
                .build();
        int status = OK;
        try {
            while (true) {
                String text;
                try {
                    text = reader.readLine(prompt(session));
                } catch (org.jline.reader.UserInterruptException e) {
                    continue;
                } catch (org.jline.reader.EndOfFileException e) {
                    break;
                }
                if (isExit(text)) {
                    break;
                }
                for (String statement : StatementSplitter.splitAll(text)) {
                    int s = runOne(session, statement, output);
                    if (s != OK) {
                        status = s;
                    }
                }
            }
        } finally {
            try {
                reader.getHistory().save();
            } catch (IOException e) {
                terminal.err().println("tributary cql: could not save the history to " + historyFile + ": " + describe(e));
            }
        }
        return status;
    }

    static String prompt(Session session) {
        String ks = session.keyspace();
        return ks == null ? "tributary> " : "tributary:" + ks + "> ";
    }

    static boolean isExit(String line) {
        String t = line.trim().toLowerCase(Locale.ROOT);
        if (t.endsWith(";")) {
            t = t.substring(0, t.length() - 1).trim();
        }
        return t.equals("exit") || t.equals("quit");
    }

    /** A statement whose progress system_views.operations reports while it runs. */
    private static final java.util.regex.Pattern LONG_OPERATION = java.util.regex.Pattern.compile(
            "\\bdbms_streams_adm\\s*\\.\\s*instantiate_table\\b", java.util.regex.Pattern.CASE_INSENSITIVE);

    /** Runs one statement and prints its rows; returns the exit status it deserves. */
    private int runOne(Session session, String statement, CqlOptions.Output output) {
        ResultSet rs;
        try {
            rs = LONG_OPERATION.matcher(statement).find()
                    ? OperationProgress.await(terminal, client, "instantiate_table", () -> session.execute(statement))
                    : session.execute(statement);
        } catch (TributaryException e) {
            terminal.err().println(errorLine(e));
            return e instanceof SyntaxErrorException || "SYNTAX_ERROR".equals(e.code()) ? SYNTAX : FAILED;
        } catch (IllegalArgumentException e) {
            // The answer could not be read (a value that does not fit its column type).
            terminal.err().println("ERROR CLIENT_ERROR: " + e.getMessage());
            return FAILED;
        }
        for (String warning : rs.warnings()) {
            terminal.err().println("Warning: " + warning);
        }
        if (!rs.hasRows()) {
            return OK;
        }
        PrintStream out = terminal.out();
        if (output == CqlOptions.Output.JSON) {
            for (Row row : rs) {
                out.println(row.toJson());
            }
        } else {
            out.print(TableFormatter.format(rs));
        }
        out.flush();
        return OK;
    }

    /**
     * How every connecting command reports a refused request: the node's reason code (the
     * tributary-error-code trailer, else the gRPC status name, so UNAUTHENTICATED and
     * PERMISSION_DENIED either way) and its message.
     */
    static String errorLine(TributaryException e) {
        return "ERROR " + e.code() + ": " + e.getMessage();
    }

    private static String describe(IOException e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getClass().getSimpleName() + ": " + e.getMessage();
    }
}
