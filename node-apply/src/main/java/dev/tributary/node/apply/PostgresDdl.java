package dev.tributary.node.apply;

import dev.tributary.capture.lcr.DdlLcr;
import dev.tributary.cql.CqlParser;
import dev.tributary.cql.ast.AddColumns;
import dev.tributary.cql.ast.AlterTable;
import dev.tributary.cql.ast.ColumnSpec;
import dev.tributary.cql.ast.DropColumns;
import dev.tributary.cql.ast.Statement;
import dev.tributary.cql.ast.Truncate;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import java.util.function.BiConsumer;

/**
 * Captured DDL at a PostgreSQL destination: {@code ALTER TABLE ... ADD} and {@code DROP} columns
 * and {@code TRUNCATE} map onto PostgreSQL's; other DDL (CQL's tables, keyspaces and options have no faithful
 * PostgreSQL form) is ignored and recorded ({@code system_views.apply_ignored_ddl}) for the operator
 * to carry over by hand.
 */
final class PostgresDdl {
    /** CQL types and the PostgreSQL types that hold their values; collections and user types as jsonb. */
    private static final Map<String, String> TYPES = Map.ofEntries(Map.entry("ascii", "text"), Map.entry("text", "text"),
            Map.entry("varchar", "text"), Map.entry("tinyint", "smallint"), Map.entry("smallint", "smallint"),
            Map.entry("int", "integer"), Map.entry("bigint", "bigint"), Map.entry("counter", "bigint"),
            Map.entry("varint", "numeric"), Map.entry("decimal", "numeric"), Map.entry("float", "real"),
            Map.entry("double", "double precision"), Map.entry("boolean", "boolean"), Map.entry("timestamp", "timestamptz"),
            Map.entry("date", "date"), Map.entry("time", "time"), Map.entry("duration", "text"), Map.entry("blob", "bytea"),
            Map.entry("uuid", "uuid"), Map.entry("timeuuid", "uuid"), Map.entry("inet", "inet"));

    private final Connection c;
    private final BiConsumer<String, String> changed;

    /** @param changed told of each table whose shape the DDL changed (keyspace, table) */
    PostgresDdl(Connection c, BiConsumer<String, String> changed) {
        this.c = c;
        this.changed = changed;
    }

    /** The PostgreSQL type of a CQL type as written. */
    static String type(String cqlType) {
        String t = cqlType.trim().toLowerCase(Locale.ROOT);
        String mapped = TYPES.get(t);
        return mapped != null ? mapped : "jsonb";
    }

    /**
     * Carries the DDL out, or says why a PostgreSQL destination cannot: an operation it has no
     * form for is ignored, not an error (the seed's apply ignores DDL it cannot apply).
     *
     * @return empty when applied, else the reason it cannot be
     */
    java.util.Optional<String> apply(DdlLcr ddl) throws SQLException {
        Statement s;
        try {
            s = CqlParser.parse(ddl.ddlText());
        } catch (RuntimeException e) {
            return unsupported();
        }
        if (s instanceof Truncate truncate) {
            String owner = truncate.name().keyspace() != null ? truncate.name().keyspace() : ddl.objectOwner();
            try (var st = c.createStatement()) {
                st.execute("TRUNCATE TABLE " + PostgresDestination.quote(owner) + "." + PostgresDestination.quote(truncate.name().name()));
            }
            return java.util.Optional.empty();
        }
        if (!(s instanceof AlterTable alter)) {
            return unsupported();
        }
        String owner = alter.name().keyspace() != null ? alter.name().keyspace() : ddl.objectOwner();
        String table = PostgresDestination.quote(owner) + "." + PostgresDestination.quote(alter.name().name());
        StringJoiner actions = new StringJoiner(", ");
        if (alter.action() instanceof AddColumns add) {
            for (ColumnSpec col : add.columns()) {
                actions.add("ADD COLUMN IF NOT EXISTS " + PostgresDestination.quote(col.name()) + " " + type(col.typeText()));
            }
        } else if (alter.action() instanceof DropColumns drop) {
            for (String col : drop.columns()) {
                actions.add("DROP COLUMN IF EXISTS " + PostgresDestination.quote(col));
            }
        } else {
            return unsupported();
        }
        try (var st = c.createStatement()) {
            st.execute("ALTER TABLE " + table + " " + actions);
        }
        changed.accept(owner, alter.name().name());
        return java.util.Optional.empty();
    }

    private static java.util.Optional<String> unsupported() {
        return java.util.Optional.of("a PostgreSQL destination applies TRUNCATE and ALTER TABLE ADD and DROP of columns only; "
                + "carry this DDL over by hand");
    }
}
