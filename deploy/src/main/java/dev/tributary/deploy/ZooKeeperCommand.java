package dev.tributary.deploy;

import dev.tributary.node.coord.EmbeddedZooKeeper;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * {@code tributary zookeeper --data-dir DIR --port P}: a standalone ZooKeeper server in the
 * foreground until SIGTERM, for {@code local-cluster} (nodes may come and go; it stays).
 */
final class ZooKeeperCommand {
    static final String USAGE = """
            usage: tributary zookeeper --data-dir DIR --port P

            Runs a ZooKeeper server on 127.0.0.1:P until SIGTERM/SIGINT.
            """;

    private final Terminal terminal;

    ZooKeeperCommand(Terminal terminal) {
        this.terminal = terminal;
    }

    int run(List<String> args) throws InterruptedException {
        if (args.contains("--help") || args.contains("-h")) {
            terminal.out().print(USAGE);
            return Tributary.OK;
        }
        if (args.size() != 4 || !args.get(0).equals("--data-dir") || !args.get(2).equals("--port")) {
            terminal.err().print(USAGE);
            return Tributary.USAGE;
        }
        EmbeddedZooKeeper zk = EmbeddedZooKeeper.start(Path.of(args.get(1)), Integer.parseInt(args.get(3)));
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
