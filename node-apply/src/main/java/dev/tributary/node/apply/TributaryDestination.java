package dev.tributary.node.apply;

import com.google.protobuf.ByteString;
import dev.tributary.capture.apply.ApplyErrorException;
import dev.tributary.capture.apply.ApplyPolicy;
import dev.tributary.capture.apply.ApplyPosition;
import dev.tributary.capture.apply.ApplyProgress;
import dev.tributary.capture.apply.ApplyTransaction;
import dev.tributary.capture.apply.ConflictHandler;
import dev.tributary.capture.apply.ConflictResolution;
import dev.tributary.capture.apply.DestinationUnavailableException;
import dev.tributary.capture.lcr.DdlLcr;
import dev.tributary.capture.lcr.LcrColumn;
import dev.tributary.capture.lcr.RowLcr;
import dev.tributary.capture.log.LogRecord;
import dev.tributary.cql.lexer.Identifiers;
import dev.tributary.node.coord.TransportSettings;
import dev.tributary.node.net.WireValues;
import dev.tributary.node.transport.LinkCalls;
import dev.tributary.protocol.v1.CqlServiceGrpc;
import dev.tributary.protocol.v1.ExecuteRequest;
import dev.tributary.protocol.v1.ExecuteResponse;
import dev.tributary.protocol.v1.Row;
import dev.tributary.protocol.v1.SessionState;
import dev.tributary.protocol.v1.Value;
import io.grpc.Channel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.StringJoiner;
import java.util.concurrent.TimeUnit;

/**
 * An apply's destination in another Tributary cluster, reached through a database link, or in
 * this one: each
 * source transaction becomes one CQL batch — one transaction, one commit SCN there — that holds
 * its changes and the apply's progress row ({@code tributary_apply.progress}), so the
 * destination's own data says which transactions it holds. The session carries the apply tag
 * (0x00): the capture rules dbms_streams_adm makes skip tagged changes, so clusters that apply
 * each other's changes do not send them back.
 *
 * <p>One endpoint of the link serves a connection: a call that fails there leaves it unknown
 * whether the batch committed, and the apply reconnects and reads the progress row again rather
 * than resending the batch elsewhere. UPDATE and DELETE compare the old values they carry with
 * the row as the destination holds it before the batch (read with a SELECT, not under a lock:
 * CQL has no conditional batch here, so a local write landing between that read and the batch
 * goes unnoticed, last write wins).
 */
final class TributaryDestination implements Destination {
    static final String KEYSPACE = "tributary_apply";
    private static final String PROGRESS = KEYSPACE + ".progress";
    private static final String ERRORS = KEYSPACE + ".errors";
    /** Oracle's default apply tag: what the apply writes is not captured again by default rules. */
    static final byte[] APPLY_TAG = {0};
    private static final long RPC_SECONDS = 60;
    private static final int COPY_BATCH = 100;

    private final Channel channel;
    private final String where;
    private final SessionState session;
    /** The primary key columns of destination tables, partition key first, by "ks.t"; forgotten after DDL. */
    private final Map<String, List<String>> keys = new HashMap<>();
    private boolean counted;
    private long applied;
    private long errored;

    private record Stmt(String cql, List<Value> values) {
    }

    private TributaryDestination(Channel channel, String where, String user) {
        this.channel = channel;
        this.where = where;
        this.session = SessionState.newBuilder().setUsername(user).setTag(ByteString.copyFrom(APPLY_TAG)).setHasTag(true).build();
    }

    /**
     * This cluster as the destination (an apply with no database link, for a queue that a
     * downstream capture fills with another database's changes): writes go through this node's
     * own CQL service as the apply user, routed as any client's.
     */
    static TributaryDestination local(Channel trusted, String user) {
        TributaryDestination d = new TributaryDestination(trusted, "this cluster", user);
        d.setUp();
        return d;
    }

