package dev.tributary.capture.apply;

/**
 * A transaction the destination cannot take as it stands — a conflict no handler resolves, a
 * missing table, a constraint: the whole transaction goes to the error queue with this error
 * (DBA_APPLY_ERROR.ERROR_NUMBER and ERROR_MESSAGE). Numbers follow Oracle's where one exists.
 */
public final class ApplyErrorException extends RuntimeException {
    /** ORA-26687: no instantiation SCN provided for an object. */
    public static final int NOT_INSTANTIATED = 26687;
    /** ORA-26786: a row with the key exists but has conflicting columns. */
    public static final int CONFLICTING_COLUMNS = 26786;
    /** ORA-26787: the row with the key does not exist in the table. */
    public static final int ROW_MISSING = 26787;
    /** ORA-00001: unique constraint violated (an INSERT whose row exists). */
    public static final int ROW_EXISTS = 1;
    /** Anything else the destination refused; the message says what. */
    public static final int DESTINATION_ERROR = 26700;

    private final int errorNumber;

    public ApplyErrorException(int errorNumber, String message) {
        super(message);
        this.errorNumber = errorNumber;
    }

    public ApplyErrorException(int errorNumber, String message, Throwable cause) {
        super(message, cause);
        this.errorNumber = errorNumber;
    }

    public int errorNumber() {
        return errorNumber;
    }
}
