package dev.tributary.node.write;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.node.errors.ErrorCode;
import dev.tributary.node.errors.TributaryException;
import dev.tributary.node.storage.Keys;
import dev.tributary.node.storage.NodeStore;
import dev.tributary.node.time.HybridLogicalClock;
import dev.tributary.node.write.CommitPipeline.Committed;
import dev.tributary.node.write.CommitPipeline.SyncMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
class CommitPipelineTest {
    private static final int THREAD = 3;

    @TempDir
    Path dir;
    private NodeStore store;
    private CommitPipeline pipeline;
    private final AtomicLong wall = new AtomicLong(1_700_000_000_000L);
    private final List<String> events = Collections.synchronizedList(new ArrayList<>());

    private CommitPipeline open(SyncMode mode) {
        store = NodeStore.open(dir.resolve("rocksdb"));
        pipeline = new CommitPipeline(store, new HybridLogicalClock(wall::get), mode, 20, THREAD);
        return pipeline;
    }

    @AfterEach
    void close() {
        if (pipeline != null) {
            pipeline.close();
        }
        if (slowGroup != null) {
            slowGroup.applier.shutdownNow();
        }
        if (store != null) {
            store.close();
        }
    }

    private static byte[] key(String k) {
        return Keys.meta("test/" + k);
    }

    private static byte[] bytes(String v) {
        return v.getBytes(StandardCharsets.UTF_8);
    }

    private String read(String k) {
        byte[] v = store.get(NodeStore.Family.META, key(k));
        return v == null ? null : new String(v, StandardCharsets.UTF_8);
    }

    private static CommitPipeline.Transaction<String> put(String k, String v) {
        return ctx -> {
            ctx.put(NodeStore.Family.META, key(k), bytes(v));
            return k;
        };
    }

    /** A transaction that holds the committer until released, so later submissions queue up behind it. */
    private CommitPipeline.Transaction<String> blocker(CountDownLatch started, CountDownLatch release) {
        return ctx -> {
            started.countDown();
            try {
                assertTrue(release.await(30, TimeUnit.SECONDS));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return "blocker";
        };
    }

    @Test
    @DisplayName("transactions commit in submission order with increasing SCNs and ids made from them")
    void submissionOrder() throws Exception {
        open(SyncMode.BATCH);
        List<CompletableFuture<Committed<String>>> futures = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            if (i == 100) {
                wall.addAndGet(-5_000); // the wall clock steps back mid-way
            }
            futures.add(pipeline.submit(put("k" + i, "v" + i)));
        }
        long previous = Long.MIN_VALUE;
        for (int i = 0; i < futures.size(); i++) {
            Committed<String> c = futures.get(i).get(10, TimeUnit.SECONDS);
            assertTrue(c.scn() > previous, "transaction " + i);
            previous = c.scn();
            assertEquals(THREAD + "." + Long.toHexString(c.scn()), c.transactionId());
            assertEquals("k" + i, c.result());
            assertEquals("v" + i, read("k" + i));
        }
    }

    @Test
    @DisplayName("a transaction sees its own writes and deletes; afterWrite runs after its batch, before the next transaction")
    void transactionContext() {
        open(SyncMode.BATCH);
        pipeline.commit(put("a", "1"));
        Committed<Long> c = pipeline.commit(ctx -> {
            assertEquals("1", new String(ctx.get(NodeStore.Family.META, key("a")), StandardCharsets.UTF_8));
            ctx.put(NodeStore.Family.META, key("b"), bytes("2"));
            assertArrayEquals(bytes("2"), ctx.get(NodeStore.Family.META, key("b")));
            assertNull(read("b"), "not written before the transaction ends");
            ctx.delete(NodeStore.Family.META, key("a"));
            assertNull(ctx.get(NodeStore.Family.META, key("a")));
            ctx.afterWrite(() -> events.add("afterWrite sees b=" + read("b")));
            return ctx.scn();
        });
        pipeline.commit(ctx -> events.add("next"));
        assertEquals(List.of("afterWrite sees b=2", "next"), events);
        assertEquals(c.scn(), (long) c.result());
        assertNull(read("a"));
        assertEquals("2", read("b"));
    }