    /**
     * Connects to the first endpoint of the link that answers and makes sure the progress and
     * error tables exist there.
     *
     * @throws DestinationUnavailableException when no endpoint answers
     */
    static TributaryDestination connect(LinkCalls calls, TransportSettings.Link link) {
        DestinationUnavailableException last = null;
        for (String endpoint : link.endpoints()) {
            try {
                TributaryDestination d = new TributaryDestination(calls.channel(link, endpoint), "database link " + link.name()
                        + " (" + endpoint + ")", link.credentialed() ? link.user() : "tributary-apply");
                d.setUp();
                return d;
            } catch (StatusRuntimeException e) {
                last = new DestinationUnavailableException("log in at " + endpoint + " through database link " + link.name()
                        + ": " + e.getStatus(), e);
            } catch (DestinationUnavailableException e) {
                last = e;
            }
        }
        throw last != null ? last : new DestinationUnavailableException("database link " + link.name() + " has no endpoint", null);
    }

    private void setUp() {
        exec("create the apply's keyspace", "CREATE KEYSPACE IF NOT EXISTS " + KEYSPACE
                + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}", List.of());
        exec("create the progress table", "CREATE TABLE IF NOT EXISTS " + PROGRESS + " (apply_name text PRIMARY KEY, "
                + "source_database text, commit_scn bigint, transaction_id text, applied_transactions bigint, "
                + "error_transactions bigint)", List.of());
        exec("create the error queue", "CREATE TABLE IF NOT EXISTS " + ERRORS + " (apply_name text, local_transaction_id text, "
                + "source_database text, source_transaction_id text, source_commit_scn bigint, message_count int, "
                + "error_number int, error_message text, error_creation_time timestamp, lcrs blob, "
                + "PRIMARY KEY (apply_name, local_transaction_id))", List.of());
    }

    /**
     * Reads the apply's progress. There is no epoch to take here (a CQL batch cannot be
     * conditional): one process at a time applies, as {@code ApplyProcesses} sees to on the
     * instance that runs the apply.
     */
    @Override
    public ApplyProgress open(String apply) {
        ApplyPosition lw = counts(apply);
        return new ApplyProgress(lw, Set.of(), 0);
    }

    /** Reads the progress row: the low watermark, and the counts this connection goes on from. */
    private ApplyPosition counts(String apply) {
        ExecuteResponse r = exec("read the progress of apply " + apply, "SELECT commit_scn, transaction_id, "
                + "applied_transactions, error_transactions FROM " + PROGRESS + " WHERE apply_name = ?", List.of(text(apply)));
        counted = true;
        if (r.getRowsCount() == 0) {
            applied = 0;
            errored = 0;
            return ApplyPosition.START;
        }
        Row row = r.getRows(0);
        applied = row.getValues(2).getInteger();
        errored = row.getValues(3).getInteger();
        return new ApplyPosition(row.getValues(0).getInteger(), row.getValues(1).getText());
    }

    /**
     * Only the low watermark moves here: without a conditional write, transactions recorded
     * above it could not be folded in safely, so a Tributary destination takes one transaction
     * at a time (parallelism 1), each as the new low watermark.
     */
    private void requireLowWatermark(String apply, boolean lowWatermark) {
        if (!lowWatermark) {
            throw new IllegalStateException("apply " + apply + ": a Tributary destination applies one transaction at a time");
        }
        if (!counted) {
            counts(apply);
        }
    }

    @Override
    public void advance(String apply, long epoch, ApplyPosition to) {
        exec("move the low watermark of apply " + apply, "UPDATE " + PROGRESS + " SET commit_scn = ?, transaction_id = ? "
                + "WHERE apply_name = ?", List.of(integer(to.commitScn()), text(to.transactionId()), text(apply)));
    }

    private Stmt progressWrite(String apply, String sourceDatabase, ApplyPosition to, long appliedTotal, long errorTotal) {
        return new Stmt("INSERT INTO " + PROGRESS + " (apply_name, source_database, commit_scn, transaction_id, "
                + "applied_transactions, error_transactions) VALUES (?, ?, ?, ?, ?, ?)", List.of(text(apply), text(sourceDatabase),
                integer(to.commitScn()), text(to.transactionId()), integer(appliedTotal), integer(errorTotal)));
    }

    @Override
    public void apply(String apply, long epoch, ApplyTransaction tx, ApplyPolicy policy, boolean lowWatermark) {
        requireLowWatermark(apply, lowWatermark);
        List<Stmt> batch = changes(tx.records(), policy);
        batch.add(progressWrite(apply, tx.sourceDatabase(), tx.position(), applied + 1, errored));
        batch("apply transaction " + tx.localTransactionId(), batch);
        applied++;
    }

