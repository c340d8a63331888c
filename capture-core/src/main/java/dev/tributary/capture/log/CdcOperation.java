package dev.tributary.capture.log;

/** ScyllaDB's {@code cdc$operation} codes, as the CDC log table shows them. */
public enum CdcOperation {
    PREIMAGE(0), UPDATE(1), INSERT(2), ROW_DELETE(3), PARTITION_DELETE(4),
    RANGE_DELETE_START_INCLUSIVE(5), RANGE_DELETE_START_EXCLUSIVE(6),
    RANGE_DELETE_END_INCLUSIVE(7), RANGE_DELETE_END_EXCLUSIVE(8), POSTIMAGE(9);

    private final int code;

    CdcOperation(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    public static CdcOperation ofCode(int code) {
        for (CdcOperation o : values()) {
            if (o.code == code) {
                return o;
            }
        }
        throw new IllegalArgumentException("unknown cdc$operation " + code);
    }
}
