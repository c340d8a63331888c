package dev.tributary.node.apply;

import dev.tributary.capture.apply.ApplyErrorException;
import dev.tributary.capture.apply.ApplyPolicy;
import dev.tributary.capture.apply.ApplyPosition;
import dev.tributary.capture.apply.ApplyProgress;
import dev.tributary.capture.apply.ApplyTransaction;
import dev.tributary.capture.apply.ConflictHandler;
import dev.tributary.capture.apply.ConflictResolution;
import dev.tributary.capture.apply.DestinationUnavailableException;
import dev.tributary.capture.apply.IgnoredDdl;
import dev.tributary.capture.lcr.DdlLcr;
import dev.tributary.capture.lcr.Lcr;
import dev.tributary.capture.lcr.LcrColumn;
import dev.tributary.capture.lcr.RowLcr;
import dev.tributary.capture.log.LogRecord;
import dev.tributary.dictionary.types.Blob;
import dev.tributary.dictionary.types.CqlType.Kind;
import dev.tributary.node.capture.LcrJson;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.StringJoiner;

/**
 * A PostgreSQL destination, over the PostgreSQL JDBC driver: a source table {@code ks.t} is the
 * destination's {@code "ks"."t"}, whose primary key names the row. The apply's progress
 * ({@code tributary.apply_progress}) and error queue ({@code tributary.apply_error}) are tables
 * of the destination, written in the transactions they describe — which is what makes the apply
 * exactly once: PostgreSQL either committed a source transaction together with its progress, or
 * neither.
 *
 * <p>Changes are checked against the row, not overwritten: an UPDATE or DELETE names the old
 * values it carries in its WHERE clause ({@code IS NOT DISTINCT FROM}, so NULLs compare), and only
 * when that finds no row does it look at why — no row, or a row with other values — and ask
 * {@link ConflictResolution}. An INSERT whose key exists is a conflict too. One connection, one
 * thread.
 */
public final class PostgresDestination implements Destination {
    private static final String PROGRESS = "tributary.apply_progress";
    private static final String ERRORS = "tributary.apply_error";
    /** Transactions applied (kind A) or queued as errors (E) above the low watermark, until the coordinator folds them in. */
    private static final String APPLIED = "tributary.apply_applied";
    /** (commit SCN, transaction id) in the order of {@link ApplyPosition}, whatever the database's collation. */
    private static final String POSITION = "(commit_scn, transaction_id COLLATE \"C\")";
    private static final String AT = "(?::bigint, ?::text COLLATE \"C\")";
    /** Serializes the creation of Tributary's tables by concurrent applies (CREATE ... IF NOT EXISTS is not). */
    private static final long SETUP_LOCK = 0x7472696275746172L;

    private final Connection c;
    private final IgnoredDdl.Sink ignoredDdl;
    private final Map<String, Table> tables = new HashMap<>();

    /** A destination table as its catalog describes it: its SQL name, primary key columns, and columns. */
    private record Table(String sql, List<String> key, Set<String> columns) {
    }

    private PostgresDestination(Connection c, IgnoredDdl.Sink ignoredDdl) {
        this.c = c;
        this.ignoredDdl = ignoredDdl;
    }

    /**
     * Connects and makes sure the progress and error tables exist.
     *
     * @throws DestinationUnavailableException when the server cannot be reached or refuses the login
     */
    /** @param ignoredDdl told of each DDL LCR this destination cannot apply, once its transaction committed */
    public static PostgresDestination connect(String url, String user, String password, IgnoredDdl.Sink ignoredDdl) {
        Properties p = new Properties();
        if (user != null) {
            p.setProperty("user", user);
            p.setProperty("password", password);
        }
        p.setProperty("connectTimeout", "10");
        // a server that vanishes without closing the socket must not hold the apply forever
        p.setProperty("socketTimeout", "120");
        p.setProperty("tcpKeepAlive", "true");
        p.setProperty("ApplicationName", "tributary-apply");
        Connection c = null;
        try {
            c = DriverManager.getConnection(url, p);
            c.setAutoCommit(false);
            PostgresDestination d = new PostgresDestination(c, ignoredDdl);
            d.setUp();
            return d;
        } catch (SQLException e) {
            closeQuietly(c);
            throw new DestinationUnavailableException("cannot connect to " + url + ": " + e.getMessage(), e);
        }
    }

