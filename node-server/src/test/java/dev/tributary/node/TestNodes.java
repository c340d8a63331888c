package dev.tributary.node;

import dev.tributary.protocol.v1.ChangeStreamServiceGrpc;
import dev.tributary.protocol.v1.CqlServiceGrpc;
import dev.tributary.protocol.v1.ExecuteRequest;
import dev.tributary.protocol.v1.ExecuteResponse;
import dev.tributary.protocol.v1.SessionState;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** Starting real nodes for integration tests: real RocksDB, embedded ZooKeeper, gRPC on 127.0.0.1. */
public final class TestNodes {
    private TestNodes() {
    }

    /** @param more further command-line options of the node */
    /** The stacks of this JVM's threads whose names start with one of {@code prefixes}, for a failure message. */
    public static String threads(String... prefixes) {
        StringBuilder b = new StringBuilder();
        Thread.getAllStackTraces().forEach((t, stack) -> {
            if (java.util.Arrays.stream(prefixes).anyMatch(t.getName()::startsWith)) {
                b.append('\n').append(t.getName()).append(' ').append(t.getState());
                for (StackTraceElement e : stack) {
                    b.append("\n    at ").append(e);
                }
            }
        });
        return b.toString();
    }

    private static final java.util.Set<Integer> HANDED_OUT = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /**
     * A port free on 127.0.0.1 just now, for a server (a node, ZooKeeper, PostgreSQL) that a test may
     * stop and start again on it. Chosen below the kernel's ephemeral range (32768 and up), where no
     * outgoing connection can take it as its local port while the server is down: a ZooKeeper peer
     * that could not bind its election port again exited the test JVM (CI, QuorumLossIT). Never the
     * same port twice in one JVM, so two servers chosen before either binds cannot share one.
     */
    public static int freePort() throws java.io.IOException {
        for (int attempt = 1; ; attempt++) {
            int port = 10_000 + java.util.concurrent.ThreadLocalRandom.current().nextInt(22_000);
            if (!HANDED_OUT.add(port)) {
                continue;
            }
            try (java.net.ServerSocket s = new java.net.ServerSocket()) {
                s.bind(new java.net.InetSocketAddress("127.0.0.1", port));
                return port;
            } catch (java.net.BindException taken) {
                if (attempt >= 200) {
                    throw taken;
                }
            }
        }
    }

    /** The superuser password of nodes started with {@link #passwordAuthenticator}. */
    public static final String SUPERUSER_PASSWORD = "test-superuser-pw";

    /**
     * The options of a node with the password authenticator whose first start gives superuser
     * cassandra {@link #SUPERUSER_PASSWORD} (a password file written under {@code dir}).
     */
    public static String[] passwordAuthenticator(Path dir) {
        Path file = dir.resolve("superuser-password");
        try {
            java.nio.file.Files.createDirectories(dir);
            java.nio.file.Files.writeString(file, SUPERUSER_PASSWORD + "\n");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return new String[] {"--authenticator", "password", "--superuser-password-file", file.toString()};
    }

    /** {@code options} followed by {@code more}. */
    public static String[] concat(String[] options, String... more) {
        String[] out = java.util.Arrays.copyOf(options, options.length + more.length);
        System.arraycopy(more, 0, out, options.length, more.length);
        return out;
    }

    public static NodeConfig config(Path dir, Duration ringDelay, String... more) {
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("--data-dir", dir.toString(), "--listen",
                "127.0.0.1:0", "--native-listen", "127.0.0.1:0", "--ring-delay", ringDelay.toMillis() + "ms", "--num-tokens", "8",
                "--commitlog-sync", "batch"));
        args.addAll(java.util.List.of(more));
        return NodeConfig.parse(args.toArray(new String[0]));
    }

    /** A node whose first generation is already in force when this returns. */
    public static TributaryNode startOperating(Path dir, String... more) {
        TributaryNode n = TributaryNode.start(config(dir, Duration.ofMillis(300), more));
        awaitGenerationInForce(n);
        return n;
    }

    /**
     * As {@link #startOperating(Path, String...)}, with the node's host id, vnode tokens and CDC
     * stream ids drawn from {@code seed}: a test that prints its seed replays them.
     */
    public static TributaryNode startOperatingSeeded(Path dir, long seed, String... more) {
        TributaryNode n = startSeeded(config(dir, Duration.ofMillis(300), more), seed);
        awaitGenerationInForce(n);
        return n;
    }

