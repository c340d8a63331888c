package dev.tributary.node.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.node.errors.InvalidRequestException;
import dev.tributary.node.storage.NodeStore;
import dev.tributary.node.time.HybridLogicalClock;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Keys on a real RocksDB through the real committer, with the window's clock in the test's hand. */
class IdempotencyKeysTest {
    private final AtomicLong now = new AtomicLong(1_000_000);

    @Test
    void aKeyAnswersWithItsFirstCommitInsideTheWindowOnlyAndSurvivesAReopen(@TempDir Path dir) {
        IdempotencyKeys keys = new IdempotencyKeys(60_000, now::get);
        CommitPipeline.Committed<Optional<IdempotencyKeys.Outcome>> first;
        try (NodeStore store = NodeStore.open(dir.resolve("db"));
                CommitPipeline p = new CommitPipeline(store, new HybridLogicalClock(now::get), CommitPipeline.SyncMode.BATCH, 10, 1)) {
            first = p.commit(ctx -> {
                Optional<IdempotencyKeys.Outcome> o = keys.lookup(ctx, "k");
                keys.record(ctx, "k");
                return o;
            });
            assertTrue(first.result().isEmpty());
        }
        try (NodeStore store = NodeStore.open(dir.resolve("db"));
                CommitPipeline p = new CommitPipeline(store, new HybridLogicalClock(now::get), CommitPipeline.SyncMode.BATCH, 10, 1)) {
            IdempotencyKeys.Outcome o = p.commit(ctx -> keys.lookup(ctx, "k")).result().orElseThrow();
            assertEquals(first.scn(), o.scn());
            assertEquals(first.transactionId(), o.transactionId());

            now.addAndGet(59_999);
            assertEquals(0, p.commit(ctx -> keys.purgeExpired(ctx, 100)).result(), "not expired yet");
            assertTrue(p.commit(ctx -> keys.lookup(ctx, "k")).result().isPresent());
            now.addAndGet(1);
            assertTrue(p.commit(ctx -> keys.lookup(ctx, "k")).result().isEmpty(), "past the window: a new write");
            // reused after expiry: one expiry entry, the new one
            p.commit(ctx -> {
                keys.record(ctx, "k");
                return null;
            });
            now.addAndGet(60_000);
            assertEquals(1, p.commit(ctx -> keys.purgeExpired(ctx, 100)).result());
            assertEquals(0, p.commit(ctx -> keys.purgeExpired(ctx, 100)).result());
        }
    }

    @Test
    void purgeTakesAtMostItsBatchOldestFirst(@TempDir Path dir) {
        IdempotencyKeys keys = new IdempotencyKeys(10, now::get);
        try (NodeStore store = NodeStore.open(dir.resolve("db"));
                CommitPipeline p = new CommitPipeline(store, new HybridLogicalClock(now::get), CommitPipeline.SyncMode.BATCH, 10, 1)) {
            for (int i = 0; i < 5; i++) {
                String k = "k" + i;
                p.commit(ctx -> {
                    keys.record(ctx, k);
                    return null;
                });
                now.incrementAndGet();
            }
            now.addAndGet(100);
            assertEquals(3, p.commit(ctx -> keys.purgeExpired(ctx, 3)).result());
            assertEquals(2, p.commit(ctx -> keys.purgeExpired(ctx, 3)).result());
        }
    }

    @Test
    void aKeyTooLongIsRefused() {
        IdempotencyKeys.check("x".repeat(IdempotencyKeys.MAX_KEY_BYTES));
        InvalidRequestException e = assertThrows(InvalidRequestException.class,
                () -> IdempotencyKeys.check("é".repeat(IdempotencyKeys.MAX_KEY_BYTES / 2 + 1)));
        assertTrue(e.getMessage().contains("idempotency_key"), e.getMessage());
    }
}
