package dev.tributary.rules.eval;

/**
 * A change as the rules see it: the attributes a rule condition may read through the
 * {@code :dml} and {@code :ddl} variables. The rules engine defines this port; capture adapts
 * its redo records and LCRs to it, so the engine depends on no other module.
 *
 * <h2>Names</h2>
 * Rule conditions compare names as Oracle does, in upper case: {@code :dml.get_object_owner() =
 * 'HR'}. {@link #objectOwner()}, {@link #objectName()}, {@link #baseTableOwner()} and
 * {@link #baseTableName()} therefore return the <em>rule form</em> of the CQL identifier: an
 * unquoted (lower-case) CQL name upper-cased, any other (case-sensitive, quoted) name as it is.
 * {@link RuleNames#ruleForm(String)} does this conversion. Column names passed to
 * {@link #value(ValueSide, String)} are CQL names exactly as stored (lower case for unquoted
 * names); the engine converts the names written in conditions before it asks.
 *
 * <h2>Partial inputs</h2>
 * During prefiltering an input is {@linkplain #isPartial() partial}: it knows only the source
 * database, owner, object name, command type, whether it is DDL, and the tag. The engine never
 * calls {@link #value}, {@link #objectType()}, {@link #baseTableOwner()} or
 * {@link #baseTableName()} on a partial input; what depends on them evaluates to MAYBE.
 *
 * <p>Implementations must be safe to read from the evaluating thread; the engine keeps no
 * reference to an input after evaluation returns.
 */
public interface RuleInput {

    /**
     * The global name of the database the change comes from, in upper case as the catalog stores
     * global names (e.g. {@code DB1}).
     */
    String sourceDatabaseName();

    /** The schema (keyspace) of the changed object, in rule form; may be null for some DDL. */
    String objectOwner();

    /** The changed object's name, in rule form; may be null for some DDL. */
    String objectName();

    /**
     * {@code INSERT}, {@code UPDATE}, {@code DELETE}, {@code LOB WRITE}, {@code LOB ERASE},
     * {@code LOB TRIM} for row changes, or the DDL command such as {@code CREATE TABLE}.
     */
    String commandType();

    /** Whether this is a DDL change ({@code :ddl}) rather than a row change ({@code :dml}). */
    boolean isDdl();

    /** The redo tag, or {@code null} when the tag is NULL. The engine does not modify it. */
    byte[] tag();

    /** Whether the tag is NULL; implementations may answer without copying the tag. */
    default boolean isNullTag() {
        return tag() == null;
    }

    /** For DDL: the object type, e.g. {@code TABLE}; null for row changes. */
    String objectType();

    /** For DDL on a table-dependent object (an index, say): the table's owner, in rule form. */
    String baseTableOwner();

    /** For DDL on a table-dependent object: the table's name, in rule form. */
    String baseTableName();

    /**
     * The value of a column in the old or new image of a row change. Must return
     * {@link ColumnLookup#absent()} (never null) when the column is not in that image.
     *
     * @param column the CQL column name, as stored
     */
    ColumnLookup value(ValueSide side, String column);

    /** Whether this input is partial (prefiltering); see the class documentation. */
    boolean isPartial();
}