    @Override
    public void recordError(String apply, long epoch, ApplyTransaction tx, ApplyErrorException error, boolean lowWatermark) {
        requireLowWatermark(apply, lowWatermark);
        List<Stmt> batch = new ArrayList<>();
        batch.add(new Stmt("INSERT INTO " + ERRORS + " (apply_name, local_transaction_id, source_database, "
                + "source_transaction_id, source_commit_scn, message_count, error_number, error_message, error_creation_time, "
                + "lcrs) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", List.of(text(apply), text(tx.localTransactionId()),
                text(tx.sourceDatabase()), text(tx.position().transactionId()), integer(tx.position().commitScn()),
                integer(tx.records().size()), integer(error.errorNumber()), text(String.valueOf(error.getMessage())),
                Value.newBuilder().setTimestampMillis(System.currentTimeMillis()).build(),
                Value.newBuilder().setBlob(ByteString.copyFrom(ErrorTransaction.encode(tx.records()))).build())));
        batch.add(progressWrite(apply, tx.sourceDatabase(), tx.position(), applied, errored + 1));
        batch("put transaction " + tx.localTransactionId() + " in the error queue of apply " + apply, batch);
        errored++;
    }

    @Override
    public List<ErrorTransaction> errors(String apply) {
        ExecuteResponse r = exec("read the error queue of apply " + apply, "SELECT local_transaction_id, source_database, "
                + "source_transaction_id, source_commit_scn, message_count, error_number, error_message, error_creation_time FROM "
                + ERRORS + " WHERE apply_name = ?", List.of(text(apply)));
        List<ErrorTransaction> out = new ArrayList<>();
        for (Row row : r.getRowsList()) {
            out.add(new ErrorTransaction(apply, row.getValues(0).getText(), row.getValues(1).getText(), row.getValues(2).getText(),
                    row.getValues(3).getInteger(), (int) row.getValues(4).getInteger(), (int) row.getValues(5).getInteger(),
                    row.getValues(6).getText(), Instant.ofEpochMilli(row.getValues(7).getTimestampMillis())));
        }
        out.sort(Comparator.comparingLong(ErrorTransaction::sourceCommitScn).thenComparing(ErrorTransaction::localTransactionId));
        return out;
    }

    @Override
    public boolean executeError(String apply, String localTransactionId, ApplyPolicy policy) {
        ExecuteResponse r = exec("read error transaction " + localTransactionId, "SELECT lcrs FROM " + ERRORS
                + " WHERE apply_name = ? AND local_transaction_id = ?", List.of(text(apply), text(localTransactionId)));
        if (r.getRowsCount() == 0) {
            return false;
        }
        List<Stmt> batch = changes(ErrorTransaction.decode(r.getRows(0).getValues(0).getBlob().toByteArray()), policy);
        batch.add(deleteErrorRow(apply, localTransactionId));
        batch("execute error transaction " + localTransactionId, batch);
        return true;
    }

    @Override
    public boolean deleteError(String apply, String localTransactionId) {
        ExecuteResponse r = exec("read error transaction " + localTransactionId, "SELECT local_transaction_id FROM " + ERRORS
                + " WHERE apply_name = ? AND local_transaction_id = ?", List.of(text(apply), text(localTransactionId)));
        if (r.getRowsCount() == 0) {
            return false;
        }
        batch("delete error transaction " + localTransactionId, List.of(deleteErrorRow(apply, localTransactionId)));
        return true;
    }

