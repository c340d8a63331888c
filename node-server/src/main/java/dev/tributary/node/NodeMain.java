package dev.tributary.node;

import dev.tributary.node.metrics.MetricsEndpoint;
import dev.tributary.node.metrics.NodeMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * {@code tributary node [options]}: runs one node in the foreground until SIGTERM/SIGINT, then
 * shuts it down cleanly, or until it is decommissioned. Prints {@code tributary node <id> ready on
 * <host:port>} once it serves.
 */
public final class NodeMain {
    private NodeMain() {
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs a node; returns the process exit code (0 after a clean shutdown, 2 for bad options). */
    public static int run(String[] args) {
        PrintStream out = System.out;
        NodeConfig config;
        try {
            NodeOptions options = NodeOptions.parse(List.of(args));
            if (options.help) {
                out.print(NodeOptions.usage());
                return 0;
            }
            config = options.toConfig();
            config.requireClosedUnlessLoopback();
        } catch (IllegalArgumentException e) {
            System.err.println("ERROR INVALID_REQUEST: " + e.getMessage());
            System.err.print(NodeOptions.usage());
            return 2;
        }
        // one registry and one /metrics per process, whatever instances it runs
        NodeMetrics metrics = new NodeMetrics(new PrometheusRegistry());
        MetricsEndpoint endpoint = null;
        if (config.servesMetrics()) {
            try {
                endpoint = MetricsEndpoint.start(metrics, config.metricsHost(), config.metricsPort());
            } catch (java.io.UncheckedIOException e) {
                System.err.println("ERROR UNAVAILABLE: " + e.getMessage() + ": " + e.getCause().getMessage());
                return 1;
            }
        }
        if (config.replicated()) {
            return runReplicated(config, out, metrics, endpoint);
        }
        TributaryNode node;
        try {
            node = TributaryNode.start(config, metrics);
        } catch (RuntimeException e) {
            System.err.println("ERROR UNAVAILABLE: node failed to start: " + e.getMessage());
            closeQuietly(endpoint);
            return 1;
        }
        node.takeGeneratedSuperuserPassword().ifPresent(p -> printGenerated(p, out));
        CountDownLatch stopped = new CountDownLatch(1);
        Thread hook = stopOnShutdown(withEndpoint(node, endpoint), node.hostId().toString(), out, stopped);
        endWhenDecommissioned(node.departed(), withEndpoint(node, endpoint), node.hostId().toString(), hook, out, stopped);
        return readyUntilStopped(node.hostId().toString(), node.endpoint(), out, stopped);
    }

    /** A node with replication: its own instance, and those of groups it leads while their home node is down. */
    private static int runReplicated(NodeConfig config, PrintStream out, NodeMetrics metrics, MetricsEndpoint endpoint) {
        ReplicatedNode node;
        try {
            node = ReplicatedNode.start(config, Duration.ofMinutes(2), metrics);
        } catch (IllegalArgumentException e) {
            System.err.println("ERROR INVALID_REQUEST: " + e.getMessage());
            closeQuietly(endpoint);
            return 2;
        } catch (RuntimeException e) {
            System.err.println("ERROR UNAVAILABLE: node failed to start: " + e.getMessage());
            closeQuietly(endpoint);
            return 1;
        }
        // the cluster's first instance makes the superuser: on a fresh cluster that is this node's own
        node.instances().values().forEach(i -> i.takeGeneratedSuperuserPassword().ifPresent(p -> printGenerated(p, out)));
        CountDownLatch stopped = new CountDownLatch(1);
        Thread hook = stopOnShutdown(withEndpoint(node, endpoint), node.hostId(), out, stopped);
        endWhenDecommissioned(node.retired(), withEndpoint(node, endpoint), node.hostId(), hook, out, stopped);
        return readyUntilStopped(node.hostId(), node.home().endpoint(), out, stopped);
    }

    /**
     * The superuser password a first start generated, on standard output only (never the log): the
     * one time anyone sees it.
     */
    private static void printGenerated(dev.tributary.node.auth.AccessControl.GeneratedPassword p, PrintStream out) {
        out.println("superuser " + p.role() + " created with password " + p.password()
                + " (shown this once; change it with ALTER ROLE " + p.role() + " WITH PASSWORD = '...')");
        out.flush();
    }

    /** Closes the node, then its /metrics: a scrape during the shutdown still sees it draining. */
    private static AutoCloseable withEndpoint(AutoCloseable node, MetricsEndpoint endpoint) {
        return () -> {
            try {
                node.close();
            } finally {
                closeQuietly(endpoint);
            }
        };
    }

    private static void closeQuietly(MetricsEndpoint endpoint) {
        if (endpoint != null) {
            endpoint.close();
        }
    }

    /** A decommissioned node has left the cluster: the process ends, as with nodetool decommission. */
    private static void endWhenDecommissioned(java.util.concurrent.CompletableFuture<?> departed, AutoCloseable node,
            String hostId, Thread hook, PrintStream out, CountDownLatch stopped) {
        departed.thenRunAsync(() -> {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException alreadyShuttingDown) {
                return; // the hook closes the node
            }
            close(node, hostId, "decommissioned", out, stopped);
        });
    }

    /** SIGTERM/SIGINT closes the node cleanly and says so; returns the hook (a decommission removes it). */
    private static Thread stopOnShutdown(AutoCloseable node, String hostId, PrintStream out, CountDownLatch stopped) {
        Thread hook = new Thread(() -> close(node, hostId, "stopped", out, stopped), "tributary-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        return hook;
    }

    /** Closes the node, says so ({@code tributary node <id> <how>}, what scripts wait for) and lets main return. */
    private static void close(AutoCloseable node, String hostId, String how, PrintStream out, CountDownLatch stopped) {
        try {
            node.close();
        } catch (Exception e) {
            System.err.println("ERROR: closing node " + hostId + " failed: " + e);
        }
        out.println("tributary node " + hostId + " " + how);
        out.flush();
        stopped.countDown();
    }

    /** Prints the ready line and waits until the node has stopped; the process's exit status. */
    private static int readyUntilStopped(String hostId, String endpoint, PrintStream out, CountDownLatch stopped) {
        out.println("tributary node " + hostId + " ready on " + endpoint);
        out.flush();
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }
}
