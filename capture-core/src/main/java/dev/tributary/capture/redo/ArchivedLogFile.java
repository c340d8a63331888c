package dev.tributary.capture.redo;

import dev.tributary.dictionary.io.BinaryReader;
import dev.tributary.dictionary.io.BinaryWriter;
import dev.tributary.dictionary.io.CorruptRecordException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * An archived redo log as log transport ships it and a downstream database keeps it: which
 * database, thread and sequence it is, the SCNs it covers [first_change#, next_change#), whether
 * a dictionary build begins or ends in it, and its redo entries in SCN order. The file starts
 * with a magic and the redo format version (CAP-DS-4: a downstream database refuses a version it
 * cannot read, saying so, rather than misreading it) and ends with a CRC32C of everything before.
 */
public record ArchivedLogFile(Header header, List<byte[]> entries) {
    /**
     * The redo format this code writes, and the newest it reads: 2 since redo entries carry a
     * CRC32C (RedoCodec format 2), which a reader of version 1 would take for trailing bytes; 3
     * since the header lists the source's redo threads.
     */
    public static final int REDO_FORMAT_VERSION = 3;
    /** The first version whose header lists the source's threads. */
    private static final int THREADS_SINCE = 3;
    private static final byte[] MAGIC = "TRBREDO".getBytes(StandardCharsets.US_ASCII);

    /**
     * What V$ARCHIVED_LOG shows of a log, and the source's redo threads when it was archived (as
     * an Oracle log's header knows the database's enabled threads): a downstream database merging
     * the threads waits for each one listed, including a thread whose first log has not arrived
     * yet, rather than handing over another thread's changes that one of it may still precede.
     * Empty in logs of versions before 3.
     */
    public record Header(int formatVersion, String sourceDatabase, int thread, long sequence, long firstScn, long nextScn,
            boolean dictionaryBegin, boolean dictionaryEnd, List<Integer> threads) {
        public Header {
            threads = List.copyOf(threads);
        }

        /** A header that lists no threads (as logs before version 3). */
        public Header(int formatVersion, String sourceDatabase, int thread, long sequence, long firstScn, long nextScn,
                boolean dictionaryBegin, boolean dictionaryEnd) {
            this(formatVersion, sourceDatabase, thread, sequence, firstScn, nextScn, dictionaryBegin, dictionaryEnd, List.of());
        }

        public String name() {
            return String.format("redo_%d_%06d.log", thread, sequence);
        }
    }

    /** The file's bytes: magic, format version, header, entries, CRC32C. */
    public byte[] encode() {
        BinaryWriter w = new BinaryWriter(256);
        w.raw(MAGIC).u8(header.formatVersion()).string(header.sourceDatabase()).i32(header.thread()).i64(header.sequence())
                .i64(header.firstScn()).i64(header.nextScn()).u8(header.dictionaryBegin() ? 1 : 0)
                .u8(header.dictionaryEnd() ? 1 : 0);
        if (header.formatVersion() >= THREADS_SINCE) {
            w.varint(header.threads().size());
            for (int t : header.threads()) {
                w.i32(t);
            }
        }
        w.varint(entries.size());
        for (byte[] e : entries) {
            w.bytes(e);
        }
        byte[] body = w.toByteArray();
        CRC32C crc = new CRC32C();
        crc.update(body);
        return ByteBuffer.allocate(body.length + 4).put(body).putInt((int) crc.getValue()).array();
    }

    /** The header alone, after the magic and version checks (the checksum is not verified). */
    public static Header header(byte[] file, String what) {
        return read(file, what, false).header();
    }

    /**
     * Decodes a whole file, verifying its checksum.
     *
     * @param what names the file in errors (its path, or the log and its source)
     * @throws UnsupportedRedoFormatException when it was written in a newer redo format
     * @throws CorruptRecordException         when it is damaged or not a log at all
     */
    public static ArchivedLogFile decode(byte[] file, String what) {
        return read(file, what, true);
    }

    private static ArchivedLogFile read(byte[] file, String what, boolean whole) {
        if (file.length < MAGIC.length + 1 + 4 || !Arrays.equals(file, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
            throw new CorruptRecordException(what + " is not a Tributary archived redo log");
        }
        int version = file[MAGIC.length] & 0xff;
        if (version > REDO_FORMAT_VERSION) {
            throw new UnsupportedRedoFormatException(what + " is in redo format version " + version
                    + ", and this database reads versions 1 to " + REDO_FORMAT_VERSION
                    + ": upgrade it before it captures from that source");
        }
        if (whole) {
            CRC32C crc = new CRC32C();
            crc.update(file, 0, file.length - 4);
            int stored = ByteBuffer.wrap(file, file.length - 4, 4).getInt();
            if (stored != (int) crc.getValue()) {
                throw new CorruptRecordException(what + " is damaged: its CRC32C does not match its contents");
            }
        }
        BinaryReader r = new BinaryReader(Arrays.copyOfRange(file, MAGIC.length + 1, file.length - 4));
        String source = r.string();
        int thread = r.i32();
        long sequence = r.i64();
        long first = r.i64();
        long next = r.i64();
        boolean begin = r.u8() == 1;
        boolean end = r.u8() == 1;
        List<Integer> threads = new ArrayList<>();
        if (version >= THREADS_SINCE) {
            for (int i = 0, n = r.count(); i < n; i++) {
                threads.add(r.i32());
            }
        }
        Header h = new Header(version, source, thread, sequence, first, next, begin, end, threads);
        if (!whole) {
            return new ArchivedLogFile(h, List.of());
        }
        int n = r.count();
        List<byte[]> entries = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            entries.add(r.bytes());
        }
        r.expectEnd();
        return new ArchivedLogFile(h, entries);
    }
}
