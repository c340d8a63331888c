package dev.tributary.capture;

import dev.tributary.capture.lcr.RowLcr;

/**
 * A change that satisfies a capture's rules is to a table with a column of a type capture does
 * not support (a user-defined type). Carries the LCR for the capture's trace. Error number 902,
 * as the capture seed's ORA-00902.
 */
public final class UnsupportedColumnTypeException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    public static final int ERROR_NUMBER = 902;
    private final transient RowLcr lcr;

    public UnsupportedColumnTypeException(String table, String column, String type, RowLcr lcr) {
        super("invalid datatype: column " + column + " of table " + table + " has type " + type
                + ", which capture does not support; change the capture's rules to exclude " + table + " and start it again");
        this.lcr = lcr;
    }

    public RowLcr lcr() {
        return lcr;
    }
}
