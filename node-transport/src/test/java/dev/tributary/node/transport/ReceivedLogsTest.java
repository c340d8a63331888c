package dev.tributary.node.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import dev.tributary.capture.RedoSource;
import dev.tributary.capture.redo.ArchivedLogFile;
import dev.tributary.capture.redo.RedoCodec;
import dev.tributary.capture.redo.RedoEntry;
import dev.tributary.capture.redo.SessionInfo;
import dev.tributary.capture.redo.UnsupportedRedoFormatException;
import dev.tributary.node.errors.ErrorCode;
import dev.tributary.node.errors.TributaryException;
import dev.tributary.protocol.v1.LogChunk;
import dev.tributary.protocol.v1.LogId;
import dev.tributary.protocol.v1.LogReceipt;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReceivedLogsTest {
    private static byte[] log(int version, int thread, long sequence, long first, long next, long... scns) {
        List<byte[]> entries = new ArrayList<>();
        for (long scn : scns) {
            entries.add(RedoCodec.encode(new RedoEntry(scn, thread + "." + scn, null, new SessionInfo("u", 1, 0, thread),
                    List.of(), null)));
        }
        return new ArchivedLogFile(new ArchivedLogFile.Header(version, "SRC", thread, sequence, first, next, false, false),
                entries).encode();
    }

    private static LogId id(int thread, long sequence) {
        return LogId.newBuilder().setSourceDatabase("SRC").setThread(thread).setSequence(sequence).build();
    }

    private static int crc(byte[] b) {
        CRC32C c = new CRC32C();
        c.update(b);
        return (int) c.getValue();
    }

    /** Ships a whole file in chunks of {@code chunk} bytes from where the receiver is. */
    private static LogReceipt ship(ReceivedLogs logs, LogId id, byte[] file, int chunk) {
        LogReceipt r = logs.received(id);
        while (!r.getComplete()) {
            int from = (int) r.getReceivedBytes();
            int to = Math.min(file.length, from + chunk);
            LogChunk.Builder c = LogChunk.newBuilder().setLog(id).setOffset(from)
                    .setData(ByteString.copyFrom(file, from, to - from));
            if (to == file.length) {
                c.setLast(true).setTotalBytes(file.length).setCrc32C(crc(file));
            }
            r = logs.ship(c.build());
        }
        return r;
    }

    @Test
    @DisplayName("a transfer cut off resumes at the bytes kept, also after a restart; a chunk at another offset changes nothing")
    void resumes(@TempDir Path dir) {
        byte[] file = log(ArchivedLogFile.REDO_FORMAT_VERSION, 1, 1, 10, 20, 11, 12, 15);
        ReceivedLogs logs = new ReceivedLogs(dir);
        LogReceipt first = logs.ship(LogChunk.newBuilder().setLog(id(1, 1)).setOffset(0)
                .setData(ByteString.copyFrom(file, 0, 10)).build());
        assertEquals(10, first.getReceivedBytes());
        assertFalse(first.getComplete());
        assertEquals(10, logs.ship(LogChunk.newBuilder().setLog(id(1, 1)).setOffset(3)
                .setData(ByteString.copyFrom(file, 3, 5)).build()).getReceivedBytes(), "a stale chunk is ignored");
        ReceivedLogs restarted = new ReceivedLogs(dir);
        assertEquals(10, restarted.received(id(1, 1)).getReceivedBytes(), "the partial file survives a restart");
        assertTrue(ship(restarted, id(1, 1), file, 7).getComplete());
        assertEquals(1, new ReceivedLogs(dir).of("src").size(), "listed after a restart too");
    }

    @Test
    @DisplayName("a log whose CRC32C does not match is refused as damaged and shipped again from the start")
    void damaged(@TempDir Path dir) {
        byte[] file = log(ArchivedLogFile.REDO_FORMAT_VERSION, 1, 1, 10, 20, 11);
        ReceivedLogs logs = new ReceivedLogs(dir);
        TributaryException e = assertThrows(TributaryException.class, () -> logs.ship(LogChunk.newBuilder().setLog(id(1, 1))
                .setOffset(0).setData(ByteString.copyFrom(file)).setLast(true).setTotalBytes(file.length)
                .setCrc32C(crc(file) + 1).build()));
        assertEquals(ErrorCode.CORRUPTION, e.code());
        assertTrue(e.getMessage().contains("arrived damaged"), e.getMessage());
        assertEquals(0, logs.received(id(1, 1)).getReceivedBytes());
        assertTrue(logs.all().isEmpty());
    }

    @Test
    @DisplayName("CAP-DS-4: a log in a newer redo format version is refused, saying which versions this database reads")
    void newerFormat(@TempDir Path dir) {
        byte[] file = log(ArchivedLogFile.REDO_FORMAT_VERSION + 1, 1, 1, 10, 20, 11);
        ReceivedLogs logs = new ReceivedLogs(dir);
        UnsupportedRedoFormatException e = assertThrows(UnsupportedRedoFormatException.class, () -> ship(logs, id(1, 1), file, 1 << 20));
        assertTrue(e.getMessage().contains("redo format version " + (ArchivedLogFile.REDO_FORMAT_VERSION + 1)), e.getMessage());
        assertTrue(e.getMessage().contains("reads versions 1 to " + ArchivedLogFile.REDO_FORMAT_VERSION), e.getMessage());
        assertTrue(logs.all().isEmpty(), "nothing kept");
    }

    @Test
    @DisplayName("a source's threads merge in SCN order, only up to where every thread is received without a gap")
    void mergesThreads(@TempDir Path dir) {
        ReceivedLogs logs = new ReceivedLogs(dir);
        ship(logs, id(1, 1), log(1, 1, 1, 10, 20, 11, 15), 64);
        ship(logs, id(2, 1), log(1, 2, 1, 10, 14, 12, 13), 64);
        ship(logs, id(1, 3), log(1, 1, 3, 30, 40, 31), 64); // sequence 2 of thread 1 is missing
        RedoSource src = logs.source("src");
        assertEquals(13, src.completeThrough(), "thread 2 is received through SCN 13");
        assertEquals(List.of(11L, 12L, 13L), src.readAfter(0, 100).stream().map(RedoEntry::scn).toList());
        ship(logs, id(2, 2), log(1, 2, 2, 14, 50, 16, 45), 64);
        assertEquals(19, src.completeThrough(), "now thread 1's gap after SCN 19 bounds it");
        assertEquals(List.of(15L, 16L), src.readAfter(13, 100).stream().map(RedoEntry::scn).toList());
        ship(logs, id(1, 2), log(1, 1, 2, 20, 30, 25), 64);
        assertEquals(List.of(25L, 31L), src.readAfter(16, 100).stream().map(RedoEntry::scn).toList());
        assertEquals(List.of(25L), src.readAfter(16, 1).stream().map(RedoEntry::scn).toList(), "at most max");
    }

    @Test
    @DisplayName("CAP-RAC-1 CAP-DS-1 CAP-DS-7: a thread the source's newest log lists holds the merge back until its first log arrives, "
            + "though no log of it was received yet")
    void waitsForAListedThread(@TempDir Path dir) {
        ReceivedLogs logs = new ReceivedLogs(dir);
        int v = ArchivedLogFile.REDO_FORMAT_VERSION;
        byte[] one = new ArchivedLogFile(new ArchivedLogFile.Header(v, "SRC", 1, 1, 10, 40, false, false, List.of(1, 2)),
                List.of(RedoCodec.encode(new RedoEntry(31, "1.31", null, new SessionInfo("u", 1, 0, 1), List.of(), null))))
                .encode();
        ship(logs, id(1, 1), one, 64);
        RedoSource src = logs.source("src");
        assertEquals(Long.MIN_VALUE, src.completeThrough(), "thread 2 is listed and nothing of it arrived");
        assertEquals(List.of(), src.readAfter(0, 100));
        ship(logs, id(2, 1), log(v, 2, 1, 10, 35, 12), 64);
        assertEquals(34, src.completeThrough());
        assertEquals(List.of(12L, 31L), src.readAfter(0, 100).stream().map(RedoEntry::scn).toList(), "in SCN order, thread 2 first");
        assertEquals(List.of(1, 2), ArchivedLogFile.header(one, "log").threads(), "the list survives encoding");
    }

    @Test
    @DisplayName("purging deletes each thread's logs wholly at or below the SCN, files too, but keeps a thread's newest, "
            + "so the merge still knows how far every thread is received")
    void purge(@TempDir Path dir) throws Exception {
        ReceivedLogs logs = new ReceivedLogs(dir);
        ship(logs, id(1, 1), log(1, 1, 1, 10, 20, 11, 15), 64);
        ship(logs, id(1, 2), log(1, 1, 2, 20, 30, 25), 64);
        ship(logs, id(2, 1), log(1, 2, 1, 10, 14, 12, 13), 64);
        RedoSource src = logs.source("src");
        assertEquals(1, logs.purgeThrough("src", 24), "thread 1's first log; thread 2's only log is its newest: "
                + logs.all());
        assertEquals(List.of(2L, 1L), logs.all().stream().map(r -> r.header().sequence()).toList());
        assertEquals(13, src.completeThrough(), "thread 2's kept log still bounds the merge");
        ship(logs, id(2, 2), log(1, 2, 2, 14, 50, 16, 45), 64);
        assertEquals(List.of(16L, 25L), src.readAfter(13, 100).stream().map(RedoEntry::scn).toList());
        assertEquals(3, new ReceivedLogs(dir).all().size(), "the purged file is gone after a restart too");
    }
}
