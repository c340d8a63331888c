package dev.tributary.rules.transform;

/**
 * A declarative rule-based transformation, as dbms_streams_adm's RENAME_SCHEMA, RENAME_TABLE,
 * RENAME_COLUMN, ADD_COLUMN and DELETE_COLUMN declare them. It acts on row LCRs only, and only
 * on the LCRs of the table (or schema) it names; other LCRs pass unchanged. Names are CQL names.
 *
 * <p>Order: by {@link #stepNumber()}, and within one step by Oracle's default order: delete
 * column, rename column, add column, rename table, rename schema ({@link #defaultOrder()}).
 * Each step sees the result of the previous one; custom transformations run after them all.
 * Implementations are immutable records.
 */
public sealed interface DeclarativeTransformation
        permits RenameSchema, RenameTable, RenameColumn, AddColumn, DeleteColumn {

    /** The step_number given when the transformation was added; 0 means default ordering. */
    int stepNumber();

    /** Position in Oracle's default ordering within one step (lower runs first). */
    int defaultOrder();

    /** The transformed LCR, or the same one when the transformation does not apply to it. */
    TransformableLcr apply(TransformableLcr lcr);

    /** Oracle's name for the kind of transformation: RENAME SCHEMA, ADD COLUMN, ... */
    String kindName();
}