    /**
     * Creates the table when missing (its keyspace must exist here) and writes the rows in
     * batches of {@value #COPY_BATCH}, tagged like the apply's writes: not one transaction, but
     * the apply is held while it runs, so no change of the stream lands in between.
     */
    @Override
    public long copyTable(String owner, String name, List<CopyColumn> columns, java.util.Iterator<Map<String, Object>> rows) {
        String table = Identifiers.quoteIfNeeded(owner) + "." + Identifiers.quoteIfNeeded(name);
        StringJoiner defs = new StringJoiner(", ");
        StringJoiner partition = new StringJoiner(", ", "(", ")");
        StringJoiner key = new StringJoiner(", ");
        StringJoiner names = new StringJoiner(", ");
        StringJoiner marks = new StringJoiner(", ");
        for (CopyColumn c : columns) {
            defs.add(Identifiers.quoteIfNeeded(c.name()) + " " + c.type().cql());
            names.add(Identifiers.quoteIfNeeded(c.name()));
            marks.add("?");
            switch (c.kind()) {
                case PARTITION_KEY -> partition.add(Identifiers.quoteIfNeeded(c.name()));
                case CLUSTERING -> key.add(Identifiers.quoteIfNeeded(c.name()));
                default -> {
                }
            }
        }
        String primaryKey = key.length() == 0 ? partition.toString() : partition + ", " + key;
        exec("create " + table, "CREATE TABLE IF NOT EXISTS " + table + " (" + defs + ", PRIMARY KEY (" + primaryKey + "))",
                List.of());
        keys.remove(owner + "." + name);
        String insert = "INSERT INTO " + table + " (" + names + ") VALUES (" + marks + ")";
        long n = 0;
        List<Stmt> batch = new ArrayList<>();
        while (rows.hasNext()) {
            Map<String, Object> row = rows.next();
            batch.add(new Stmt(insert, columns.stream().map(c -> WireValues.toWire(c.type(), row.get(c.name()))).toList()));
            n++;
            if (batch.size() == COPY_BATCH) {
                batch("copy " + table, batch);
                batch.clear();
            }
        }
        if (!batch.isEmpty()) {
            batch("copy " + table, batch);
        }
        return n;
    }

    private static Stmt deleteErrorRow(String apply, String localTransactionId) {
        return new Stmt("DELETE FROM " + ERRORS + " WHERE apply_name = ? AND local_transaction_id = ?",
                List.of(text(apply), text(localTransactionId)));
    }

    /**
     * The statements of a transaction's row changes, each checked against the destination's row
     * (as the transaction's earlier changes leave it). DDL runs at once: CQL has no DDL in a batch.
     */
    private List<Stmt> changes(List<LogRecord> records, ApplyPolicy policy) {
        List<Stmt> out = new ArrayList<>();
        Map<String, Optional<Map<String, Object>>> overlay = new HashMap<>();
        for (LogRecord r : records) {
            if (r.lcr() instanceof DdlLcr ddl) {
                ddl(ddl);
            } else {
                row((RowLcr) r.lcr(), policy, overlay, out);
            }
        }
        return out;
    }

    private void ddl(DdlLcr ddl) {
        String ks = ddl.currentSchema() != null ? ddl.currentSchema() : ddl.objectOwner();
        ExecuteRequest.Builder req = ExecuteRequest.newBuilder().setStatement(ddl.ddlText())
                .setSession(ks == null ? session : session.toBuilder().setKeyspace(ks).build());
        call("apply DDL " + ddl.ddlText(), req.build());
        keys.clear();
    }

