package dev.tributary.dictionary.io;

import java.nio.ByteBuffer;
import java.util.function.Supplier;
import java.util.zip.CRC32C;

/**
 * A CRC32C at the end of a stored record, so a damaged record is refused rather than decoded into
 * other data: RocksDB checks its blocks, but not what a bad copy, a bad disk read past its cache
 * or a bug between encoder and store did to one value.
 */
public final class RecordChecksum {
    /** The bytes a checksum adds. */
    public static final int BYTES = 4;

    private RecordChecksum() {
    }

    /** The record with the CRC32C of its bytes appended. */
    public static byte[] seal(byte[] record) {
        CRC32C crc = new CRC32C();
        crc.update(record);
        return ByteBuffer.allocate(record.length + BYTES).put(record).putInt((int) crc.getValue()).array();
    }

    /**
     * Checks a sealed record and returns the length of the record before its checksum.
     *
     * @param what names the record in the error (its log and position, or its SCN)
     * @throws CorruptRecordException when the checksum does not match (or there is none)
     */
    public static int verify(byte[] sealed, Supplier<String> what) {
        if (sealed.length < BYTES) {
            throw new CorruptRecordException(what.get() + " is damaged: " + sealed.length + " bytes cannot hold its checksum");
        }
        int length = sealed.length - BYTES;
        CRC32C crc = new CRC32C();
        crc.update(sealed, 0, length);
        if ((int) crc.getValue() != ByteBuffer.wrap(sealed, length, BYTES).getInt()) {
            throw new CorruptRecordException(what.get() + " is damaged: its CRC32C does not match its contents");
        }
        return length;
    }
}
