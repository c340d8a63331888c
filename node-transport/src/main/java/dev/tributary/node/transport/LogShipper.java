package dev.tributary.node.transport;

import com.google.protobuf.ByteString;
import dev.tributary.capture.redo.ArchivedLogFile;
import dev.tributary.node.capture.RedoSegments;
import dev.tributary.node.capture.RocksDbRedoLog;
import dev.tributary.node.coord.TransportSettings;
import dev.tributary.node.storage.Keys;
import dev.tributary.node.storage.NodeStore;
import dev.tributary.protocol.v1.LogChunk;
import dev.tributary.protocol.v1.LogId;
import dev.tributary.protocol.v1.LogReceipt;
import dev.tributary.protocol.v1.LogTransportServiceGrpc;
import io.grpc.StatusRuntimeException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Log transport's sending end on one node: every archived redo log of this node's thread goes to
 * every log archive destination, in sequence order, each at most once to completion (how far each
 * destination has got is kept in {@code meta} under {@code shipped/}). A transfer resumes at the
 * bytes the destination holds. The redo keeps a log until every destination has it
 * ({@link #requiredScn}). Runs on its own thread, every {@code periodMillis}.
 */
public final class LogShipper implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LogShipper.class);
    private static final int CHUNK_BYTES = 1 << 20;
    private static final long RPC_SECONDS = 30;

    private final NodeStore store;
    private final RedoSegments segments;
    private final RocksDbRedoLog redo;
    private final TransportSettings settings;
    private final String sourceDatabase;
    private final dev.tributary.node.net.Tls tls;
    private final LinkLogins logins;
    /** The last failure per destination, logged once until it changes. */
    private final Map<String, String> lastError = new HashMap<>();
    private final Thread thread;
    private final java.util.function.Supplier<List<Integer>> threads;
    private volatile Map<String, String> destinations = Map.of();

    /** @param threads the cluster's redo threads now, listed in each log shipped (may throw while unknowable) */
    public LogShipper(NodeStore store, RedoSegments segments, RocksDbRedoLog redo, TransportSettings settings,
            String sourceDatabase, long periodMillis, dev.tributary.node.net.Tls tls, LinkLogins logins,
            java.util.function.Supplier<List<Integer>> threads) {
        this.threads = threads;
        this.tls = tls;
        this.logins = logins;
        this.store = store;
        this.segments = segments;
        this.redo = redo;
        this.settings = settings;
        this.sourceDatabase = sourceDatabase.toUpperCase(java.util.Locale.ROOT);
        this.thread = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    shipAll();
                    Thread.sleep(periodMillis);
                } catch (InterruptedException e) {
                    return;
                } catch (RuntimeException e) {
                    LOG.warn("log transport failed; retrying", e);
                }
            }
        }, "tributary-log-transport");
        thread.setDaemon(true);
    }

    public void start() {
        refreshDestinations(); // before the first purge asks what to keep
        thread.start();
    }

    /**
     * Reads the destinations again. The purge asks {@link #requiredScn} from these, so a
     * destination set on this node is read here at once (by the statement itself), and one set
     * on another node within a round.
     */
    public Map<String, String> refreshDestinations() {
        Map<String, String> dests = settings.destinations();
        destinations = dests;
        return dests;
    }

    /** One round: every destination gets the archived logs it does not have yet. */
    void shipAll() {
        Map<String, String> dests = refreshDestinations();
        for (Map.Entry<String, String> d : dests.entrySet()) {
            settings.link(d.getValue()).ifPresent(link -> shipTo(d.getKey(), link));
        }
    }

    private byte[] shippedKey(String dest, String link) {
        return Keys.meta("shipped/" + dest + "/" + link);
    }

    private long shipped(String dest, String link) {
        byte[] v = store.get(NodeStore.Family.META, shippedKey(dest, link));
        return v == null ? 0 : ByteBuffer.wrap(v).getLong();
    }

    private void shipTo(String dest, TransportSettings.Link link) {
        long done = shipped(dest, link.name());
        for (RedoSegments.Segment s : segments.segments()) {
            if (!s.archived() || s.purged() || s.sequence() <= done) {
                continue;
            }
            try {
                ship(link, s);
            } catch (RuntimeException e) {
                String message = String.valueOf(e.getMessage());
                if (!message.equals(lastError.put(dest, message))) {
                    LOG.warn("{}: could not ship {} to database link {}: {}", dest, s.name(), link.name(), message);
                }
                return; // in order: the next round starts with this log again
            }
            store.put(NodeStore.Family.META, shippedKey(dest, link.name()),
                    ByteBuffer.allocate(8).putLong(s.sequence()).array(), true);
            lastError.remove(dest);
            LOG.info("{}: shipped {} (SCNs {} to {}) to database link {}", dest, s.name(), s.firstScn(), s.nextScn() - 1,
                    link.name());
        }
    }

    private void ship(TransportSettings.Link link, RedoSegments.Segment s) {
        byte[] file = new ArchivedLogFile(new ArchivedLogFile.Header(ArchivedLogFile.REDO_FORMAT_VERSION, sourceDatabase,
                s.thread(), s.sequence(), s.firstScn(), s.nextScn(), s.dictionaryBegin(), s.dictionaryEnd(), threads.get()),
                redo.rawRange(s.firstScn(), s.nextScn())).encode();
        CRC32C crc = new CRC32C();
        crc.update(file);
        LogId id = LogId.newBuilder().setSourceDatabase(sourceDatabase).setThread(s.thread()).setSequence(s.sequence()).build();
        RuntimeException failure = null;
        for (String endpoint : link.endpoints()) {
            LogTransportServiceGrpc.LogTransportServiceBlockingStub stub;
            try {
                stub = LogTransportServiceGrpc.newBlockingStub(logins.channel(link, endpoint, tls.channel(endpoint)));
            } catch (StatusRuntimeException e) {
                failure = e; // that endpoint is down or refused the link's login: the next one
                continue;
            }
            try {
                LogReceipt r = stub.withDeadlineAfter(RPC_SECONDS, TimeUnit.SECONDS).received(id);
                while (!r.getComplete()) {
                    int from = (int) r.getReceivedBytes();
                    if (from > file.length) {
                        throw new IllegalStateException("the destination holds " + from + " bytes of a " + file.length
                                + "-byte log");
                    }
                    int to = Math.min(file.length, from + CHUNK_BYTES);
                    LogChunk.Builder c = LogChunk.newBuilder().setLog(id).setOffset(from)
                            .setData(ByteString.copyFrom(file, from, to - from));
                    if (to == file.length) {
                        c.setLast(true).setTotalBytes(file.length).setCrc32C((int) crc.getValue());
                    }
                    r = stub.withDeadlineAfter(RPC_SECONDS, TimeUnit.SECONDS).ship(c.build());
                }
                return;
            } catch (StatusRuntimeException e) {
                if (e.getStatus().getCode() == io.grpc.Status.Code.UNAUTHENTICATED) {
                    logins.forget(link); // an expired or revoked token: the next round logs in again
                }
                failure = e; // that endpoint is down or refused: the next one
            }
        }
        throw failure == null ? new IllegalStateException("database link " + link.name() + " names no endpoint") : failure;
    }


    /**
     * The highest SCN every destination has received (what the redo may purge for log transport's
     * sake): below the first archived log some destination does not have yet; the online log is
     * never shipped before it is archived. {@link Long#MAX_VALUE} without destinations.
     */
    public long requiredScn() {
        long min = Long.MAX_VALUE;
        Map<String, String> dests = destinations;
        if (dests.isEmpty()) {
            return min;
        }
        List<RedoSegments.Segment> all = segments.segments();
        for (Map.Entry<String, String> d : dests.entrySet()) {
            long done = shipped(d.getKey(), d.getValue());
            for (RedoSegments.Segment s : all) {
                if (s.sequence() > done && !s.purged()) {
                    min = Math.min(min, s.firstScn() - 1);
                    break;
                }
            }
        }
        return min;
    }

    @Override
    public void close() throws InterruptedException {
        thread.interrupt();
        thread.join(10_000);
    }
}