    private void row(RowLcr row, ApplyPolicy policy, Map<String, Optional<Map<String, Object>>> overlay, List<Stmt> out) {
        String table = Identifiers.quoteIfNeeded(row.objectOwner()) + "." + Identifiers.quoteIfNeeded(row.objectName());
        List<String> keyColumns = keyColumns(row.objectOwner(), row.objectName());
        List<LcrColumn> key = DestinationRows.key(row, keyColumns, table);
        String rowId = row.objectOwner() + "." + row.objectName() + DestinationRows.keyText(key);
        List<ConflictHandler> handlers = policy.handlersOf(row.objectOwner(), row.objectName());
        Optional<Map<String, Object>> current = current(table, key, row, handlers, overlay.get(rowId));
        switch (row.commandType()) {
            case RowLcr.INSERT -> {
                if (current.isPresent()) {
                    throw ConflictResolution.exists(row, DestinationRows.keyText(key));
                }
                StringJoiner names = new StringJoiner(", ");
                StringJoiner marks = new StringJoiner(", ");
                for (LcrColumn c : row.newValues()) {
                    names.add(Identifiers.quoteIfNeeded(c.name()));
                    marks.add("?");
                }
                out.add(new Stmt("INSERT INTO " + table + " (" + names + ") VALUES (" + marks + ")", values(row.newValues())));
                overlay.put(rowId, Optional.of(valuesByName(row.newValues())));
            }
            case RowLcr.UPDATE, RowLcr.DELETE -> {
                if (current.isEmpty()) {
                    throw ConflictResolution.missing(row, DestinationRows.keyText(key));
                }
                Map<String, Object> now = current.get();
                Set<String> conflicting = new LinkedHashSet<>();
                for (LcrColumn o : DestinationRows.nonKey(keyColumns, row.oldValues())) {
                    if (!Objects.equals(o.value(), now.get(o.name()))) {
                        conflicting.add(o.name());
                    }
                }
                ConflictResolution.Action action = ConflictResolution.resolve(row, conflicting, handlers,
                        column -> compare(row.column(column), now.get(column)));
                if (action == ConflictResolution.Action.DISCARD) {
                    return;
                }
                String where = whereKey(key);
                if (row.commandType().equals(RowLcr.DELETE)) {
                    out.add(new Stmt("DELETE FROM " + table + " WHERE " + where, values(key)));
                    overlay.put(rowId, Optional.empty());
                    return;
                }
                List<LcrColumn> set = DestinationRows.nonKey(keyColumns, row.newValues());
                if (set.isEmpty()) {
                    return;
                }
                StringJoiner assignments = new StringJoiner(", ");
                set.forEach(c -> assignments.add(Identifiers.quoteIfNeeded(c.name()) + " = ?"));
                List<Value> params = new ArrayList<>(values(set));
                params.addAll(values(key));
                out.add(new Stmt("UPDATE " + table + " SET " + assignments + " WHERE " + where, params));
                Map<String, Object> after = new HashMap<>(now);
                after.putAll(valuesByName(set));
                overlay.put(rowId, Optional.of(after));
            }
            default -> throw new ApplyErrorException(ApplyErrorException.DESTINATION_ERROR, "a Tributary destination does not "
                    + "apply " + row.commandType() + " LCRs (" + row.objectOwner() + "." + row.objectName() + ")");
        }
    }

    /**
     * The destination's row as the transaction so far leaves it: the columns the change and its
     * handlers' resolution columns name, or empty when there is no row.
     */
    private Optional<Map<String, Object>> current(String table, List<LcrColumn> key, RowLcr row, List<ConflictHandler> handlers,
            Optional<Map<String, Object>> overlaid) {
        if (overlaid != null) {
            return overlaid;
        }
        Map<String, LcrColumn> columns = new LinkedHashMap<>();
        key.forEach(k -> columns.put(k.name(), k));
        for (List<LcrColumn> cols : java.util.Arrays.asList(row.oldValues(), row.newValues())) {
            if (cols != null) {
                cols.forEach(c -> columns.putIfAbsent(c.name(), c));
            }
        }
        for (ConflictHandler h : handlers) {
            if (h.resolutionColumn() != null && row.column(h.resolutionColumn()) != null) {
                columns.putIfAbsent(h.resolutionColumn(), row.column(h.resolutionColumn()));
            }
        }
        List<LcrColumn> read = new ArrayList<>(columns.values());
        StringJoiner names = new StringJoiner(", ");
        read.forEach(c -> names.add(Identifiers.quoteIfNeeded(c.name())));
        String where = whereKey(key);
        ExecuteResponse r = exec("read " + table + DestinationRows.keyText(key), "SELECT " + names + " FROM " + table + " WHERE " + where,
                values(key));
        if (r.getRowsCount() == 0) {
            return Optional.empty();
        }
        Row found = r.getRows(0);
        Map<String, Object> values = new HashMap<>();
        for (int i = 0; i < read.size(); i++) {
            LcrColumn c = read.get(i);
            values.put(c.name(), WireValues.fromWire(c.type(), found.getValues(i), table + "." + c.name()));
        }
        return Optional.of(values);
    }