    @Test
    @DisplayName("a failing transaction writes nothing and does not affect the next")
    void failingTransaction() throws Exception {
        open(SyncMode.BATCH);
        IllegalStateException boom = new IllegalStateException("boom");
        CompletableFuture<Committed<Object>> failed = pipeline.submit(ctx -> {
            ctx.put(NodeStore.Family.META, key("partial"), bytes("x"));
            throw boom;
        });
        CompletableFuture<Committed<Object>> error = pipeline.submit(ctx -> {
            ctx.put(NodeStore.Family.META, key("partial2"), bytes("x"));
            throw new AssertionError("an Error in a body");
        });
        CompletableFuture<Committed<String>> next = pipeline.submit(ctx -> {
            assertNull(ctx.get(NodeStore.Family.META, key("partial")));
            ctx.put(NodeStore.Family.META, key("after"), bytes("y"));
            return "ok";
        });
        ExecutionException e = assertThrows(ExecutionException.class, () -> failed.get(10, TimeUnit.SECONDS));
        assertSame(boom, e.getCause());
        ExecutionException e2 = assertThrows(ExecutionException.class, () -> error.get(10, TimeUnit.SECONDS));
        assertTrue(e2.getCause() instanceof AssertionError);
        assertEquals("ok", next.get(10, TimeUnit.SECONDS).result());
        assertNull(read("partial"));
        assertNull(read("partial2"));
        assertEquals("y", read("after"));
        assertSame(boom, assertThrows(IllegalStateException.class, () -> pipeline.commit(ctx -> {
            throw boom;
        })), "commit() rethrows the body's exception as it was");
        assertEquals("still", pipeline.commit(ctx -> "still").result());
    }

