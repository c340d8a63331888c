package dev.tributary.node.errors;

import org.rocksdb.RocksDBException;
import org.rocksdb.Status;

/** A RocksDB failure, with its status code (NoSpace, Corruption, IOError, ...) in the message. */
public final class StorageException extends TributaryException {
    private static final long serialVersionUID = 1L;

    public StorageException(String message, Throwable cause) {
        this(ErrorCode.STORAGE_ERROR, message, cause);
    }

    private StorageException(ErrorCode code, String message, Throwable cause) {
        super(code, message, cause);
    }

    /**
     * The one place RocksDB's status codes become error codes: no space (the disk, or the SST
     * files at --max-disk-bytes, which RocksDB reports as an IOError) is DISK_FULL, a corruption
     * is CORRUPTION, anything else STORAGE_ERROR.
     */
    public static StorageException from(String what, RocksDBException e) {
        Status s = e.getStatus();
        String code = s == null ? "unknown" : s.getCode().name();
        String message = String.valueOf(e.getMessage());
        ErrorCode mapped;
        if (s != null && s.getCode() == Status.Code.Corruption) {
            mapped = ErrorCode.CORRUPTION;
        } else if ((s != null && s.getCode() == Status.Code.IOError
                && (s.getSubCode() == Status.SubCode.NoSpace || message.contains("Max allowed space was reached")))
                || message.contains("No space left on device")) {
            mapped = ErrorCode.DISK_FULL;
        } else {
            mapped = ErrorCode.STORAGE_ERROR;
        }
        return new StorageException(mapped, "storage " + what + " failed (" + code + "): " + message, e);
    }
}
