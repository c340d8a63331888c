package dev.tributary.node.write;

import dev.tributary.node.errors.InvalidRequestException;
import dev.tributary.node.storage.Keys;
import dev.tributary.node.storage.NodeStore;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import java.util.function.LongSupplier;
import dev.tributary.node.storage.StoreIterator;

/**
 * The idempotency keys of committed writes, each with the write's outcome, for a bounded window.
 * A key is looked up and recorded inside the write's own transaction on the committer thread: the
 * record goes into the same atomic batch as the rows and the redo, so a write and its key are
 * durable together (a node killed after the commit still knows the key when it restarts), and the
 * serial committer makes "look up, then apply and record" atomic for two copies of one request.
 *
 * <p>In {@code meta}: {@code idem/k/<key>} holds the outcome (commit SCN, expiry, transaction
 * id); {@code idem/e/<expiry><key>} orders the keys by expiry so {@link #purgeExpired} finds the
 * old ones without a scan of them all.
 */
public final class IdempotencyKeys {
    /** Longest key accepted (UTF-8 bytes); the SDK's are UUIDs. */
    public static final int MAX_KEY_BYTES = 256;
    private static final byte[] BY_KEY = Keys.meta("idem/k/");
    private static final byte[] BY_EXPIRY = Keys.meta("idem/e/");

    /** What the first execution of a key committed. */
    public record Outcome(long scn, String transactionId) {
    }

    private final long windowMillis;
    private final LongSupplier clockMillis;

    public IdempotencyKeys(long windowMillis, LongSupplier clockMillis) {
        this.windowMillis = windowMillis;
        this.clockMillis = clockMillis;
    }

    public long windowMillis() {
        return windowMillis;
    }

    /** Refuses a key that cannot be kept, before anything runs. */
    public static void check(String key) {
        if (key.getBytes(StandardCharsets.UTF_8).length > MAX_KEY_BYTES) {
            throw new InvalidRequestException("idempotency_key: at most " + MAX_KEY_BYTES + " bytes, got "
                    + key.getBytes(StandardCharsets.UTF_8).length);
        }
    }

    /** The outcome of an earlier execution of {@code key} still inside the window; on the committer thread. */
    public Optional<Outcome> lookup(TxContext ctx, String key) {
        byte[] v = ctx.get(NodeStore.Family.META, byKey(key));
        if (v == null) {
            return Optional.empty();
        }
        ByteBuffer b = ByteBuffer.wrap(v);
        long scn = b.getLong();
        long expires = b.getLong();
        if (expires <= clockMillis.getAsLong()) {
            return Optional.empty(); // past the window: a new write, as the contract says
        }
        byte[] tx = new byte[b.remaining()];
        b.get(tx);
        return Optional.of(new Outcome(scn, new String(tx, StandardCharsets.UTF_8)));
    }

    /** Records {@code key} with this transaction's outcome, in its batch. */
    public void record(TxContext ctx, String key) {
        byte[] old = ctx.get(NodeStore.Family.META, byKey(key));
        if (old != null) {
            ctx.delete(NodeStore.Family.META, byExpiry(ByteBuffer.wrap(old, 8, 8).getLong(), key)); // an expired one, reused
        }
        long expires = clockMillis.getAsLong() + windowMillis;
        byte[] tx = ctx.transactionId().getBytes(StandardCharsets.UTF_8);
        ctx.put(NodeStore.Family.META, byKey(key), ByteBuffer.allocate(16 + tx.length).putLong(ctx.scn()).putLong(expires)
                .put(tx).array());
        ctx.put(NodeStore.Family.META, byExpiry(expires, key), new byte[0]);
    }

    /**
     * Every key this node keeps, as stored ({@code idem/k/<key>} and its outcome): sent with the
     * rows of a range that moves to another node, so a retry reaching the new owner is known there.
     */
    public static void forEachKept(NodeStore store, java.util.function.BiConsumer<byte[], byte[]> entry) {
        try (StoreIterator it = store.iterator(NodeStore.Family.META)) {
            for (it.seek(BY_KEY); it.isValid() && Keys.hasPrefix(it.key(), BY_KEY); it.next()) {
                entry.accept(it.key(), it.value());
            }
        }
    }

    /**
     * Keeps a key another node sent (see {@link #forEachKept}) unless this node has it already:
     * the first outcome stays. In the receiving transaction's batch, with its expiry entry.
     */
    public static void adopt(TxContext ctx, byte[] storedKey, byte[] outcome) {
        if (!Keys.hasPrefix(storedKey, BY_KEY) || outcome.length < 16) {
            throw new InvalidRequestException("not an idempotency key entry");
        }
        if (ctx.get(NodeStore.Family.META, storedKey) != null) {
            return;
        }
        String key = new String(Arrays.copyOfRange(storedKey, BY_KEY.length, storedKey.length), StandardCharsets.UTF_8);
        ctx.put(NodeStore.Family.META, storedKey, outcome);
        ctx.put(NodeStore.Family.META, byExpiry(ByteBuffer.wrap(outcome, 8, 8).getLong(), key), new byte[0]);
    }

    /** Deletes up to {@code max} keys whose window is over; how many. A transaction of its own. */
    public int purgeExpired(TxContext ctx, int max) {
        long now = clockMillis.getAsLong();
        int n = 0;
        try (StoreIterator it = ctx.store().iterator(NodeStore.Family.META)) {
            for (it.seek(BY_EXPIRY); it.isValid() && n < max && Keys.hasPrefix(it.key(), BY_EXPIRY); it.next()) {
                byte[] k = it.key();
                long expires = ByteBuffer.wrap(k, BY_EXPIRY.length, 8).getLong();
                if (expires > now) {
                    break;
                }
                String key = new String(Arrays.copyOfRange(k, BY_EXPIRY.length + 8, k.length), StandardCharsets.UTF_8);
                ctx.delete(NodeStore.Family.META, k);
                ctx.delete(NodeStore.Family.META, byKey(key));
                n++;
            }
        }
        return n;
    }

    private static byte[] byKey(String key) {
        byte[] k = key.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(BY_KEY.length + k.length).put(BY_KEY).put(k).array();
    }

    private static byte[] byExpiry(long expires, String key) {
        byte[] k = key.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(BY_EXPIRY.length + 8 + k.length).put(BY_EXPIRY).putLong(expires).put(k).array();
    }
}
