package dev.tributary.node.storage;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.node.NodeProcess;
import dev.tributary.node.TestNodes;
import dev.tributary.protocol.v1.CqlServiceGrpc;
import dev.tributary.protocol.v1.ExecuteRequest;
import dev.tributary.protocol.v1.ExecuteResponse;
import dev.tributary.protocol.v1.Row;
import dev.tributary.protocol.v1.SessionState;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.StatusRuntimeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * RELIABILITY S2, the crash oracle: random puts, deletes and batches against a node process, with
 * the state they must leave kept here, outside it; kill -9 at a random point, restart, and every
 * key must hold what was acknowledged — a key whose write was in flight at the kill holds its old
 * or its new value, nothing else. Seeded: the seed is printed, {@code -Dtributary.crash.seed}
 * replays the choices (the kill's timing still varies).
 */
@Timeout(600)
class CrashOracleIT {
    private static final int KEYS = 200;
    private static final int WRITERS = 2;
    private static final int ITERATIONS = Integer.getInteger("tributary.crash.iterations", 10);

    @TempDir
    Path tmp;

    /** What a key may hold: one value (acknowledged), or several while a write to it was in flight at a kill. */
    private final Map<Integer, Set<Integer>> expected = new ConcurrentHashMap<>();

    private static ExecuteResponse exec(CqlServiceGrpc.CqlServiceBlockingStub stub, String st) {
        return stub.withDeadlineAfter(30, TimeUnit.SECONDS).execute(ExecuteRequest.newBuilder().setStatement(st)
                .setSession(SessionState.newBuilder().setUsername("oracle")).build());
    }

    /** The value a key holds; -1 for none. */
    private Set<Integer> may(int key) {
        return expected.getOrDefault(key, Set.of(-1));
    }

    @Test
    @DisplayName("S2: random puts, deletes and batches, kill -9 at random points, 10 restarts: every key matches the "
            + "oracle, keys in flight hold their old or new value")
    void crashOracle() throws Exception {
        long seed = Long.getLong("tributary.crash.seed", System.nanoTime());
        System.out.println("CrashOracleIT seed " + seed + " (-Dtributary.crash.seed=" + seed + " replays)");
        Random random = new Random(seed);
        Path dir = tmp.resolve("node");
        Path oracleFile = tmp.resolve("expected-state.txt");
        int totalAcked = 0;
        for (int iteration = 0; iteration < ITERATIONS; iteration++) {
            try (NodeProcess node = NodeProcess.start(dir)) {
                ManagedChannel ch = ManagedChannelBuilder.forTarget(node.endpoint()).usePlaintext().build();
                CqlServiceGrpc.CqlServiceBlockingStub stub = CqlServiceGrpc.newBlockingStub(ch);
                if (iteration == 0) {
                    exec(stub, "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
                    exec(stub, "CREATE TABLE ks.t (pk int PRIMARY KEY, v int)");
                } else {
                    check(stub, seed, iteration);
                }
                int killAfter = 50 + random.nextInt(250);
                AtomicInteger acked = new AtomicInteger();
                AtomicBoolean killed = new AtomicBoolean();
                List<Throwable> unexpected = java.util.Collections.synchronizedList(new ArrayList<>());
                List<Thread> writers = new ArrayList<>();
                for (int w = 0; w < WRITERS; w++) {
                    Random mine = new Random(random.nextLong());
                    int writer = w;
                    Thread t = new Thread(() -> {
                        while (!killed.get()) {
                            // each writer has its own keys, so its operations on a key are in order
                            Map<Integer, Integer> op = new HashMap<>();
                            int size = mine.nextInt(4) == 0 ? 2 + mine.nextInt(4) : 1;
                            while (op.size() < size) {
                                int key = writer + WRITERS * mine.nextInt(KEYS / WRITERS);
                                op.put(key, mine.nextInt(5) == 0 ? -1 : mine.nextInt(1_000_000));
                            }
                            List<String> statements = new ArrayList<>();
                            op.forEach((k, v) -> statements.add(v < 0 ? "DELETE FROM ks.t WHERE pk = " + k
                                    : "INSERT INTO ks.t (pk, v) VALUES (" + k + ", " + v + ")"));
                            String text = statements.size() == 1 ? statements.get(0)
                                    : "BEGIN BATCH " + String.join("; ", statements) + "; APPLY BATCH";
                            // in flight: old or new
                            op.forEach((k, v) -> {
                                Set<Integer> both = new HashSet<>(may(k));
                                both.add(v);
                                expected.put(k, both);
                            });
                            try {
                                exec(stub, text);
                            } catch (StatusRuntimeException e) {
                                if (!killed.get()) {
                                    unexpected.add(new AssertionError("writer " + writer + ": " + text + " failed: " + e, e));
                                }
                                return; // the node died: these keys stay old-or-new
                            }
                            op.forEach((k, v) -> expected.put(k, Set.of(v)));
                            acked.incrementAndGet();
                        }
                    }, "oracle-writer-" + w);
                    t.start();
                    writers.add(t);
                }
                TestNodes.await(() -> acked.get() >= killAfter || !unexpected.isEmpty(), Duration.ofSeconds(120),
                        () -> killAfter + " acknowledged operations");
                killed.set(true);
                node.kill();
                for (Thread t : writers) {
                    t.join(30_000);
                }
                ch.shutdownNow();
                assertTrue(unexpected.isEmpty(), "seed " + seed + ": " + unexpected);
                totalAcked += acked.get();
                Files.writeString(oracleFile, expected.toString()); // for a failure's post-mortem
            }
        }
        try (NodeProcess node = NodeProcess.start(dir)) {
            ManagedChannel ch = ManagedChannelBuilder.forTarget(node.endpoint()).usePlaintext().build();
            check(CqlServiceGrpc.newBlockingStub(ch), seed, ITERATIONS);
            ch.shutdownNow();
        }
        System.out.println("CrashOracleIT: " + ITERATIONS + " kills, " + totalAcked + " acknowledged operations, "
                + expected.size() + " keys checked after each restart");
    }

    /** Compares the table with the oracle, then settles each in-flight key to what the node kept. */
    private void check(CqlServiceGrpc.CqlServiceBlockingStub stub, long seed, int iteration) {
        Map<Integer, Integer> actual = new HashMap<>();
        for (Row r : exec(stub, "SELECT pk, v FROM ks.t").getRowsList()) {
            actual.put((int) r.getValues(0).getInteger(), (int) r.getValues(1).getInteger());
        }
        List<String> wrong = new ArrayList<>();
        for (int key = 0; key < KEYS; key++) {
            int holds = actual.getOrDefault(key, -1);
            if (!may(key).contains(holds)) {
                wrong.add("pk " + key + " holds " + holds + ", expected one of " + may(key));
            } else {
                expected.put(key, Set.of(holds));
            }
        }
        assertTrue(wrong.isEmpty(), "seed " + seed + ", after kill " + iteration + ": " + wrong);
    }
}
