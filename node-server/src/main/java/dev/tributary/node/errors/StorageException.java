package dev.tributary.node.errors;

import org.rocksdb.RocksDBException;
import org.rocksdb.Status;

/** A RocksDB failure, with its status code (NoSpace, Corruption, IOError, ...) in the message. */
public final class StorageException extends TributaryException {
    private static final long serialVersionUID = 1L;

    public StorageException(String message, Throwable cause) {
        super(ErrorCode.STORAGE_ERROR, message, cause);
    }

    public static StorageException from(String what, RocksDBException e) {
        Status s = e.getStatus();
        String code = s == null ? "unknown" : s.getCode().name();
        return new StorageException("storage " + what + " failed (" + code + "): " + e.getMessage(), e);
    }
}
