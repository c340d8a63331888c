package dev.tributary.deploy;

import java.util.List;
import java.util.function.Function;

/**
 * A command that connects to the cluster as a client ({@code cql}, {@code tail}, {@code admin}):
 * what they do before connecting is here once, so their messages and exit statuses agree. A
 * command line that cannot be read prints the error and the usage (status 2); {@code --help}
 * prints the usage (0); a connection that cannot be set up (a file, a login) prints its error
 * without the usage, as the command line itself was right (2).
 */
abstract class ClientCommand<O extends ClientCommand.Options> {
    /** What every client command's options hold. */
    interface Options {
        boolean help();

        ConnectionOptions connection();
    }

    final Terminal terminal;
    private final ClientFactory clients;
    private final Function<String, String> env;
    private final String name;
    private final String usage;

    /**
     * @param name  the command's word, as its error lines begin ({@code tributary <name>: })
     * @param env   the environment ($TRIBUTARY_PASSWORD), replaceable in tests
     */
    ClientCommand(String name, String usage, Terminal terminal, ClientFactory clients, Function<String, String> env) {
        this.name = name;
        this.usage = usage;
        this.terminal = terminal;
        this.clients = clients;
        this.env = env;
    }

    /** @throws UsageException naming the option that is malformed */
    abstract O parse(List<String> args) throws UsageException;

    /** Runs the command line read, with the connection it names; returns the exit status. */
    abstract int run(O options, ClientFactory connector);

    /** Runs the command line; returns the exit status. */
    final int run(List<String> args) {
        O options;
        try {
            options = parse(args);
        } catch (UsageException e) {
            terminal.err().println("tributary " + name + ": " + e.getMessage());
            terminal.err().print(usage);
            return Tributary.USAGE;
        }
        if (options.help()) {
            terminal.out().print(usage);
            return Tributary.OK;
        }
        ClientFactory connector;
        try {
            connector = options.connection().factory(clients, env);
        } catch (UsageException e) {
            terminal.err().println("tributary " + name + ": " + e.getMessage());
            return Tributary.USAGE;
        }
        return run(options, connector);
    }
}
