package dev.tributary.bench;

import dev.tributary.client.GenerationInfo;
import dev.tributary.client.Row;
import dev.tributary.client.TributaryClient;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;

/**
 * One run of {@code tributary bench capture}: nodes (in-process or connected), the CDC table,
 * the writers and consumers of the measured phase, then, in the same run, the RocksDB baseline.
 * Used from one thread; {@link #run()} may be called once.
 *
 * @see CaptureOptions#USAGE
 */
public final class CaptureBench {
    /** A consumer that receives nothing new for this long fails the run rather than hanging. */
    static final Duration STALL_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);
    private static final String SOURCE_DATABASE = "tributary";

    private final CaptureOptions options;
    private final PrintStream err;

    public CaptureBench(CaptureOptions options, PrintStream err) {
        this.options = options;
        this.err = err;
    }

    /** What the measured phase produced, before the nodes stop. */
    private record Measured(String table, long lcrs, long unexpected, double writeSeconds, double deliverSeconds,
            LatencyRecorder latency, CaptureReport.ConsumerStats consumer, List<LagSample> lag, long heapPeakBytes,
            CaptureReport.Subset subset) {
    }

    /**
     * Runs the benchmark.
     *
     * @throws BenchFailedException when a node does not start, a write fails or the consumers stall
     */
    public CaptureReport run() {
        Machine machine = Machine.current();
        err.println("bench: durability " + options.durability().flag() + ": " + options.durability().description());
        err.println("bench: machine " + machine);
        Path parent = options.dataDir() != null ? options.dataDir() : Path.of(System.getProperty("java.io.tmpdir"));
        InProcessCluster cluster = null;
        try {
            List<String> endpoints;
            if (options.inProcess()) {
                cluster = InProcessCluster.start(options.nodes(), parent, options.durability(), options.numTokens(),
                        options.parallelism());
                endpoints = cluster.endpoints();
                err.println("bench: started " + options.nodes() + " in-process node(s) on " + endpoints + " in "
                        + cluster.baseDir());
            } else {
                endpoints = clusterEndpoints(options.connect());
                err.println("bench: connected to " + endpoints.size() + " node(s): " + endpoints);
            }
            Measured m = measure(endpoints, cluster == null ? null : cluster::captured);
            CaptureReport.Memory memory = memory(m.heapPeakBytes());
            Map<String, Object> nodeBytes = null;
            if (cluster != null) {
                cluster.stopNodes();
                nodeBytes = footprint(cluster.storeDirs()).perRow(options.rows() + options.warmupRows());
            }
            CaptureReport.Baseline baseline = options.baseline() ? baseline(parent, m.table()) : null;
            return new CaptureReport(options, machine, m.table(), m.lcrs(), m.unexpected(), m.writeSeconds(),
                    m.deliverSeconds(), CaptureReport.Latency.of(m.latency()), baseline, memory, m.consumer(), m.lag(),
                    m.subset(), nodeBytes);
        } finally {
            if (cluster != null) {
                cluster.close();
            }
        }
    }

    /**
     * The node given and its peers: a live subscription follows one node's log, and a write may
     * commit on any node (a batch where the client sent it, a retry where another node took it), so
     * the consumers follow every node.
     */
    private static List<String> clusterEndpoints(String given) {
        List<String> out = new ArrayList<>(List.of(given));
        try (TributaryClient c = client(given)) {
            for (dev.tributary.client.Row r : c.execute("SELECT rpc_address, grpc_port FROM system.peers")) {
                String ep = r.getInetAddress("rpc_address").getHostAddress() + ":" + r.getInt("grpc_port");
                if (!out.contains(ep)) {
                    out.add(ep);
                }
            }
        }
        return out;
    }

    private Measured measure(List<String> endpoints, java.util.function.LongSupplier captured) {
        String id = Long.toString(System.currentTimeMillis(), 36);
        String tableName = "capture_" + id;
        // one keyspace per factor: a keyspace keeps the factor it was created with
        String keyspace = options.replicationFactor() == 1 ? "bench" : "bench_rf" + options.replicationFactor();
        String table = keyspace + "." + tableName;
        List<TributaryClient> writeClients = new ArrayList<>();
        List<TributaryClient> readClients = new ArrayList<>();
        List<LogFollower> followers = new ArrayList<>();
        List<LcrCounter> counters = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        try {
            for (String e : endpoints) {
                // separate connections, so the consumers' reads do not queue behind the writers' batches
                writeClients.add(client(e));
                readClients.add(client(e));
            }
            TributaryClient admin = writeClients.get(0);
            admin.execute("CREATE KEYSPACE IF NOT EXISTS " + keyspace + " WITH replication = {'class': 'SimpleStrategy', "
                    + "'replication_factor': " + options.replicationFactor() + "}");
            admin.execute("CREATE TABLE " + table + " (pk bigint PRIMARY KEY, bucket int, v blob) WITH cdc = {'enabled': true}");
            String captureName = "bench_subset_" + id;
            if (options.subsetPercent() != null) {
                for (TributaryClient c : writeClients) {
                    setUpSubsetCapture(c, table, captureName, "bench_queue_" + id);
                }
            }
            List<ByteBuffer> streams = awaitGeneration(admin);
            awaitWritable(admin, table);
            err.println("bench: table " + table + ", " + streams.size() + " CDC streams, " + options.parallelism()
                    + " consumer thread(s) per node");

            DeliveryProgress progress = new DeliveryProgress();
            // the SDK's ChangeConsumer finds every node itself: one for the cluster
            for (TributaryClient reader : options.consumer() == CaptureOptions.Consumer.SDK ? readClients.subList(0, 1)
                    : readClients) {
                List<List<ByteBuffer>> shares = options.consumer() == CaptureOptions.Consumer.POLL
                        ? ChangeFollower.partition(streams, options.parallelism()) : List.of(streams);
                for (List<ByteBuffer> share : shares) {
                    LcrCounter counter = new LcrCounter(options.measuredCommand(), progress, options.consumerRate());
                    LogFollower f = switch (options.consumer()) {
                        case POLL -> new ChangeFollower(ChangeSource.of(reader.changes(), table), share, counter);
                        case LIVE -> new LiveFollower(reader.changes().subscribeTable(table), counter);
                        case SDK -> new SdkFollower(reader, table, counter);
                    };
                    Thread t = new Thread(f, "bench-consumer-" + threads.size());
                    t.setDaemon(true);
                    followers.add(f);
                    counters.add(counter);
                    threads.add(t);
                    t.start();
                }
            }

            if (options.updates()) {
                err.println("bench: preloading " + options.rows() + " rows (not measured)");
                new WriterPool(writeClients, table, options.clients(), options.batch(), options.rowBytes(), 0)
                        .run(WriterPool.Kind.INSERT, options.rows(), new AckTimeline());
                awaitDelivered(progress::preload, options.rows(), followers, "preload INSERT");
                err.println("bench: preload delivered; measuring UPDATEs");
            }

            if (options.warmupRows() > 0) {
                err.println("bench: warming up with " + options.warmupRows() + " other rows (not measured)");
                long seen = progress.preload();
                new WriterPool(writeClients, table, options.clients(), options.batch(), options.rowBytes(), options.rate())
                        .run(WriterPool.Kind.INSERT, options.rows(), options.warmupRows(), new AckTimeline());
                awaitDelivered(progress::preload, seen + options.warmupRows(), followers, "warm-up INSERT");
            }
            progress.startMeasuring();
            WriterPool writers = new WriterPool(writeClients, table, options.clients(), options.batch(), options.rowBytes(),
                    options.rate());
            AckTimeline acks = new AckTimeline();
            ProgressSampler sampler = new ProgressSampler(acks, progress, captured, options.rows(), err, 2);
            sampler.start();
            WriterPool.Result written;
            long deliveredAt;
            CaptureReport.Subset subset = null;
            try {
                written = writers.run(options.updates() ? WriterPool.Kind.UPDATE : WriterPool.Kind.INSERT, options.rows(), acks);
                err.printf(Locale.ROOT, "bench: all %,d rows acknowledged in %.2f s%n", written.rowsAcknowledged(),
                        written.seconds());
                deliveredAt = awaitDelivered(progress::measured, options.rows(), followers, options.measuredCommand());
                if (options.subsetPercent() != null) {
                    subset = awaitSubset(writeClients, captureName, written.startNanos());
                }
            } finally {
                sampler.stop();
            }
            for (LogFollower f : followers) {
                f.stop();
            }
            for (Thread t : threads) {
                t.join(10_000);
            }
            LatencyRecorder latency = new LatencyRecorder();
            for (LcrCounter c : counters) {
                latency.add(c.latency());
            }
            long reads = followers.stream().mapToLong(LogFollower::reads).sum();
            return new Measured(table, progress.measured(), progress.others(), written.seconds(),
                    (deliveredAt - written.startNanos()) / 1e9, latency,
                    new CaptureReport.ConsumerStats(followers.size(), streams.size(), reads), sampler.samples(),
                    sampler.heapPeakBytes(), subset);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BenchFailedException("interrupted", e);
        } finally {
            for (LogFollower f : followers) {
                f.stop();
            }
            for (TributaryClient c : writeClients) {
                c.close();
            }
            for (TributaryClient c : readClients) {
                c.close();
            }
        }
    }

    private static TributaryClient client(String endpoint) {
        return TributaryClient.builder().endpoints(endpoint).requestTimeout(REQUEST_TIMEOUT).build();
    }

    private void setUpSubsetCapture(TributaryClient c, String table, String capture, String queue) {
        c.execute("CALL dbms_streams_adm.set_up_queue(queue_name => '" + queue + "')");
        c.execute("CALL dbms_streams_adm.add_subset_rules(table_name => '" + table + "', dml_condition => 'bucket < "
                + options.subsetPercent() + "', streams_type => 'capture', streams_name => '" + capture
                + "', queue_name => '" + queue + "')");
        c.execute("CALL dbms_capture_adm.start_capture(capture_name => '" + capture + "')");
    }

    /**
     * Waits until the newest CDC generation is in force (writes before it fail with "could not
     * find any CDC stream") and returns its streams, which the consumers follow.
     */
    private List<ByteBuffer> awaitGeneration(TributaryClient client) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            List<GenerationInfo> gens = client.changes().generations();
            if (!gens.isEmpty()) {
                GenerationInfo newest = gens.get(0);
                long wait = newest.timestamp().toEpochMilli() - System.currentTimeMillis();
                if (wait <= 0) {
                    List<ByteBuffer> streams = new ArrayList<>();
                    for (GenerationInfo.VnodeStreams v : newest.vnodes()) {
                        streams.addAll(v.streams());
                    }
                    return streams;
                }
                Thread.sleep(Math.min(wait + 20, 1_000));
            } else {
                Thread.sleep(100);
            }
            if (System.nanoTime() > deadline) {
                throw new BenchFailedException("no CDC generation came into force within 60 s");
            }
        }
    }

    /**
     * Waits until the table takes writes: a keyspace of factor R is refused its writes while the
     * nodes' replica groups grow to R members, which on a loaded machine outlasts the SDK's own
     * retries. The probe deletes a row that does not exist, which logs nothing.
     */
    private void awaitWritable(TributaryClient client, String table) {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (true) {
            try {
                client.execute("DELETE FROM " + table + " WHERE pk = -1");
                return;
            } catch (dev.tributary.client.errors.UnavailableException e) {
                if (System.nanoTime() > deadline) {
                    throw new BenchFailedException("table " + table + " took no write within 120 s: " + e.getMessage(), e);
                }
                // the client waited out its own retries: ask again
            }
        }
    }

    /** Waits until {@code count} reaches {@code expected}; returns System.nanoTime() of the last LCR. */
    private long awaitDelivered(java.util.function.LongSupplier count, long expected, List<LogFollower> followers,
            String what) throws InterruptedException {
        long last = count.getAsLong();
        long lastChange = System.nanoTime();
        while (count.getAsLong() < expected) {
            for (LogFollower f : followers) {
                if (f.failure() != null) {
                    throw new BenchFailedException("a consumer failed reading the CDC log: " + f.failure(), f.failure());
                }
            }
            long now = count.getAsLong();
            if (now != last) {
                last = now;
                lastChange = System.nanoTime();
            } else if (System.nanoTime() - lastChange > STALL_TIMEOUT.toNanos()) {
                throw new BenchFailedException("the consumers received " + now + " of " + expected + " " + what
                        + " LCRs and nothing new for " + STALL_TIMEOUT.toSeconds() + " s");
            }
            Thread.sleep(2);
        }
        return System.nanoTime();
    }

    private CaptureReport.Subset awaitSubset(List<TributaryClient> clients, String capture, long startNanos)
            throws InterruptedException {
        long perPhase = BenchRows.subsetCount(options.rows(), options.subsetPercent());
        long warmup = BenchRows.subsetCount(options.rows() + options.warmupRows(), options.subsetPercent())
                - BenchRows.subsetCount(options.rows(), options.subsetPercent());
        long expected = (options.updates() ? 2 * perPhase : perPhase) + warmup;
        long enqueued = 0;
        long last = -1;
        long lastChange = System.nanoTime();
        while (true) {
            enqueued = 0;
            for (TributaryClient c : clients) {
                for (Row r : c.execute("SELECT capture_name, total_messages_enqueued FROM system_views.streams_capture")) {
                    if (capture.equalsIgnoreCase(r.getString("capture_name"))) {
                        enqueued += r.getLong("total_messages_enqueued");
                    }
                }
            }
            if (enqueued >= expected) {
                break;
            }
            if (enqueued != last) {
                last = enqueued;
                lastChange = System.nanoTime();
            } else if (System.nanoTime() - lastChange > STALL_TIMEOUT.toNanos()) {
                throw new BenchFailedException("the subset capture " + capture + " enqueued " + enqueued + " of " + expected
                        + " LCRs and nothing new for " + STALL_TIMEOUT.toSeconds() + " s");
            }
            Thread.sleep(50);
        }
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        return new CaptureReport.Subset(options.subsetPercent(), perPhase, enqueued - (expected - perPhase), seconds);
    }

    private CaptureReport.Memory memory(long heapPeakBytes) {
        if (options.inProcess()) {
            OptionalLong kb = ProcStatus.peakRssKb(ProcStatus.self());
            return new CaptureReport.Memory(kb.isPresent() ? kb.getAsLong() / 1024.0 : null, heapPeakBytes / 1048576.0,
                    Runtime.getRuntime().maxMemory() / 1048576.0,
                    "/proc/self/status VmHWM of the bench JVM (node and clients together)");
        }
        if (options.nodePid() != null) {
            OptionalLong kb = ProcStatus.peakRssKb(ProcStatus.of(options.nodePid()));
            return new CaptureReport.Memory(kb.isPresent() ? kb.getAsLong() / 1024.0 : null, null, null,
                    kb.isPresent() ? "/proc/" + options.nodePid() + "/status VmHWM" : "no /proc/" + options.nodePid() + "/status");
        }
        return new CaptureReport.Memory(null, null, null, "unknown: give --node-pid for a connected node's RSS");
    }

    private static StoreFootprint footprint(List<Path> stores) {
        long[] sums = new long[6];
        for (Path p : stores) {
            StoreFootprint f = StoreFootprint.scan(p);
            sums[0] += f.rowsBytes();
            sums[1] += f.redoBytes();
            sums[2] += f.cdcLogBytes();
            sums[3] += f.rowsKeys();
            sums[4] += f.redoKeys();
            sums[5] += f.cdcLogKeys();
        }
        return new StoreFootprint(sums[0], sums[1], sums[2], sums[3], sums[4], sums[5]);
    }

    private CaptureReport.Baseline baseline(Path parent, String table) {
        Path dir;
        try {
            Files.createDirectories(parent);
            dir = Files.createTempDirectory(parent, "tributary-baseline-");
        } catch (IOException e) {
            throw new BenchFailedException("cannot create the baseline directory in " + parent + ": " + e.getMessage(), e);
        }
        try {
            err.println("bench: baseline: the same records straight into RocksDB from one thread, "
                    + (options.durability() == Durability.BATCH ? "fsync per batch" : "no fsync") + ", in " + dir);
            RocksDbBaseline.Spec spec = new RocksDbBaseline.Spec(options.rows(), options.warmupRows(), options.rowBytes(), options.batch(),
                    options.durability(), options.updates(), options.numTokens(), SOURCE_DATABASE, "bench",
                    table.substring(table.indexOf('.') + 1));
            RocksDbBaseline.Result r = new RocksDbBaseline(spec).run(dir);
            err.printf(Locale.ROOT, "bench: baseline wrote %,d rows in %.2f s%n", r.rows(), r.seconds());
            StoreFootprint f = StoreFootprint.scan(dir.resolve("rocksdb"));
            return new CaptureReport.Baseline(r.rowsPerSecond(), r.seconds(), r.transactions(),
                    f.perRow(options.rows() + options.warmupRows()));
        } finally {
            InProcessCluster.deleteTree(dir);
        }
    }
}
