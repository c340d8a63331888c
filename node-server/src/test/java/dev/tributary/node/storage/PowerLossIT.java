package dev.tributary.node.storage;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.node.NodeProcess;
import dev.tributary.node.TestNodes;
import dev.tributary.node.kit.UniqueWriters;
import dev.tributary.protocol.v1.ChangeStreamServiceGrpc;
import dev.tributary.protocol.v1.Lcr;
import dev.tributary.protocol.v1.LcrBatch;
import dev.tributary.protocol.v1.NamedValue;
import dev.tributary.protocol.v1.SubscribeRequest;
import io.grpc.stub.StreamObserver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * RELIABILITY D3, power loss: the node's store keeps its WAL in the process until a sync (the test
 * kit's power-loss hook), each sync is held back 200 ms so a kill lands between a batch being
 * written and it being durable, and the node is killed with SIGKILL under writes with a live
 * consumer attached. What the consumer was handed must all survive: a change published before its
 * fsync would be in the consumer's hands and gone from the restarted node.
 */
@Timeout(300)
class PowerLossIT {
    private static final List<String> POWER_LOSS = List.of("-Dtributary.fault.powerLoss=true",
            "-Dtributary.fault.syncDelayMillis=200");

    @TempDir
    Path tmp;

    @Test
    @DisplayName("D3: a power loss under writes loses no acknowledged write and nothing a consumer was handed; "
            + "the recovered log holds each surviving write once")
    void consumersAreHandedOnlyDurableChanges() throws Exception {
        Path dir = tmp.resolve("node");
        Set<Integer> acked = ConcurrentHashMap.newKeySet();
        Set<Integer> received = ConcurrentHashMap.newKeySet();
        AtomicReference<Throwable> consumerFailed = new AtomicReference<>();
        try (NodeProcess node = NodeProcess.start(dir, 0, POWER_LOSS); TestNodes.Wire w = new TestNodes.Wire(node.endpoint())) {
            w.exec("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            w.exec("CREATE TABLE ks.t (pk int, ck int, v int, PRIMARY KEY (pk, ck)) WITH cdc = {'enabled': true}");
            long generation = w.exec("SELECT time FROM system_distributed.cdc_generation_timestamps").getRows(0).getValues(0)
                    .getTimestampMillis();
            TestNodes.await(() -> System.currentTimeMillis() >= generation, Duration.ofSeconds(10), "the first generation");
            ChangeStreamServiceGrpc.newStub(w.channel).subscribe(SubscribeRequest.newBuilder().setTable("ks.t").build(),
                    new StreamObserver<LcrBatch>() {
                        @Override
                        public void onNext(LcrBatch batch) {
                            for (Lcr lcr : batch.getLcrsList()) {
                                for (NamedValue v : lcr.getNewValuesList()) {
                                    if (v.getName().equals("ck")) {
                                        received.add((int) v.getValue().getInteger());
                                    }
                                }
                            }
                        }

                        @Override
                        public void onError(Throwable t) {
                            consumerFailed.compareAndSet(null, t); // the kill ends the call
                        }

                        @Override
                        public void onCompleted() {
                        }
                    });
            UniqueWriters writers = new UniqueWriters((pk, i) -> "INSERT INTO ks.t (pk, ck, v) VALUES (" + (pk % 50) + ", "
                    + pk + ", " + pk + ")");
            for (int t = 0; t < 4; t++) {
                writers.start(t, node.endpoint());
            }
            // every sync takes 200 ms, so at any moment writes are in the store's memory, not yet durable
            TestNodes.await(() -> writers.acked.size() >= 100 && received.size() >= 100, Duration.ofSeconds(60),
                    () -> "100 acknowledged and 100 consumed writes (acked " + writers.acked.size() + ", received "
                            + received.size() + ", consumer error " + consumerFailed.get() + ")");
            node.kill();
            writers.close(); // the writes in flight at the kill fail: they may or may not have committed
            acked.addAll(writers.acked);
        }
        Set<Integer> handed = Set.copyOf(received);
        int submitted = acked.size();
        try (NodeProcess node = NodeProcess.start(dir); TestNodes.Wire w = new TestNodes.Wire(node.endpoint())) {
            Set<Integer> survived = TestNodes.assertTableLoggedOnce(node, w, "ks.t", "ck", acked);
            assertTrue(survived.containsAll(handed), "the consumer was handed writes the power loss erased: "
                    + TestNodes.missing(handed, survived) + " (handed " + handed.size() + ", acknowledged " + submitted + ")");
        }
    }
}