    private void setUp() throws SQLException {
        try (var s = c.createStatement()) {
            s.execute("SELECT pg_advisory_xact_lock(" + SETUP_LOCK + ")");
            s.execute("CREATE SCHEMA IF NOT EXISTS tributary");
            s.execute("CREATE TABLE IF NOT EXISTS " + PROGRESS + " (apply_name text PRIMARY KEY, commit_scn bigint NOT NULL, "
                    + "transaction_id text NOT NULL, applied_transactions bigint NOT NULL, error_transactions bigint NOT NULL, "
                    + "epoch bigint NOT NULL, updated_at timestamptz NOT NULL DEFAULT now())");
            s.execute("CREATE TABLE IF NOT EXISTS " + APPLIED + " (apply_name text NOT NULL, commit_scn bigint NOT NULL, "
                    + "transaction_id text NOT NULL, kind char(1) NOT NULL, PRIMARY KEY (apply_name, commit_scn, transaction_id))");
            s.execute("CREATE TABLE IF NOT EXISTS " + ERRORS + " (apply_name text NOT NULL, local_transaction_id text NOT NULL, "
                    + "source_database text NOT NULL, source_transaction_id text NOT NULL, source_commit_scn bigint NOT NULL, "
                    + "message_count int NOT NULL, error_number int NOT NULL, error_message text NOT NULL, "
                    + "error_creation_time timestamptz NOT NULL DEFAULT now(), lcrs_json text NOT NULL, lcrs bytea NOT NULL, "
                    + "PRIMARY KEY (apply_name, local_transaction_id))");
        }
        c.commit();
    }