    @Test
    @DisplayName("BATCH mode acknowledges a group only after every transaction of it is written; then the commit listeners run")
    void batchGroupCommit() throws Exception {
        open(SyncMode.BATCH);
        // once after the blocker's group, once after the group of five
        CountDownLatch listened = new CountDownLatch(2);
        pipeline.addCommitListener(() -> {
            events.add("listener");
            listened.countDown();
        });
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Committed<String>> first = pipeline.submit(blocker(started, release));
        assertTrue(started.await(10, TimeUnit.SECONDS));
        List<CompletableFuture<Committed<String>>> group = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            int n = i;
            CompletableFuture<Committed<String>> f = pipeline.submit(ctx -> {
                events.add("body" + n);
                return "t" + n;
            });
            f.whenComplete((c, t) -> events.add("ack" + n));
            group.add(f);
        }
        release.countDown();
        // the five were all queued while the blocker ran, so the committer takes them as one group.
        // Wait for that group's listener, not on the futures: a thread waiting in get() may run a
        // completed future's callbacks itself, recording an "ack" when it woke rather than when the
        // committer acknowledged (and a transaction submitted now could join the group)
        assertTrue(listened.await(10, TimeUnit.SECONDS), "the listener after the group of five");
        assertTrue(first.isDone());
        for (CompletableFuture<Committed<String>> f : group) {
            assertTrue(f.isDone(), "a transaction of the group was not acknowledged before its listener ran");
        }
        List<String> seen = new ArrayList<>(events);
        int body1 = seen.indexOf("body1");
        assertEquals(List.of("listener", "body1", "body2", "body3", "body4", "body5", "ack1", "ack2", "ack3", "ack4",
                "ack5", "listener"), seen.subList(body1 - 1, body1 + 11));
    }

    @Test
    @DisplayName("PERIODIC mode acknowledges when written and keeps every committed write")
    void periodicMode() throws Exception {
        open(SyncMode.PERIODIC);
        assertEquals(SyncMode.PERIODIC, pipeline.mode());
        AtomicInteger listened = new AtomicInteger();
        pipeline.addCommitListener(listened::incrementAndGet);
        List<CompletableFuture<Committed<String>>> futures = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            futures.add(pipeline.submit(put("p" + i, "v" + i)));
        }
        for (CompletableFuture<Committed<String>> f : futures) {
            f.get(10, TimeUnit.SECONDS);
        }
        Thread.sleep(60); // a few sync periods pass without harm
        pipeline.commit(put("last", "v"));
        assertTrue(listened.get() >= 1);
        pipeline.close();
        pipeline = null;
        store.close();
        store = NodeStore.open(dir.resolve("rocksdb"));
        for (int i = 0; i < 50; i++) {
            assertEquals("v" + i, read("p" + i), "reopened store keeps p" + i);
        }
        assertEquals("v", read("last"));
    }

    @Test
    @DisplayName("a failing commit listener neither fails the group nor stops the other listeners")
    void failingListener() throws InterruptedException {
        open(SyncMode.BATCH);
        pipeline.addCommitListener(() -> {
            throw new IllegalStateException("listener broke");
        });
        CountDownLatch second = new CountDownLatch(2);
        pipeline.addCommitListener(second::countDown);
        assertEquals("x", pipeline.commit(ctx -> "x").result());
        assertEquals("y", pipeline.commit(ctx -> "y").result());
        assertTrue(second.await(10, TimeUnit.SECONDS), "the listener after the failing one ran for both groups");
    }

    @Test
    @DisplayName("close() commits the work queued before it, then refuses new work as UNAVAILABLE")
    void closeDrainsQueuedWork() throws Exception {
        open(SyncMode.BATCH);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Committed<String>> first = pipeline.submit(blocker(started, release));
        assertTrue(started.await(10, TimeUnit.SECONDS));
        List<CompletableFuture<Committed<String>>> queued = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            queued.add(pipeline.submit(put("q" + i, "v" + i)));
        }
        Thread closer = new Thread(pipeline::close, "test-closer");
        closer.start();
        // wait until close() has shut the door, then let the committer go on
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        TributaryException refused = null;
        while (refused == null && System.nanoTime() < deadline) {
            CompletableFuture<Committed<String>> probe = pipeline.submit(put("late", "x"));
            if (probe.isCompletedExceptionally()) {
                refused = (TributaryException) assertThrows(ExecutionException.class, probe::get).getCause();
            } else {
                queued.add(probe); // accepted before close(): it must be committed too
                Thread.sleep(1);
            }
        }
        assertEquals(ErrorCode.UNAVAILABLE, refused.code());
        release.countDown();
        closer.join(20_000);
        assertTrue(!closer.isAlive(), "close() returned");
        first.get(1, TimeUnit.SECONDS);
        for (CompletableFuture<Committed<String>> f : queued) {
            assertTrue(f.isDone() && !f.isCompletedExceptionally(), "queued work was committed");
        }
        for (int i = 0; i < 50; i++) {
            assertEquals("v" + i, read("q" + i));
        }
        pipeline = null;
    }

    @Test
    void fullQueueIsUnavailable() throws Exception {
        open(SyncMode.BATCH);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        pipeline.submit(blocker(started, release));
        assertTrue(started.await(10, TimeUnit.SECONDS));
        CompletableFuture<Committed<String>> rejected = null;
        CompletableFuture<Committed<String>> lastAccepted = null;
        for (int i = 0; i < 10_000 && rejected == null; i++) {
            CompletableFuture<Committed<String>> f = pipeline.submit(ctx -> "queued");
            if (f.isCompletedExceptionally()) {
                rejected = f;
            } else {
                lastAccepted = f;
            }
        }
        TributaryException e = (TributaryException) assertThrows(ExecutionException.class, rejected::get).getCause();
        assertEquals(ErrorCode.UNAVAILABLE, e.code());
        assertTrue(e.getMessage().contains("queue full"), e.getMessage());
        release.countDown();
        assertEquals("queued", lastAccepted.get(30, TimeUnit.SECONDS).result());
        assertEquals("after", pipeline.commit(ctx -> "after").result());
    }

    // ---------------------------------------------------------------- commit groups on a replicated store

    /** What the replica group was asked to write: one entry per call. */
    private final List<byte[]> proposals = Collections.synchronizedList(new ArrayList<>());
    /** Fails the next proposal when set. */
    private volatile RuntimeException failNext;
    /** Holds each proposal until counted down (null: none held). */
    private volatile CountDownLatch proposalGate;
    /** Counted down when a proposal reaches the gate. */
    private final CountDownLatch held = new CountDownLatch(1);

    /** A replica's store whose group is itself: each proposal is applied at once, as a group of one applies its entries. */
    private CommitPipeline openReplicated() {
        java.util.concurrent.atomic.AtomicReference<NodeStore> self = new java.util.concurrent.atomic.AtomicReference<>();
        store = NodeStore.open(dir.resolve("replica"), data -> {
            CountDownLatch gate = proposalGate;
            if (gate != null) {
                held.countDown();
                try {
                    assertTrue(gate.await(30, TimeUnit.SECONDS));
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }
            RuntimeException fail = failNext;
            if (fail != null) {
                failNext = null;
                throw fail;
            }
            proposals.add(data);
            Proposing.apply(self.get(), data, proposals.size());
        });
        self.set(store);
        pipeline = new CommitPipeline(store, new HybridLogicalClock(wall::get), SyncMode.BATCH, 20, THREAD);
        return pipeline;
    }

    /** Adds one to the counter at {@code k}, reading it through the transaction context. */
    private static CommitPipeline.Transaction<Integer> increment(String k) {
        return ctx -> {
            byte[] v = ctx.get(NodeStore.Family.META, key(k));
            int next = (v == null ? 0 : Integer.parseInt(new String(v, StandardCharsets.UTF_8))) + 1;
            ctx.put(NodeStore.Family.META, key(k), bytes(String.valueOf(next)));
            return next;
        };
    }

    /** Holds the committer with a blocker, queues {@code txs} behind it, releases it: they form one group. */
    private List<CompletableFuture<Committed<Object>>> queuedAsOneGroup(List<CommitPipeline.Transaction<?>> txs,
            List<Boolean> grouped) throws InterruptedException {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        pipeline.submit(blocker(started, release));
        assertTrue(started.await(10, TimeUnit.SECONDS));
        List<CompletableFuture<Committed<Object>>> out = new ArrayList<>();
        for (int i = 0; i < txs.size(); i++) {
            @SuppressWarnings("unchecked")
            CommitPipeline.Transaction<Object> tx = (CommitPipeline.Transaction<Object>) txs.get(i);
            out.add(pipeline.submit(tx, grouped.get(i)));
        }
        release.countDown();
        return out;
    }

    @Test
    @DisplayName("grouped transactions on a replicated store share one proposal, each reading the writes of those before it")
    void groupedTransactionsShareOneProposal() throws Exception {
        openReplicated();
        List<CompletableFuture<Committed<Object>>> f = queuedAsOneGroup(
                List.of(increment("n"), increment("n"), increment("n"), increment("n"), increment("n")),
                List.of(true, true, true, true, true));
        for (int i = 0; i < 5; i++) {
            Committed<Object> c = f.get(i).get(10, TimeUnit.SECONDS);
            assertEquals(i + 1, c.result(), "transaction " + i + " read the group's earlier writes");
        }
        assertEquals(1, proposals.size(), "one Raft entry for the group");
        assertEquals("5", read("n"));
        wall.incrementAndGet(); // idle, the mark is just below the clock: the next SCN may take the clock's own value
        assertTrue(pipeline.redoCompleteThrough() >= f.get(4).get().scn());
    }

    @Test
    @DisplayName("a transaction outside groups finds the group so far written to the store before it runs; settle() does the same mid-body")
    void ungroupedTransactionAndSettleSeeTheStore() throws Exception {
        openReplicated();
        CommitPipeline.Transaction<String> readsStore = ctx -> read("n");
        CommitPipeline.Transaction<String> settles = ctx -> {
            ctx.settle();
            return read("n");
        };
        List<CompletableFuture<Committed<Object>>> f = queuedAsOneGroup(
                List.of(increment("n"), increment("n"), readsStore, increment("n"), settles, increment("n")),
                List.of(true, true, false, true, true, true));
        assertEquals("2", f.get(2).get(10, TimeUnit.SECONDS).result());
        assertEquals("3", f.get(4).get(10, TimeUnit.SECONDS).result());
        assertEquals(4, f.get(5).get(10, TimeUnit.SECONDS).result());
        // [n, n] before the ungrouped read, [n] at settle(), [n] at the end
        assertEquals(3, proposals.size());
        assertEquals("4", read("n"));
    }

    @Test
    @DisplayName("a proposal that fails fails every transaction of its group, also one that wrote nothing; the next group goes on")
    void failedProposalFailsTheWholeGroup() throws Exception {
        openReplicated();
        pipeline.commitInGroup(increment("n"));
        TributaryException lost = new TributaryException(ErrorCode.UNAVAILABLE, "no majority");
        failNext = lost;
        CommitPipeline.Transaction<Integer> readsOnly = ctx -> Integer.parseInt(new String(ctx.get(NodeStore.Family.META, key("n")),
                StandardCharsets.UTF_8));
        List<CompletableFuture<Committed<Object>>> f = queuedAsOneGroup(List.of(increment("n"), increment("n"), readsOnly),
                List.of(true, true, true));
        for (CompletableFuture<Committed<Object>> member : f) {
            ExecutionException e = assertThrows(ExecutionException.class, () -> member.get(10, TimeUnit.SECONDS));
            assertSame(lost, e.getCause());
        }
        assertEquals("1", read("n"), "nothing of the failed group is in the store");
        assertEquals(2, pipeline.commitInGroup(increment("n")).result(), "the next transaction reads the store, not the lost group");
    }

    @Test
    @DisplayName("while a group's proposal is in flight the capture's mark stays below its SCNs, and the SCN lock is free")
    void groupInFlightIsNotComplete() throws Exception {
        openReplicated();
        long before = pipeline.commitInGroup(increment("n")).scn();
        CountDownLatch gate = new CountDownLatch(1);
        proposalGate = gate;
        CompletableFuture<Committed<Integer>> inFlight = pipeline.submit(increment("n"), true);
        assertTrue(held.await(10, TimeUnit.SECONDS));
        long mark = pipeline.redoCompleteThrough(); // returns at once: the round does not hold the SCN lock
        assertTrue(mark >= before, "the first commit is complete");
        assertTrue(!inFlight.isDone());
        gate.countDown();
        long scn = inFlight.get(10, TimeUnit.SECONDS).scn();
        assertTrue(mark < scn, "the mark did not pass the SCN of the group in flight");
        wall.incrementAndGet();
        assertTrue(pipeline.redoCompleteThrough() >= scn);
    }

    // ---------------------------------------------------------------- pipelined rounds

    private SlowGroupOfOne slowGroup;

    /**
     * A group of one whose rounds take time: each proposal is applied on a thread of its own, in
     * the order proposed, as Ratis' state machine applies entries, once {@link #gate} opens. The
     * proposals numbered {@code failFirst..failLast} fail instead (a leader stepping down fails
     * its pending entries), and nothing of them is applied.
     */
    private final class SlowGroupOfOne extends Proposing {
        final java.util.concurrent.ExecutorService applier = java.util.concurrent.Executors.newSingleThreadExecutor();
        final AtomicInteger proposed = new AtomicInteger();
        volatile CountDownLatch gate = new CountDownLatch(0);
        volatile int failFirst = -1;
        volatile int failLast = -1;
        volatile NodeStore store;


        @Override
        public CompletableFuture<Void> propose(byte[] batchData) {
            int n = proposed.incrementAndGet();
            CountDownLatch g = gate;
            return CompletableFuture.runAsync(() -> {
                try {
                    assertTrue(g.await(30, TimeUnit.SECONDS));
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                if (n >= failFirst && n <= failLast) {
                    throw new TributaryException(ErrorCode.UNAVAILABLE, "proposal " + n + ": leader stepped down");
                }
                proposals.add(batchData);
                Proposing.apply(store, batchData, n);
            }, applier);
        }
    }

    private CommitPipeline openSlowReplicated() {
        slowGroup = new SlowGroupOfOne();
        store = NodeStore.open(dir.resolve("replica"), slowGroup);
        slowGroup.store = store;
        pipeline = new CommitPipeline(store, new HybridLogicalClock(wall::get), SyncMode.BATCH, 20, THREAD);
        return pipeline;
    }

    /** Waits (at most 10 s) until {@code n} proposals were made. */
    private void awaitProposals(int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (slowGroup.proposed.get() < n) {
            assertTrue(System.nanoTime() < deadline, "only " + slowGroup.proposed.get() + " of " + n + " proposals were made");
            Thread.onSpinWait();
        }
    }

    @Test
    @DisplayName("group n+1 is built on n's writes and proposed while n's round is in flight; both are acknowledged, and the mark passes them, in order")
    void nextGroupIsProposedWhileTheRoundIsInFlight() throws Exception {
        openSlowReplicated();
        long before = pipeline.commitInGroup(increment("n")).scn();
        slowGroup.gate = new CountDownLatch(1);
        List<Integer> acknowledged = Collections.synchronizedList(new ArrayList<>());
        List<CompletableFuture<Committed<Integer>>> f = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            int member = i;
            CompletableFuture<Committed<Integer>> c = pipeline.submit(increment("n"), true);
            c.thenRun(() -> acknowledged.add(member));
            f.add(c);
            awaitProposals(2 + i); // each one a group of its own, proposed while the ones before it are held
        }
        assertEquals(4, slowGroup.proposed.get());
        assertTrue(f.stream().noneMatch(CompletableFuture::isDone), "nothing acknowledged before its round is applied");
        assertEquals("1", read("n"), "the store has none of the groups in flight");
        long mark = pipeline.redoCompleteThrough(); // returns at once: no round holds the SCN lock
        assertTrue(mark >= before, "the first commit is complete");
        slowGroup.gate.countDown();
        for (int i = 0; i < 3; i++) {
            assertEquals(i + 2, f.get(i).get(10, TimeUnit.SECONDS).result(), "group " + i + " read the writes of the rounds in flight before it");
            assertTrue(mark < f.get(i).get().scn(), "the mark had not passed a group in flight");
        }
        assertEquals(List.of(0, 1, 2), acknowledged);
        assertEquals("4", read("n"));
        wall.incrementAndGet();
        assertTrue(pipeline.redoCompleteThrough() >= f.get(2).get().scn());
    }

    @Test
    @DisplayName("when a round fails, the groups proposed or built on its writes fail with it, nothing of them is acknowledged or marked durable, and the next write reads the store")
    void laterGroupsFailWithTheRoundTheyReadFrom() throws Exception {
        openSlowReplicated();
        long before = pipeline.commitInGroup(increment("n")).scn();
        slowGroup.gate = new CountDownLatch(1);
        slowGroup.failFirst = 2;
        slowGroup.failLast = 3;
        CompletableFuture<Committed<Integer>> failing = pipeline.submit(increment("n"), true);
        awaitProposals(2);
        CompletableFuture<Committed<Integer>> built = pipeline.submit(increment("n"), true);
        awaitProposals(3);
        long markWhileHeld = pipeline.redoCompleteThrough();
        slowGroup.gate.countDown();
        ExecutionException first = assertThrows(ExecutionException.class, () -> failing.get(10, TimeUnit.SECONDS));
        assertTrue(first.getCause().getMessage().contains("proposal 2: leader stepped down"), first.getCause().getMessage());
        ExecutionException second = assertThrows(ExecutionException.class, () -> built.get(10, TimeUnit.SECONDS));
        TributaryException e = (TributaryException) second.getCause();
        assertEquals(ErrorCode.UNAVAILABLE, e.code());
        assertTrue(e.getMessage().contains("earlier commit group"), e.getMessage());
        assertEquals("1", read("n"), "nothing of either group is in the store");
        assertTrue(markWhileHeld >= before);
        assertEquals(markWhileHeld, pipeline.redoCompleteThrough(), "the mark does not pass a failed round: its entry may still commit");
        assertEquals(2, pipeline.commitInGroup(increment("n")).result(), "the next group reads the store, not the failed ones");
        assertEquals("2", read("n"));
    }

    @Test
    @DisplayName("a round refused at once while the next one is accepted: the next entry, built on the refused one's writes, "
            + "is applied nowhere, and its clients are told it was not applied")
    void anEntryBuiltOnARefusedRoundIsNotApplied() throws Exception {
        openSlowReplicated();
        pipeline.commitInGroup(increment("n"));
        slowGroup.gate = new CountDownLatch(1);
        slowGroup.failFirst = 2; // refused, never in the log (Ratis' pending-request limits) ...
        slowGroup.failLast = 2; // ... while proposal 3 is accepted and committed
        CompletableFuture<Committed<Integer>> refused = pipeline.submit(increment("n"), true);
        awaitProposals(2);
        CompletableFuture<Committed<Integer>> builtOnIt = pipeline.submit(increment("n"), true);
        awaitProposals(3); // read n = 2 through the refused group's overlay, wrote 3
        slowGroup.gate.countDown();
        ExecutionException first = assertThrows(ExecutionException.class, () -> refused.get(10, TimeUnit.SECONDS));
        assertTrue(first.getCause().getMessage().contains("proposal 2"), first.getCause().getMessage());
        ExecutionException second = assertThrows(ExecutionException.class, () -> builtOnIt.get(10, TimeUnit.SECONDS));
        TributaryException e = (TributaryException) second.getCause();
        assertEquals(ErrorCode.UNAVAILABLE, e.code());
        slowGroup.applier.submit(() -> { }).get(10, TimeUnit.SECONDS); // every entry of the log is applied (or skipped)
        assertEquals("1", read("n"), "the entry built on the refused one left nothing in the store");
        assertTrue(e.notApplied(), "its clients may be told it was not applied: " + e.getMessage());
        assertEquals(2, pipeline.commitInGroup(increment("n")).result(), "the next group is built on the store");
        assertEquals("2", read("n"));
    }

    @Test
    @DisplayName("a transaction that would take its group's entry past the limit starts the next group, reading the one before through its overlay")
    void groupEntryStaysUnderTheLimit() throws Exception {
        openReplicated();
        int third = CommitPipeline.MAX_GROUP_BYTES / 3 + 1024; // three of these are over the limit, two are not
        CommitPipeline.Transaction<Integer> large = ctx -> {
            int next = increment("n").apply(ctx);
            ctx.put(NodeStore.Family.META, key("blob" + next), new byte[third]);
            return next;
        };
        List<CompletableFuture<Committed<Object>>> f = queuedAsOneGroup(List.of(large, large, large), List.of(true, true, true));
        for (int i = 0; i < 3; i++) {
            assertEquals(i + 1, f.get(i).get(10, TimeUnit.SECONDS).result());
        }
        assertEquals(2, proposals.size(), "two entries: [1, 2] and [3]");
        for (byte[] entry : proposals) {
            assertTrue(entry.length <= CommitPipeline.MAX_GROUP_BYTES, entry.length + " bytes in one entry");
        }
        assertEquals("3", read("n"));
    }
    // ---------------------------------------------------------------- a failed round whose entry still commits

    /** A test replica group whose plain write is a proposal awaited, as a Raft round is. */
    private abstract static class Proposing implements NodeStore.Replicator {
        /**
         * Applies the {@code n}th entry of the log as a replica does (GroupStateMachine), with its
         * proposer's answer (RaftHost): an entry built on a group the store does not hold is
         * skipped, and its round fails as not applied.
         */
        static void apply(NodeStore store, byte[] entry, int n) {
            if (!store.applyEntry(entry, NodeStore.Family.META, key("applied"), bytes(String.valueOf(n)))) {
                throw TributaryException.beforeApplying(ErrorCode.UNAVAILABLE, "entry " + n + " of group "
                        + NodeStore.groupOf(entry) + " was not applied: the store's last group is " + store.lastAppliedGroup());
            }
        }

        @Override
        public void replicate(byte[] batchData) {
            try {
                propose(batchData).join();
            } catch (java.util.concurrent.CompletionException e) {
                throw (RuntimeException) e.getCause();
            }
        }
    }

    /**
     * A group's log as Raft keeps it on a leader cut from its majority: a proposal is appended at
     * once; while {@link #majority} is off its round waits, and {@link #timeOut} fails the rounds
     * waiting as Ratis' proposal timeout does, their entries left in the log; once the majority is
     * back every entry appended so far commits and is applied in order (a failed round's too).
     */
    private final class LeaderLog extends Proposing {
        final List<byte[]> entries = new ArrayList<>();
        final List<CompletableFuture<Void>> rounds = new ArrayList<>();
        int applied;
        volatile boolean majority = true;
        volatile NodeStore store;


        @Override
        public synchronized CompletableFuture<Void> propose(byte[] batchData) {
            entries.add(batchData);
            rounds.add(new CompletableFuture<>());
            if (majority) {
                commitAppended();
            }
            return rounds.get(rounds.size() - 1);
        }

        synchronized int appended() {
            return entries.size();
        }

        /** The rounds waiting fail; their entries stay in the log. */
        synchronized void timeOut() {
            for (CompletableFuture<Void> r : rounds) {
                r.completeExceptionally(new TributaryException(ErrorCode.UNAVAILABLE,
                        "no majority of its replicas acknowledged within 10000 ms"));
            }
        }

        /** The majority is back: everything appended commits, in order. */
        synchronized void heal() {
            majority = true;
            commitAppended();
        }

        private void commitAppended() {
            for (; applied < entries.size(); applied++) {
                try {
                    Proposing.apply(store, entries.get(applied), applied + 1);
                    rounds.get(applied).complete(null); // a round that already failed stays failed
                } catch (TributaryException skipped) {
                    rounds.get(applied).completeExceptionally(skipped);
                }
            }
        }

        /** Waits (at most 10 s) until {@code n} entries were appended. */
        void awaitAppended(int n) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (appended() < n) {
                assertTrue(System.nanoTime() < deadline, "only " + appended() + " of " + n + " entries were appended");
                Thread.onSpinWait();
            }
        }
    }

    private LeaderLog openLeaderLog() {
        LeaderLog log = new LeaderLog();
        store = NodeStore.open(dir.resolve("replica"), log);
        log.store = store;
        pipeline = new CommitPipeline(store, new HybridLogicalClock(wall::get), SyncMode.BATCH, 20, THREAD);
        return log;
    }

    /**
     * A write with an idempotency key, as WriteService applies one: a repeat of the key answers the
     * first outcome; a first execution writes a row of its own (named by its SCN) and keeps the key.
     */
    private static CommitPipeline.Transaction<String> idempotentWrite(IdempotencyKeys keys, String idempotencyKey) {
        return ctx -> {
            java.util.Optional<IdempotencyKeys.Outcome> first = keys.lookup(ctx, idempotencyKey);
            if (first.isPresent()) {
                return "repeat of " + first.get().transactionId();
            }
            ctx.put(NodeStore.Family.META, key("row/" + ctx.scn()), bytes(idempotencyKey));
            keys.record(ctx, idempotencyKey);
            return "applied";
        };
    }

    private int rowsWritten() {
        int n = 0;
        try (dev.tributary.node.storage.StoreIterator it = store.iterator(NodeStore.Family.META)) {
            byte[] prefix = key("row/");
            for (it.seek(prefix); it.isValid() && Keys.hasPrefix(it.key(), prefix); it.next()) {
                n++;
            }
        }
        return n;
    }

    private static void assertUnavailable(CompletableFuture<?> f) {
        ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(10, TimeUnit.SECONDS));
        assertEquals(ErrorCode.UNAVAILABLE, ((TributaryException) e.getCause()).code(), e.getCause().getMessage());
    }

    @Test
    @DisplayName("a write whose round timed out but whose entry is still in the log is not applied again by its retry on the same leader")
    void aRetryAfterAFailedRoundThatStillCommitsAppliesOnce() throws Exception {
        LeaderLog log = openLeaderLog();
        IdempotencyKeys keys = new IdempotencyKeys(600_000, wall::get);
        assertEquals("applied", pipeline.commitInGroup(idempotentWrite(keys, "before")).result());
        log.majority = false;
        CompletableFuture<Committed<String>> first = pipeline.submit(idempotentWrite(keys, "k332"), true);
        log.awaitAppended(2);
        log.timeOut();
        assertUnavailable(first);
        // the client retries with the same key at once and reaches the same instance: it still leads
        CompletableFuture<Committed<String>> retry = pipeline.submit(idempotentWrite(keys, "k332"), true);
        log.awaitAppended(3);
        log.timeOut();
        assertUnavailable(retry);
        log.heal();
        String answer = pipeline.commitInGroup(idempotentWrite(keys, "k332")).result();
        assertTrue(answer.startsWith("repeat of "), answer);
        assertEquals(2, rowsWritten(), "the row of 'before' and one of k332");
    }

    @Test
    @DisplayName("a group failed with an earlier round while its own entry is still in the log is not applied again by its retry")
    void aRetryOfALaterGroupFailedWithAnEarlierRoundAppliesOnce() throws Exception {
        LeaderLog log = openLeaderLog();
        IdempotencyKeys keys = new IdempotencyKeys(600_000, wall::get);
        assertEquals("applied", pipeline.commitInGroup(idempotentWrite(keys, "before")).result());
        log.majority = false;
        CompletableFuture<Committed<String>> n = pipeline.submit(idempotentWrite(keys, "k1"), true);
        log.awaitAppended(2);
        CompletableFuture<Committed<String>> later = pipeline.submit(idempotentWrite(keys, "k2"), true);
        log.awaitAppended(3); // proposed while the round before it is in flight, read through its overlay
        log.timeOut();
        assertUnavailable(n);
        assertUnavailable(later);
        CompletableFuture<Committed<String>> retry = pipeline.submit(idempotentWrite(keys, "k2"), true);
        log.awaitAppended(4);
        log.timeOut();
        assertUnavailable(retry);
        log.heal();
        for (String k : List.of("k1", "k2")) {
            String answer = pipeline.commitInGroup(idempotentWrite(keys, k)).result();
            assertTrue(answer.startsWith("repeat of "), k + ": " + answer);
        }
        assertEquals(3, rowsWritten(), "one row each of 'before', k1 and k2");
    }
}
