package dev.tributary.capture.apply;

/** The prebuilt update conflict handlers of dbms_apply_adm.set_update_conflict_handler. */
public enum ConflictMethod {
    /** The LCR's values replace the row's. */
    OVERWRITE,
    /** The row keeps its values; the LCR's change is dropped. */
    DISCARD,
    /** The change wins when its resolution column is greater than the row's, else it is dropped. */
    MAXIMUM,
    /** The change wins when its resolution column is less than the row's, else it is dropped. */
    MINIMUM
}