    /** How the change's value of a column compares with the row's (null sorts first), for MAXIMUM and MINIMUM. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compare(LcrColumn mine, Object theirs) {
        Object v = mine == null ? null : mine.value();
        if (v == null || theirs == null) {
            return v == null ? (theirs == null ? 0 : -1) : 1;
        }
        if (!(v instanceof Comparable c)) {
            throw new ApplyErrorException(ApplyErrorException.DESTINATION_ERROR, "column " + mine.name()
                    + " cannot resolve a conflict by MAXIMUM or MINIMUM: its values have no order");
        }
        return c.compareTo(theirs);
    }

    /** The primary key columns of a destination table, partition key first, as its schema says. */
    private List<String> keyColumns(String owner, String name) {
        return keys.computeIfAbsent(owner + "." + name, id -> {
            ExecuteResponse r = exec("read the columns of " + id, "SELECT column_name, kind, position FROM system_schema.columns "
                    + "WHERE keyspace_name = ? AND table_name = ?", List.of(text(owner), text(name)));
            List<Row> partition = new ArrayList<>();
            List<Row> clustering = new ArrayList<>();
            for (Row row : r.getRowsList()) {
                switch (row.getValues(1).getText()) {
                    case "partition_key" -> partition.add(row);
                    case "clustering" -> clustering.add(row);
                    default -> {
                    }
                }
            }
            if (partition.isEmpty()) {
                throw new ApplyErrorException(ApplyErrorException.DESTINATION_ERROR, "the destination (" + where + ") has no "
                        + "table " + id + "; create it there first");
            }
            Comparator<Row> byPosition = Comparator.comparingLong(row -> row.getValues(2).getInteger());
            partition.sort(byPosition);
            clustering.sort(byPosition);
            List<String> out = new ArrayList<>();
            partition.forEach(row -> out.add(row.getValues(0).getText()));
            clustering.forEach(row -> out.add(row.getValues(0).getText()));
            return List.copyOf(out);
        });
    }

    private void batch(String what, List<Stmt> statements) {
        StringBuilder cql = new StringBuilder("BEGIN BATCH ");
        List<Value> values = new ArrayList<>();
        for (Stmt s : statements) {
            cql.append(s.cql()).append("; ");
            values.addAll(s.values());
        }
        exec(what, cql.append("APPLY BATCH").toString(), values);
    }

    private ExecuteResponse exec(String what, String cql, List<Value> values) {
        return call(what, ExecuteRequest.newBuilder().setStatement(cql).setSession(session).addAllBoundValues(values).build());
    }

    /**
     * One call, no retry: a failed connection, a timeout or a node that cannot take writes now
     * leaves the outcome unknown ({@link DestinationUnavailableException}: the apply reads its
     * progress again); the destination refusing the statement is the transaction's error.
     */
    private ExecuteResponse call(String what, ExecuteRequest request) {
        try {
            return CqlServiceGrpc.newBlockingStub(channel).withDeadlineAfter(RPC_SECONDS, TimeUnit.SECONDS).execute(request);
        } catch (StatusRuntimeException e) {
            Status.Code code = e.getStatus().getCode();
            if (code == Status.Code.UNAVAILABLE || code == Status.Code.DEADLINE_EXCEEDED || code == Status.Code.UNAUTHENTICATED
                    || code == Status.Code.CANCELLED || code == Status.Code.RESOURCE_EXHAUSTED || code == Status.Code.ABORTED) {
                throw new DestinationUnavailableException(what + " at " + where + ": " + e.getStatus(), e);
            }
            throw new ApplyErrorException(ApplyErrorException.DESTINATION_ERROR, what + " at " + where + ": "
                    + e.getStatus().getDescription(), e);
        }
    }

    private static String whereKey(List<LcrColumn> key) {
        StringJoiner where = new StringJoiner(" AND ");
        key.forEach(k -> where.add(Identifiers.quoteIfNeeded(k.name()) + " = ?"));
        return where.toString();
    }

    private static Map<String, Object> valuesByName(List<LcrColumn> cols) {
        Map<String, Object> out = new HashMap<>();
        cols.forEach(c -> out.put(c.name(), c.value()));
        return out;
    }

    private static List<Value> values(List<LcrColumn> cols) {
        return cols.stream().map(c -> WireValues.toWire(c.type(), c.value())).toList();
    }

    private static Value text(String s) {
        return Value.newBuilder().setText(s).build();
    }

    private static Value integer(long n) {
        return Value.newBuilder().setInteger(n).build();
    }

    @Override
    public void close() {
        // the channel is the node's, shared with every call through the link; nothing of the connection's own to release
    }
}