    /**
     * Takes the apply over: a new epoch, under a FOR UPDATE lock that waits for every transaction
     * of an earlier owner's connections (they hold the row FOR KEY SHARE) to end; then folds in
     * what was recorded at or below the low watermark and returns the progress.
     */
    @Override
    public ApplyProgress open(String apply) {
        try {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + PROGRESS + " (apply_name, commit_scn, transaction_id, "
                    + "applied_transactions, error_transactions, epoch) VALUES (?, 0, '', 0, 0, 0) ON CONFLICT (apply_name) DO NOTHING")) {
                ps.setString(1, apply);
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM " + PROGRESS + " WHERE apply_name = ? FOR UPDATE")) {
                ps.setString(1, apply);
                ps.executeQuery().close();
            }
            ApplyPosition lw;
            long epoch;
            try (PreparedStatement ps = c.prepareStatement("UPDATE " + PROGRESS + " SET epoch = epoch + 1 WHERE apply_name = ? "
                    + "RETURNING epoch, commit_scn, transaction_id")) {
                ps.setString(1, apply);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    epoch = rs.getLong(1);
                    lw = new ApplyPosition(rs.getLong(2), rs.getString(3));
                }
            }
            fold(apply, lw);
            Set<ApplyPosition> above = new java.util.HashSet<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT commit_scn, transaction_id FROM " + APPLIED
                    + " WHERE apply_name = ?")) {
                ps.setString(1, apply);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        above.add(new ApplyPosition(rs.getLong(1), rs.getString(2)));
                    }
                }
            }
            c.commit();
            return new ApplyProgress(lw, above, epoch);
        } catch (SQLException e) {
            rollbackQuietly();
            throw failed("take over the progress of apply " + apply, e);
        }
    }

    /** Holds the progress row for this transaction and checks that the epoch is still this connection's owner's. */
    private void fence(String apply, long epoch) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM " + PROGRESS + " WHERE apply_name = ? AND epoch = ? "
                + "FOR KEY SHARE")) {
            ps.setString(1, apply);
            ps.setLong(2, epoch);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new DestinationUnavailableException("apply " + apply + " was taken over at the destination (epoch "
                            + epoch + " is not its epoch any more); reading its progress again", null);
                }
            }
        }
    }

    /**
     * Records a transaction in the destination transaction that applies it: as the new low
     * watermark (never moving it back), or in the table of those above it.
     */
    private void record(String apply, ApplyPosition to, boolean lowWatermark, boolean error) throws SQLException {
        if (!lowWatermark) {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + APPLIED + " (apply_name, commit_scn, transaction_id, "
                    + "kind) VALUES (?, ?, ?, ?)")) {
                ps.setString(1, apply);
                ps.setLong(2, to.commitScn());
                ps.setString(3, to.transactionId());
                ps.setString(4, error ? "E" : "A");
                ps.executeUpdate();
            }
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("UPDATE " + PROGRESS + " SET "
                + "commit_scn = CASE WHEN " + POSITION + " < " + AT + " THEN ? ELSE commit_scn END, "
                + "transaction_id = CASE WHEN " + POSITION + " < " + AT + " THEN ? ELSE transaction_id END, "
                + "applied_transactions = applied_transactions + ?, error_transactions = error_transactions + ?, "
                + "updated_at = now() WHERE apply_name = ?")) {
            int i = 1;
            ps.setLong(i++, to.commitScn());
            ps.setString(i++, to.transactionId());
            ps.setLong(i++, to.commitScn());
            ps.setLong(i++, to.commitScn());
            ps.setString(i++, to.transactionId());
            ps.setString(i++, to.transactionId());
            ps.setInt(i++, error ? 0 : 1);
            ps.setInt(i++, error ? 1 : 0);
            ps.setString(i, apply);
            ps.executeUpdate();
        }
    }

    /** Folds the transactions recorded at or below the low watermark into the progress row's counts. */
    private void fold(String apply, ApplyPosition lw) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("WITH d AS (DELETE FROM " + APPLIED + " WHERE apply_name = ? AND "
                + POSITION + " <= " + AT + " RETURNING kind) UPDATE " + PROGRESS + " SET "
                + "applied_transactions = applied_transactions + (SELECT count(*) FROM d WHERE kind = 'A'), "
                + "error_transactions = error_transactions + (SELECT count(*) FROM d WHERE kind = 'E') WHERE apply_name = ?")) {
            ps.setString(1, apply);
            ps.setLong(2, lw.commitScn());
            ps.setString(3, lw.transactionId());
            ps.setString(4, apply);
            ps.executeUpdate();
        }
    }

    @Override
    public void advance(String apply, long epoch, ApplyPosition to) {
        inTransaction("move the low watermark of apply " + apply + " to " + to, () -> {
            fence(apply, epoch);
            try (PreparedStatement ps = c.prepareStatement("UPDATE " + PROGRESS + " SET commit_scn = ?, transaction_id = ?, "
                    + "updated_at = now() WHERE apply_name = ? AND " + POSITION + " < " + AT)) {
                ps.setLong(1, to.commitScn());
                ps.setString(2, to.transactionId());
                ps.setString(3, apply);
                ps.setLong(4, to.commitScn());
                ps.setString(5, to.transactionId());
                ps.executeUpdate();
            }
            fold(apply, to);
            return null;
        });
    }

    @Override
    public void apply(String apply, long epoch, ApplyTransaction tx, ApplyPolicy policy, boolean lowWatermark) {
        List<IgnoredDdl> ignored = new ArrayList<>();
        inTransaction("apply transaction " + tx.localTransactionId(), () -> {
            fence(apply, epoch);
            for (LogRecord r : tx.records()) {
                applyLcr(apply, r.lcr(), policy, ignored);
            }
            record(apply, tx.position(), lowWatermark, false);
            return null;
        });
        ignored.forEach(ignoredDdl::ignored); // once committed: a transaction tried again reports it again, alike
    }

    @Override
    public void recordError(String apply, long epoch, ApplyTransaction tx, ApplyErrorException error, boolean lowWatermark) {
        inTransaction("put transaction " + tx.localTransactionId() + " in the error queue of apply " + apply, () -> {
            fence(apply, epoch);
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + ERRORS + " (apply_name, local_transaction_id, "
                    + "source_database, source_transaction_id, source_commit_scn, message_count, error_number, error_message, "
                    + "lcrs_json, lcrs) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (apply_name, local_transaction_id) "
                    + "DO UPDATE SET error_number = excluded.error_number, error_message = excluded.error_message")) {
                ps.setString(1, apply);
                ps.setString(2, tx.localTransactionId());
                ps.setString(3, tx.sourceDatabase());
                ps.setString(4, tx.position().transactionId());
                ps.setLong(5, tx.position().commitScn());
                ps.setInt(6, tx.records().size());
                ps.setInt(7, error.errorNumber());
                ps.setString(8, String.valueOf(error.getMessage()));
                StringJoiner json = new StringJoiner(",", "[", "]");
                tx.records().forEach(r -> json.add(LcrJson.of(r)));
                ps.setString(9, json.toString());
                ps.setBytes(10, ErrorTransaction.encode(tx.records()));
                ps.executeUpdate();
            }
            record(apply, tx.position(), lowWatermark, true);
            return null;
        });
    }

    @Override
    public List<ErrorTransaction> errors(String apply) {
        List<ErrorTransaction> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT local_transaction_id, source_database, source_transaction_id, "
                + "source_commit_scn, message_count, error_number, error_message, error_creation_time FROM " + ERRORS
                + " WHERE apply_name = ? ORDER BY source_commit_scn, local_transaction_id")) {
            ps.setString(1, apply);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new ErrorTransaction(apply, rs.getString(1), rs.getString(2), rs.getString(3), rs.getLong(4),
                            rs.getInt(5), rs.getInt(6), rs.getString(7), rs.getTimestamp(8).toInstant()));
                }
            }
            c.commit();
            return out;
        } catch (SQLException e) {
            rollbackQuietly();
            throw failed("read the error queue of apply " + apply, e);
        }
    }

    @Override
    public boolean executeError(String apply, String localTransactionId, ApplyPolicy policy) {
        List<IgnoredDdl> ignored = new ArrayList<>();
        boolean found = inTransaction("execute error transaction " + localTransactionId, () -> {
            byte[] lcrs;
            try (PreparedStatement ps = c.prepareStatement("SELECT lcrs FROM " + ERRORS
                    + " WHERE apply_name = ? AND local_transaction_id = ? FOR UPDATE")) {
                ps.setString(1, apply);
                ps.setString(2, localTransactionId);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        return false; // it read no row and so holds none: ending the transaction either way is the same
                    }
                    lcrs = rs.getBytes(1);
                }
            }
            for (LogRecord r : ErrorTransaction.decode(lcrs)) {
                applyLcr(apply, r.lcr(), policy, ignored);
            }
            deleteErrorRow(apply, localTransactionId);
            return true;
        });
        ignored.forEach(ignoredDdl::ignored);
        return found;
    }

    @Override
    public boolean deleteError(String apply, String localTransactionId) {
        try {
            boolean deleted = deleteErrorRow(apply, localTransactionId);
            c.commit();
            return deleted;
        } catch (SQLException e) {
            rollbackQuietly();
            throw failed("delete error transaction " + localTransactionId, e);
        }
    }

    private boolean deleteErrorRow(String apply, String localTransactionId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + ERRORS + " WHERE apply_name = ? AND local_transaction_id = ?")) {
            ps.setString(1, apply);
            ps.setString(2, localTransactionId);
            return ps.executeUpdate() > 0;
        }
    }

    private void applyLcr(String apply, Lcr lcr, ApplyPolicy policy, List<IgnoredDdl> ignored) throws SQLException {
        if (lcr instanceof DdlLcr ddl) {
            new PostgresDdl(c, this::forget).apply(ddl).ifPresent(reason -> ignored.add(IgnoredDdl.of(apply, ddl, reason)));
            return;
        }
        RowLcr row = (RowLcr) lcr;
        Table t = table(row.objectOwner(), row.objectName());
        List<LcrColumn> key = DestinationRows.key(row, t.key(), t.sql());
        switch (row.commandType()) {
            case RowLcr.INSERT -> insert(t, row, key);
            case RowLcr.UPDATE -> update(t, row, key, policy);
            case RowLcr.DELETE -> delete(t, row, key, policy);
            default -> throw new ApplyErrorException(ApplyErrorException.DESTINATION_ERROR, "a PostgreSQL destination does not "
                    + "apply " + row.commandType() + " LCRs (" + row.objectOwner() + "." + row.objectName() + ")");
        }
    }

    private void insert(Table t, RowLcr row, List<LcrColumn> key) throws SQLException {
        List<LcrColumn> cols = row.newValues();
        StringJoiner names = new StringJoiner(", ");
        StringJoiner marks = new StringJoiner(", ");
        for (LcrColumn col : cols) {
            names.add(quote(col.name()));
            marks.add("?");
        }
        String sql = "INSERT INTO " + t.sql() + " (" + names + ") VALUES (" + marks + ") ON CONFLICT DO NOTHING";
        if (execute(sql, cols) == 0) {
            throw ConflictResolution.exists(row, DestinationRows.keyText(key));
        }
    }

    private void update(Table t, RowLcr row, List<LcrColumn> key, ApplyPolicy policy) throws SQLException {
        List<LcrColumn> set = nonKey(t, row.newValues());
        List<LcrColumn> old = nonKey(t, row.oldValues());
        if (!set.isEmpty() && write(t, "UPDATE " + t.sql() + " SET " + assignments(set), set, key, old) == 1) {
            return;
        }
        ConflictResolution.Action action = resolve(t, row, key, old, policy);
        if (action == ConflictResolution.Action.APPLY && !set.isEmpty()) {
            write(t, "UPDATE " + t.sql() + " SET " + assignments(set), set, key, List.of());
        }
    }

    private void delete(Table t, RowLcr row, List<LcrColumn> key, ApplyPolicy policy) throws SQLException {
        List<LcrColumn> old = nonKey(t, row.oldValues());
        if (write(t, "DELETE FROM " + t.sql(), List.of(), key, old) == 1) {
            return;
        }
        if (resolve(t, row, key, old, policy) == ConflictResolution.Action.APPLY) {
            write(t, "DELETE FROM " + t.sql(), List.of(), key, List.of());
        }
    }

    /** Why a change found no row with its old values, and what to do about it. */
    private ConflictResolution.Action resolve(Table t, RowLcr row, List<LcrColumn> key, List<LcrColumn> old, ApplyPolicy policy)
            throws SQLException {
        StringJoiner checks = new StringJoiner(", ");
        checks.add("true");
        for (LcrColumn o : old) {
            checks.add(quote(o.name()) + " IS NOT DISTINCT FROM ?");
        }
        List<LcrColumn> params = new ArrayList<>(old);
        params.addAll(key);
        Set<String> conflicting = new LinkedHashSet<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT " + checks + " FROM " + t.sql() + " WHERE " + keyClause(key)
                + " FOR UPDATE")) {
            bindAll(ps, 1, params);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw ConflictResolution.missing(row, DestinationRows.keyText(key));
                }
                for (int i = 0; i < old.size(); i++) {
                    if (!rs.getBoolean(i + 2)) {
                        conflicting.add(old.get(i).name());
                    }
                }
            }
        }
        List<ConflictHandler> handlers = policy.handlersOf(row.objectOwner(), row.objectName());
        return ConflictResolution.resolve(row, conflicting, handlers, column -> compare(t, row, key, column));
    }

    /** How the change's value of a column compares with the row's (NULL sorts first), for MAXIMUM and MINIMUM. */
    private int compare(Table t, RowLcr row, List<LcrColumn> key, String column) {
        LcrColumn mine = row.column(column);
        Object v = mine == null ? null : mine.value();
        String sql = v == null
                ? "SELECT CASE WHEN " + quote(column) + " IS NULL THEN 0 ELSE -1 END FROM " + t.sql() + " WHERE " + keyClause(key)
                : "SELECT CASE WHEN " + quote(column) + " IS NULL OR ? > " + quote(column) + " THEN 1 WHEN ? < " + quote(column)
                        + " THEN -1 ELSE 0 END FROM " + t.sql() + " WHERE " + keyClause(key);
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            int i = 1;
            if (v != null) {
                bind(ps, i++, v);
                bind(ps, i++, v);
            }
            bindAll(ps, i, key);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        } catch (SQLException e) {
            throw new ApplyErrorException(ApplyErrorException.DESTINATION_ERROR, "compare " + column + " of "
                    + t.sql() + ": " + e.getMessage(), e);
        }
    }

    /** Runs {@code head} (an UPDATE ... SET or a DELETE) on the row with this key and these old values; the rows it changed. */
    private int write(Table t, String head, List<LcrColumn> set, List<LcrColumn> key, List<LcrColumn> old) throws SQLException {
        StringBuilder sql = new StringBuilder(head).append(" WHERE ").append(keyClause(key));
        for (LcrColumn o : old) {
            sql.append(" AND ").append(quote(o.name())).append(" IS NOT DISTINCT FROM ?");
        }
        List<LcrColumn> params = new ArrayList<>(set);
        params.addAll(key);
        params.addAll(old);
        return execute(sql.toString(), params);
    }

    private int execute(String sql, List<LcrColumn> params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            bindAll(ps, 1, params);
            return ps.executeUpdate();
        }
    }

    private static List<LcrColumn> nonKey(Table t, List<LcrColumn> cols) {
        return DestinationRows.nonKey(t.key(), cols);
    }

    private static String assignments(List<LcrColumn> set) {
        StringJoiner j = new StringJoiner(", ");
        set.forEach(s -> j.add(quote(s.name()) + " = ?"));
        return j.toString();
    }

    private static String keyClause(List<LcrColumn> key) {
        StringJoiner j = new StringJoiner(" AND ");
        key.forEach(k -> j.add(quote(k.name()) + " = ?"));
        return j.toString();
    }

    private Table table(String owner, String name) throws SQLException {
        String id = owner + "." + name;
        Table t = tables.get(id);
        if (t != null) {
            return t;
        }
        DatabaseMetaData md = c.getMetaData();
        Set<String> columns = new LinkedHashSet<>();
        try (ResultSet rs = md.getColumns(null, owner, name, null)) {
            while (rs.next()) {
                columns.add(rs.getString("COLUMN_NAME"));
            }
        }
        String sql = quote(owner) + "." + quote(name);
        if (columns.isEmpty()) {
            throw new ApplyErrorException(ApplyErrorException.DESTINATION_ERROR, "the destination has no table " + sql
                    + " for " + id + "; create it, or copy it with dbms_streams_adm.instantiate_table");
        }
        String[] key = new String[columns.size()];
        int n = 0;
        try (ResultSet rs = md.getPrimaryKeys(null, owner, name)) {
            while (rs.next()) {
                key[rs.getShort("KEY_SEQ") - 1] = rs.getString("COLUMN_NAME");
                n++;
            }
        }
        if (n == 0) {
            throw new ApplyErrorException(ApplyErrorException.DESTINATION_ERROR, "the destination table " + sql
                    + " has no primary key: an apply finds rows by it");
        }
        t = new Table(sql, List.of(Arrays.copyOf(key, n)), columns);
        tables.put(id, t);
        return t;
    }

    /** In one destination transaction, so a reader sees the whole copy or none of it. */
    @Override
    public long copyTable(String owner, String name, List<CopyColumn> columns, java.util.Iterator<Map<String, Object>> rows) {
        String sql = quote(owner) + "." + quote(name);
        return inTransaction("copy " + owner + "." + name + " into " + sql, () -> {
            try (var st = c.createStatement()) {
                StringJoiner defs = new StringJoiner(", ");
                StringJoiner key = new StringJoiner(", ");
                for (CopyColumn col : columns) {
                    defs.add(quote(col.name()) + " " + PostgresDdl.type(col.type().cql()));
                    if (col.key()) {
                        key.add(quote(col.name()));
                    }
                }
                st.execute("CREATE SCHEMA IF NOT EXISTS " + quote(owner));
                st.execute("CREATE TABLE IF NOT EXISTS " + sql + " (" + defs + ", PRIMARY KEY (" + key + "))");
            }
            forget(owner, name);
            Table t = table(owner, name);
            StringJoiner names = new StringJoiner(", ");
            StringJoiner marks = new StringJoiner(", ");
            StringJoiner updates = new StringJoiner(", ");
            for (CopyColumn col : columns) {
                if (!t.columns().contains(col.name())) {
                    throw new ApplyErrorException(ApplyErrorException.DESTINATION_ERROR, "the destination table " + sql
                            + " has no column " + col.name() + "; add it, or drop the table and instantiate it again");
                }
                names.add(quote(col.name()));
                marks.add("?");
                if (!t.key().contains(col.name())) {
                    updates.add(quote(col.name()) + " = EXCLUDED." + quote(col.name()));
                }
            }
            String conflict = updates.length() == 0 ? "DO NOTHING" : "DO UPDATE SET " + updates;
            StringJoiner keyList = new StringJoiner(", ");
            t.key().forEach(k -> keyList.add(quote(k)));
            long n = 0;
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + sql + " (" + names + ") VALUES (" + marks
                    + ") ON CONFLICT (" + keyList + ") " + conflict)) {
                while (rows.hasNext()) {
                    Map<String, Object> row = rows.next();
                    for (int i = 0; i < columns.size(); i++) {
                        bind(ps, i + 1, row.get(columns.get(i).name()));
                    }
                    ps.addBatch();
                    if (++n % 500 == 0) {
                        ps.executeBatch();
                    }
                }
                ps.executeBatch();
            }
            return n;
        });
    }

    /** Drops what is known of a table's shape, after DDL changed it. */
    private void forget(String owner, String name) {
        tables.remove(owner + "." + name);
    }

    static String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    private static void bindAll(PreparedStatement ps, int from, List<LcrColumn> cols) throws SQLException {
        for (int i = 0; i < cols.size(); i++) {
            bind(ps, from + i, cols.get(i).value());
        }
    }

    /**
     * Binds a CQL value as the PostgreSQL type it maps to. Values without a JDBC type of their own
     * (inet, duration, collections and user types, as JSON) go as untyped text, which PostgreSQL
     * reads as the column's type.
     */
    private static void bind(PreparedStatement ps, int i, Object v) throws SQLException {
        if (v == null) {
            ps.setNull(i, Types.NULL);
            return;
        }
        Kind kind = Kind.of(v).orElse(null);
        if (kind == null) { // a collection or user type
            ps.setObject(i, LcrJson.valueJson(v), Types.OTHER);
            return;
        }
        switch (kind) {
            case INT -> ps.setInt(i, (Integer) v);
            case BIGINT, COUNTER -> ps.setLong(i, (Long) v);
            case SMALLINT, TINYINT -> ps.setShort(i, ((Number) v).shortValue());
            case BOOLEAN -> ps.setBoolean(i, (Boolean) v);
            case DOUBLE -> ps.setDouble(i, (Double) v);
            case FLOAT -> ps.setFloat(i, (Float) v);
            case DECIMAL -> ps.setBigDecimal(i, (BigDecimal) v);
            case VARINT -> ps.setBigDecimal(i, new BigDecimal((BigInteger) v));
            case TIMESTAMP -> ps.setObject(i, OffsetDateTime.ofInstant((Instant) v, ZoneOffset.UTC));
            case UUID, TIMEUUID, DATE, TIME -> ps.setObject(i, v);
            case BLOB -> ps.setBytes(i, ((Blob) v).toByteArray());
            case INET -> ps.setObject(i, ((InetAddress) v).getHostAddress(), Types.OTHER);
            case DURATION -> ps.setObject(i, v.toString(), Types.OTHER);
            case TEXT, ASCII, VARCHAR -> ps.setString(i, (String) v);
        }
    }

    /** The statements of one destination transaction; what it returns is the transaction's result. */
    @FunctionalInterface
    private interface Work<T> {
        T run() throws SQLException;
    }

    /**
     * Runs {@code work} as one destination transaction and commits it; on any failure rolls it
     * back, a failed statement becoming what {@link #failed} makes of it ({@code what} names the
     * transaction's purpose in that error).
     */
    private <T> T inTransaction(String what, Work<T> work) {
        try {
            T result = work.run();
            c.commit();
            return result;
        } catch (SQLException e) {
            rollbackQuietly();
            throw failed(what, e);
        } catch (RuntimeException e) {
            rollbackQuietly();
            throw e;
        }
    }

    /**
     * A failed statement as the apply sees it: the connection or the server's state is at fault
     * (connection loss, shutdown, serialization failure, deadlock, out of resources) — try again —
     * or the transaction is (anything else) — the error queue.
     */
    private RuntimeException failed(String what, SQLException e) {
        String state = e.getSQLState();
        boolean connectionLost;
        try {
            connectionLost = c.isClosed();
        } catch (SQLException ex) {
            connectionLost = true;
        }
        if (connectionLost || state == null || state.startsWith("08") || state.startsWith("57P") || state.equals("57014")
                || state.equals("40001") || state.equals("40P01") || state.startsWith("53") || state.startsWith("58")) {
            return new DestinationUnavailableException(what + ": " + e.getMessage(), e);
        }
        return new ApplyErrorException(ApplyErrorException.DESTINATION_ERROR, what + ": " + e.getMessage()
                + " (SQLSTATE " + state + ")", e);
    }

    private void rollbackQuietly() {
        try {
            c.rollback();
        } catch (SQLException ignored) {
            // the connection is broken; the server rolls the transaction back when it notices
        }
    }

    private static void closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // connecting failed already; that is the error reported
            }
        }
    }

    @Override
    public void close() {
        try {
            c.close();
        } catch (SQLException e) {
            throw new DestinationUnavailableException("close the connection: " + e.getMessage(), e);
        }
    }
}
