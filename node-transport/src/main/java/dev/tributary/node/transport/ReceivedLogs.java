package dev.tributary.node.transport;

import dev.tributary.capture.RedoSource;
import dev.tributary.capture.redo.ArchivedLogFile;
import dev.tributary.capture.redo.RedoCodec;
import dev.tributary.capture.redo.RedoEntry;
import dev.tributary.node.errors.ErrorCode;
import dev.tributary.node.errors.InvalidRequestException;
import dev.tributary.node.errors.StorageException;
import dev.tributary.protocol.v1.LogChunk;
import dev.tributary.protocol.v1.LogId;
import dev.tributary.protocol.v1.LogReceipt;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/**
 * The archived redo logs this node received from other databases by log transport (a downstream
 * database's standby logs): {@code <dir>/<SOURCE>/redo_<thread>_<sequence>.log}, written as
 * {@code .partial} while a transfer runs and renamed once the whole file arrived, its CRC32C
 * matched and its redo format is one this node reads. A transfer cut off resumes at the bytes
 * kept. Downstream captures mine them through {@link #source}. Thread-safe.
 */
public final class ReceivedLogs {
    private static final String SUFFIX = ".log";
    private static final String PARTIAL = ".partial";

    /** A received log, as archived_log lists it. */
    public record Received(ArchivedLogFile.Header header, Path file, long bytes, long receivedMillis) {
    }

