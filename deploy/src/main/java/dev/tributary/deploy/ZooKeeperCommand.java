package dev.tributary.deploy;

import dev.tributary.node.coord.EmbeddedZooKeeper;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tributary zookeeper --data-dir DIR --port P}: a standalone ZooKeeper server in the
 * foreground until SIGTERM, for {@code local-cluster} (nodes may come and go; it stays).
 */
final class ZooKeeperCommand {
    /** The option table of {@code tributary zookeeper}. */
    @Command(name = "tributary zookeeper", synopsisHeading = "usage: ", sortOptions = false, descriptionHeading = "%n",
            optionListHeading = "%noptions:%n", description = "Runs a ZooKeeper server on 127.0.0.1:P until SIGTERM/SIGINT.")
    static final class Options {
        @Option(names = "--data-dir", paramLabel = "DIR", description = "where the server keeps its files")
        String dataDir;

        @Option(names = "--port", paramLabel = "P", description = "its client port; 0 picks a free one, named in the ready line")
        Integer port;

        @Option(names = {"-h", "--help"}, usageHelp = true, description = "print this help")
        boolean help;
    }

    static final String USAGE = DeployCli.usage(new Options());

    private final Terminal terminal;

    ZooKeeperCommand(Terminal terminal) {
        this.terminal = terminal;
    }

    int run(List<String> args) throws InterruptedException {
        Options o = new Options();
        try {
            DeployCli.parse(o, args);
            if (!o.help && (o.dataDir == null || o.port == null)) {
                throw new UsageException("--data-dir and --port are needed");
            }
        } catch (UsageException e) {
            terminal.err().println("tributary zookeeper: " + e.getMessage());
            terminal.err().print(USAGE);
            return Tributary.USAGE;
        }
        if (o.help) {
            terminal.out().print(USAGE);
            return Tributary.OK;
        }
        EmbeddedZooKeeper zk = EmbeddedZooKeeper.start(Path.of(o.dataDir), o.port);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            zk.close();
            stopped.countDown();
        }, "tributary-zookeeper-shutdown"));
        terminal.out().println("tributary zookeeper ready on " + zk.connectString());
        terminal.out().flush();
        stopped.await();
        return Tributary.OK;
    }
}