    /**
     * A node whose host id, vnode tokens and CDC stream ids are drawn from {@code seed}, through the
     * package-private {@code TributaryNode.startSeeded}: no option gives users a predictable node.
     */
    public static TributaryNode startSeeded(NodeConfig config, long seed) {
        return TributaryNode.startSeeded(config, new java.util.Random(seed));
    }

    /**
     * Waits until the newest CDC generation {@code n} knows is in force: before the cluster's first
     * one a change has no stream, which a CDC table refuses and a capture process cannot enqueue.
     */
    public static void awaitGenerationInForce(TributaryNode n) {
        long ts = n.generations().latest().orElseThrow().timestampMillis();
        await(() -> System.currentTimeMillis() >= ts, Duration.ofSeconds(10), "the generation of " + ts + " to start operating");
    }

    /** A one-node cluster of its own (an embedded ZooKeeper) named {@code name}: another database, for log transport. */
    public static TributaryNode startCluster(Path dir, String name) throws java.io.IOException {
        return startOperating(dir, "--zookeeper", "embedded:" + freePort(), "--cluster", name);
    }

    public static void await(BooleanSupplier condition, Duration timeout, String what) {
        await(condition, timeout, () -> what);
    }

    /** As {@link #await(BooleanSupplier, Duration, String)}, with a description taken only on timeout (a state dump). */
    public static void await(BooleanSupplier condition, Duration timeout, java.util.function.Supplier<String> what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout.toMillis() + " ms waiting for " + what.get());
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for " + what.get());
            }
        }
    }

    /** As {@link #await(BooleanSupplier, Duration, String)}; a timeout shows the end of the node process's log. */
    static void awaitOrShowLog(NodeProcess node, BooleanSupplier condition, Duration timeout, String what) {
        try {
            await(condition, timeout, what);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "\nnode log:\n" + node.logTail(), e);
        }
    }

    /** The first 20 of {@code want} not in {@code have}, in order: a failure message names some. */
    public static java.util.List<Integer> missing(java.util.Set<Integer> want, java.util.Set<Integer> have) {
        return new java.util.TreeSet<>(want).stream().filter(v -> !have.contains(v)).limit(20).toList();
    }

    /**
     * Asserts that a single node process's {@code table} ("ks.t", with a CDC log) holds every
     * {@code acked} value of its int column {@code column}, and that, once the capture has caught
     * up, its log holds each row of the table exactly once and nothing else. Returns the values in
     * the table.
     */
    public static java.util.Set<Integer> assertTableLoggedOnce(NodeProcess node, Wire w, String table, String column,
            java.util.Set<Integer> acked) {
        java.util.Set<Integer> inTable = new java.util.HashSet<>();
        for (dev.tributary.protocol.v1.Row r : w.exec("SELECT " + column + " FROM " + table).getRowsList()) {
            inTable.add((int) r.getValues(0).getInteger());
        }
        org.junit.jupiter.api.Assertions.assertTrue(inTable.containsAll(acked),
                "acknowledged writes missing from the table: " + missing(acked, inTable));
        // the capture fills the log from the redo asynchronously: after a restart it catches up on what came before
        java.util.Map<Integer, Integer> inLog = new java.util.HashMap<>();
        awaitOrShowLog(node, () -> {
            inLog.clear();
            String log = "SELECT " + column + " FROM " + table + "_scylla_cdc_log";
            for (dev.tributary.protocol.v1.Row r : w.exec(log).getRowsList()) {
                inLog.merge((int) r.getValues(0).getInteger(), 1, Integer::sum);
            }
            return inLog.keySet().containsAll(inTable);
        }, Duration.ofSeconds(60), "the log to hold every row of " + table);
        java.util.List<String> repeated = inLog.entrySet().stream().filter(e -> e.getValue() != 1)
                .map(e -> e.getKey() + " x" + e.getValue()).limit(20).toList();
        org.junit.jupiter.api.Assertions.assertEquals(java.util.List.of(), repeated, "writes in the log more than once");
        org.junit.jupiter.api.Assertions.assertEquals(inTable, inLog.keySet(), "the log holds exactly the committed writes");
        return inTable;
    }

    /** A query answered by one node alone: the header peers put on a forwarded request. */
    public static ExecuteResponse localOnly(TributaryNode n, String query) {
        dev.tributary.node.kit.Security.Connection c = dev.tributary.node.kit.Security.Connection.to(n.endpoint(), n.config());
        try {
            io.grpc.Metadata md = new io.grpc.Metadata();
            md.put(io.grpc.Metadata.Key.of("tributary-forwarded", io.grpc.Metadata.ASCII_STRING_MARSHALLER), "test");
            return c.attach(CqlServiceGrpc.newBlockingStub(c.channel()))
                    .withInterceptors(io.grpc.stub.MetadataUtils.newAttachHeadersInterceptor(md))
                    .execute(ExecuteRequest.newBuilder().setStatement(query)
                            .setSession(SessionState.newBuilder().setUsername("t")).build());
        } finally {
            c.channel().shutdownNow();
        }
    }

    /** A raw gRPC connection to a node (tests of the wire contract itself, without the SDK). */
    public static final class Wire implements AutoCloseable {
        public final ManagedChannel channel;
        public final CqlServiceGrpc.CqlServiceBlockingStub cql;
        public final ChangeStreamServiceGrpc.ChangeStreamServiceBlockingStub changes;
        private SessionState session = SessionState.newBuilder().setUsername("test").setSessionId(1).build();

        /** To a node in this JVM, secured as its configuration says (TLS, and a superuser's token with a password file). */
        public Wire(TributaryNode node) {
            this(dev.tributary.node.kit.Security.Connection.to(node.endpoint(), node.config()));
        }

        /** To a node at HOST:PORT (one in another process), plaintext and without a login. */
        public Wire(String endpoint) {
            this(new dev.tributary.node.kit.Security.Connection(ManagedChannelBuilder.forTarget(endpoint).usePlaintext().build(),
                    new io.grpc.Metadata()));
        }

        private Wire(dev.tributary.node.kit.Security.Connection c) {
            channel = c.channel();
            cql = c.attach(CqlServiceGrpc.newBlockingStub(channel));
            changes = c.attach(ChangeStreamServiceGrpc.newBlockingStub(channel));
        }

        public ExecuteResponse exec(String statement) {
            ExecuteResponse r = cql.withDeadlineAfter(30, TimeUnit.SECONDS)
                    .execute(ExecuteRequest.newBuilder().setStatement(statement).setSession(session).build());
            session = r.getSession();
            return r;
        }

        /**
         * Writes {@code rows} rows as BEGIN BATCH statements of 100: {@code insert} gives row i's
         * statement (without its semicolon). A backlog of thousands of LCRs, a few round trips.
         */
        public void execInBatches(int rows, java.util.function.IntFunction<String> insert) {
            for (int first = 0; first < rows; first += 100) {
                StringBuilder b = new StringBuilder("BEGIN BATCH ");
                for (int i = first; i < Math.min(rows, first + 100); i++) {
                    b.append(insert.apply(i)).append("; ");
                }
                exec(b.append("APPLY BATCH").toString());
            }
        }

        /** The LCRs (JSON form) of a queue, in log order. */
        public java.util.List<String> queueLcrs(String queue) {
            return exec("SELECT lcr FROM system_queues." + queue).getRowsList().stream()
                    .map(r -> r.getValues(0).getText()).toList();
        }

        /** The one value of a one-row, one-column query, as text or number. */
        public Object scalar(String query) {
            ExecuteResponse r = exec(query);
            if (r.getRowsCount() != 1) {
                throw new AssertionError(query + " returned " + r.getRowsCount() + " rows");
            }
            dev.tributary.protocol.v1.Value v = r.getRows(0).getValues(0);
            return v.hasText() ? v.getText() : v.hasInteger() ? (Object) v.getInteger() : v.toString();
        }

        /** Waits until a capture has scanned past an SCN. */
        public void awaitCaptured(String capture, long scn) {
            await(() -> {
                ExecuteResponse r = exec("SELECT captured_scn FROM system_views.capture WHERE capture_name = '" + capture + "'");
                return r.getRowsCount() == 1 && r.getRows(0).getValues(0).getInteger() >= scn;
            }, Duration.ofSeconds(20), "capture " + capture + " to pass SCN " + scn);
        }

        @Override
        public void close() {
            channel.shutdownNow();
        }
    }
}