    private final Path dir;
    /** source database → thread → sequence → log. */
    private final Map<String, Map<Integer, NavigableMap<Long, Received>>> logs = new TreeMap<>();
    /** Decoded entries of the logs read last (a capture reads a log many times, a batch at a time). */
    private final Map<Path, List<RedoEntry>> decoded = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Path, List<RedoEntry>> eldest) {
            return size() > 8;
        }
    };

    public ReceivedLogs(Path dir) {
        this.dir = dir;
        try {
            Files.createDirectories(dir);
            try (Stream<Path> sources = Files.list(dir)) {
                for (Path s : sources.filter(Files::isDirectory).toList()) {
                    try (Stream<Path> files = Files.list(s)) {
                        for (Path f : files.filter(p -> p.getFileName().toString().endsWith(SUFFIX)).toList()) {
                            ArchivedLogFile.Header h = ArchivedLogFile.header(Files.readAllBytes(f), f.toString());
                            index(new Received(h, f, Files.size(f), Files.getLastModifiedTime(f).toMillis()));
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new StorageException("could not read the received redo logs in " + dir + ": " + e, e);
        }
    }

    private void index(Received r) {
        logs.computeIfAbsent(r.header().sourceDatabase(), k -> new TreeMap<>())
                .computeIfAbsent(r.header().thread(), k -> new TreeMap<>()).put(r.header().sequence(), r);
    }

    private Path file(LogId id, String suffix) {
        String source = id.getSourceDatabase().toUpperCase(Locale.ROOT);
        if (!source.matches("[A-Z0-9_$#.-]+")) {
            throw new InvalidRequestException("source database name '" + id.getSourceDatabase() + "' is not a database name");
        }
        return dir.resolve(source).resolve(String.format("redo_%d_%06d%s", id.getThread(), id.getSequence(), suffix));
    }

    private Optional<Received> complete(LogId id) {
        return Optional.ofNullable(logs.getOrDefault(id.getSourceDatabase().toUpperCase(Locale.ROOT), Map.of())
                .getOrDefault(id.getThread(), new TreeMap<>()).get(id.getSequence()));
    }

    /** How much of a log this node holds. */
    public synchronized LogReceipt received(LogId id) {
        Optional<Received> done = complete(id);
        if (done.isPresent()) {
            return LogReceipt.newBuilder().setReceivedBytes(done.get().bytes()).setComplete(true).build();
        }
        Path partial = file(id, PARTIAL);
        try {
            return LogReceipt.newBuilder().setReceivedBytes(Files.exists(partial) ? Files.size(partial) : 0).build();
        } catch (IOException e) {
            throw new StorageException("could not read " + partial + ": " + e, e);
        }
    }

    /**
     * Appends a chunk at the offset this node reported (a chunk at another offset changes nothing:
     * the answer tells the sender where to go on). The last chunk completes the log if its length
     * and CRC32C match and its redo format is readable here; otherwise the partial file is
     * dropped and the error says why.
     */
    public synchronized LogReceipt ship(LogChunk c) {
        LogId id = c.getLog();
        LogReceipt now = received(id);
        if (now.getComplete() || c.getOffset() != now.getReceivedBytes()) {
            return now;
        }
        Path partial = file(id, PARTIAL);
        try {
            Files.createDirectories(partial.getParent());
            try (FileChannel ch = FileChannel.open(partial, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.APPEND)) {
                ByteBuffer b = c.getData().asReadOnlyByteBuffer();
                while (b.hasRemaining()) {
                    ch.write(b);
                }
                ch.force(true);
            }
            if (!c.getLast()) {
                return received(id);
            }
            byte[] bytes = Files.readAllBytes(partial);
            CRC32C crc = new CRC32C();
            crc.update(bytes);
            String what = "redo log " + String.format("redo_%d_%06d.log", id.getThread(), id.getSequence()) + " of "
                    + id.getSourceDatabase();
            if (bytes.length != c.getTotalBytes() || (int) crc.getValue() != c.getCrc32C()) {
                Files.delete(partial);
                throw new InvalidRequestException(ErrorCode.CORRUPTION, what + " arrived damaged (" + bytes.length + " of "
                        + c.getTotalBytes() + " bytes, CRC32C " + Integer.toHexString((int) crc.getValue()) + ", sent "
                        + Integer.toHexString(c.getCrc32C()) + "); it is shipped again");
            }
            ArchivedLogFile log;
            try {
                log = ArchivedLogFile.decode(bytes, what);
            } catch (RuntimeException e) {
                Files.delete(partial);
                throw e;
            }
            Path done = file(id, SUFFIX);
            try {
                Files.move(partial, done, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(partial, done);
            }
            index(new Received(log.header(), done, bytes.length, System.currentTimeMillis()));
            notifyAll();
            return received(id);
        } catch (IOException e) {
            throw new StorageException("could not write " + partial + ": " + e, e);
        }
    }

    /** Every received log, by source, thread and sequence. */
    public synchronized List<Received> all() {
        List<Received> out = new ArrayList<>();
        logs.values().forEach(t -> t.values().forEach(s -> out.addAll(s.values())));
        return out;
    }

    /** The source databases this node holds received logs of. */
    public synchronized List<String> sources() {
        return List.copyOf(logs.keySet());
    }

    /**
     * Deletes the received logs of a source that lie wholly at or below {@code scn} (no capture of
     * it will read them again): a prefix of each thread, since a thread's logs follow in SCN order,
     * but never a thread's newest log.
     *
     * @return how many logs were deleted
     */
    public synchronized int purgeThrough(String sourceDatabase, long scn) {
        int purged = 0;
        for (NavigableMap<Long, Received> thread : logs.getOrDefault(sourceDatabase.toUpperCase(Locale.ROOT), Map.of()).values()) {
            // a thread's newest log stays: it tells how far the thread is received, which the merge needs
            while (thread.size() > 1 && thread.firstEntry().getValue().header().nextScn() - 1 <= scn) {
                Received r = thread.pollFirstEntry().getValue();
                decoded.remove(r.file());
                try {
                    Files.deleteIfExists(r.file());
                } catch (IOException e) {
                    throw new StorageException("could not delete the received log " + r.file() + ": " + e, e);
                }
                purged++;
            }
        }
        return purged;
    }

    /** The received logs of one source database. */
    public synchronized List<Received> of(String sourceDatabase) {
        List<Received> out = new ArrayList<>();
        logs.getOrDefault(sourceDatabase.toUpperCase(Locale.ROOT), Map.of()).values().forEach(s -> out.addAll(s.values()));
        return out;
    }

    /**
     * Whether the logs of the source are received without a gap past {@code scn} and no
     * dictionary build begins at it (a build's log begins at the build's SCN).
     */
    public synchronized boolean passedWithoutBuild(String sourceDatabase, long scn) {
        String source = sourceDatabase.toUpperCase(Locale.ROOT);
        return receivedThrough(source) >= scn && logs.getOrDefault(source, Map.of()).values().stream()
                .flatMap(t -> t.values().stream()).noneMatch(r -> r.header().dictionaryBegin() && r.header().firstScn() == scn);
    }

    /**
     * The SCN through which every thread of the source is received without a gap: the lowest,
     * over its threads, of the end of the thread's first unbroken run of logs. The threads are
     * those received and those the newest log lists (the source's threads when it was archived):
     * a listed thread none of whose logs has arrived holds everything back, since its first log
     * may hold changes below any other thread's.
     */
    private long receivedThrough(String source) {
        Map<Integer, NavigableMap<Long, Received>> threads = logs.getOrDefault(source, Map.of());
        if (threads.isEmpty()) {
            return Long.MIN_VALUE;
        }
        Received newest = null;
        for (NavigableMap<Long, Received> t : threads.values()) {
            Received last = t.lastEntry().getValue();
            if (newest == null || last.header().nextScn() > newest.header().nextScn()) {
                newest = last;
            }
        }
        if (!threads.keySet().containsAll(newest.header().threads())) {
            return Long.MIN_VALUE;
        }
        long min = Long.MAX_VALUE;
        for (NavigableMap<Long, Received> t : threads.values()) {
            long through = Long.MIN_VALUE;
            long expected = t.firstKey();
            for (Received r : t.values()) {
                if (r.header().sequence() != expected) {
                    break;
                }
                through = r.header().nextScn() - 1;
                expected++;
            }
            min = Math.min(min, through);
        }
        return min;
    }

    private List<RedoEntry> entries(Received r) {
        List<RedoEntry> e = decoded.get(r.file());
        if (e == null) {
            try {
                ArchivedLogFile f = ArchivedLogFile.decode(Files.readAllBytes(r.file()), r.file().toString());
                e = new ArrayList<>(f.entries().size());
                for (byte[] b : f.entries()) {
                    e.add(RedoCodec.decode(b));
                }
            } catch (IOException ex) {
                throw new StorageException("could not read " + r.file() + ": " + ex, ex);
            }
            decoded.put(r.file(), e);
        }
        return e;
    }

    /**
     * The redo of one source database, as a downstream capture mines it: the entries of its
     * received logs, every thread merged in SCN order, up to where every thread is received (an
     * entry of one thread is not handed over while another thread may still bring a lower SCN).
     */
    public RedoSource source(String sourceDatabase) {
        String source = sourceDatabase.toUpperCase(Locale.ROOT);
        return new RedoSource() {
            @Override
            public List<RedoEntry> readAfter(long afterScn, int max) {
                synchronized (ReceivedLogs.this) {
                    long through = receivedThrough(source);
                    List<RedoEntry> out = new ArrayList<>();
                    for (NavigableMap<Long, Received> t : logs.getOrDefault(source, Map.of()).values()) {
                        for (Received r : t.values()) {
                            if (r.header().nextScn() - 1 <= afterScn || r.header().firstScn() > through) {
                                continue;
                            }
                            for (RedoEntry e : entries(r)) {
                                if (e.scn() > afterScn && e.scn() <= through) {
                                    out.add(e);
                                }
                            }
                        }
                    }
                    out.sort(java.util.Comparator.comparingLong(RedoEntry::scn));
                    return out.size() > max ? List.copyOf(out.subList(0, max)) : out;
                }
            }

            @Override
            public void awaitNewer(long afterScn, long timeoutMillis) throws InterruptedException {
                synchronized (ReceivedLogs.this) {
                    if (receivedThrough(source) <= afterScn) {
                        ReceivedLogs.this.wait(timeoutMillis);
                    }
                }
            }

            @Override
            public long completeThrough() {
                synchronized (ReceivedLogs.this) {
                    return receivedThrough(source);
                }
            }
        };
    }
}
