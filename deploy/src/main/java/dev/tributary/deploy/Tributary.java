package dev.tributary.deploy;

import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * The {@code bin/tributary} launcher: {@code node} runs a node in the foreground (node-server's
 * {@code NodeMain}), {@code cql} runs statements or a shell, {@code bench} runs a benchmark (the
 * bench module's {@code Bench}), {@code version} prints the version.
 * Every subcommand prints its help for {@code --help}; an unknown subcommand prints the usage on
 * stderr with exit status 2.
 */
public final class Tributary {
    static final int OK = 0;
    static final int FAILED = 1;
    static final int USAGE = 2;

    static final String USAGE_TEXT = """
            usage: tributary <command> [options]

            commands:
              node      run one node in the foreground until SIGTERM/SIGINT
              cql       run statements (-e, -f) or an interactive statement shell
              bench     run a benchmark: capture (end-to-end capture throughput and latency)
              local-cluster  up|add|kill|restart|status|down: ZooKeeper and N nodes on 127.0.0.1
              zookeeper      run a standalone ZooKeeper server in the foreground
              tail      follow a table's CDC log or a queue, one LCR per line as JSON
              admin     operator commands: status, operations, decommission, removenode,
                        check-and-repair-cdc-streams
              version   print the version

            Run 'tributary <command> --help' for the options of a command.
            """;

    static final String VERSION_USAGE = """
            usage: tributary version

            Prints 'tributary <version>'.
            """;

    private final Terminal terminal;
    private final ClientFactory clients;
    private final NodeRunner node;
    private final Function<String, String> env;

    public Tributary(Terminal terminal, ClientFactory clients, NodeRunner node) {
        this(terminal, clients, node, System::getenv);
    }

    /** @param env the environment variables ($TRIBUTARY_PASSWORD), replaceable in tests */
    Tributary(Terminal terminal, ClientFactory clients, NodeRunner node, Function<String, String> env) {
        this.terminal = terminal;
        this.clients = clients;
        this.node = node;
        this.env = env;
    }

    public static void main(String[] args) {
        Terminal terminal = Terminal.system();
        int status = new Tributary(terminal, ClientFactory.netty(), NodeRunner.nodeServer()).run(args);
        terminal.out().flush();
        terminal.err().flush();
        boolean isNode = args.length > 0 && (args[0].equals("node") || args[0].equals("zookeeper"));
        // A node that stopped cleanly returns while its shutdown hook may still run; exiting
        // from here would then block on that hook (Runtime.exit waits for hooks), so let the JVM
        // end by itself. Everything else exits with its status.
        if (isNode && status == OK) {
            return;
        }
        System.exit(status);
    }

    /** Runs one command line; returns the exit status. */
    public int run(String... args) {
        if (args.length == 0) {
            terminal.err().print(USAGE_TEXT);
            return USAGE;
        }
        List<String> rest = Arrays.asList(args).subList(1, args.length);
        switch (args[0]) {
            case "-h":
            case "--help":
            case "help":
                terminal.out().print(USAGE_TEXT);
                return OK;
            case "node":
                return runNode(rest);
            case "cql", "tail", "admin":
                return connecting(args[0], rest);
            case "bench":
                return dev.tributary.bench.Bench.run(rest, terminal.out(), terminal.err());
            case "local-cluster":
                return new LocalClusterCommand(terminal).run(rest);
            case "zookeeper":
                try {
                    return new ZooKeeperCommand(terminal).run(rest);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return FAILED;
                }
            case "version":
            case "--version":
                return version(rest);
            default:
                terminal.err().println("tributary: unknown command '" + args[0] + "'");
                terminal.err().print(USAGE_TEXT);
                return USAGE;
        }
    }

    /**
     * A command that connects to a node: each reads its TLS and login options (the same
     * {@link ConnectionOptions} in each) and connects through the injected factory only when it
     * was given neither, as they mean a network connection of the CLI's own.
     */
    private int connecting(String command, List<String> args) {
        return switch (command) {
            case "cql" -> new CqlCommand(terminal, clients, env).run(args);
            case "tail" -> new TailCommand(terminal, clients, env).run(args);
            default -> new AdminCommand(terminal, clients, env).run(args);
        };
    }

    private int runNode(List<String> args) {
        try {
            return node.run(args.toArray(String[]::new));
        } catch (Exception e) {
            terminal.err().println("tributary node: " + e);
            e.printStackTrace(terminal.err());
            return FAILED;
        }
    }

    private int version(List<String> args) {
        if (args.contains("--help") || args.contains("-h")) {
            terminal.out().print(VERSION_USAGE);
            return OK;
        }
        if (!args.isEmpty()) {
            terminal.err().println("tributary version: unexpected argument '" + args.get(0) + "'");
            terminal.err().print(VERSION_USAGE);
            return USAGE;
        }
        terminal.out().println("tributary " + Version.current());
        return OK;
    }
}
