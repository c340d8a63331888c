package dev.tributary.generations.errors;

/**
 * Stored generation, tablet stream set or tablet map bytes could not be decoded: unknown format
 * byte, truncated or trailing data, a checksum mismatch, or values that break the type's
 * invariants. The message names the kind of data and where decoding stopped. The data cannot be
 * used; the caller should read it again from its source or report the corruption.
 */
public final class CorruptGenerationDataException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public CorruptGenerationDataException(String message) {
        super(message);
    }

    public CorruptGenerationDataException(String message, Throwable cause) {
        super(message, cause);
    }
}
