package dev.tributary.node.apply;

import dev.tributary.capture.apply.ApplyPosition;
import dev.tributary.capture.apply.ApplyWorker;
import dev.tributary.capture.apply.ConflictHandler;
import dev.tributary.capture.apply.IgnoredDdl;
import dev.tributary.dictionary.types.CqlType;
import dev.tributary.node.apply.ApplyDefinition;
import dev.tributary.node.apply.ErrorTransaction;
import dev.tributary.node.exec.RowView;
import dev.tributary.node.exec.StaticTable;
import dev.tributary.node.exec.SystemTables;
import dev.tributary.node.exec.TableSource;
import dev.tributary.node.processes.ProcessRegistry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The dictionary views of apply processes: {@code system_views.apply} (DBA_APPLY, with the
 * applied low-watermark), {@code apply_parameters}, {@code apply_error} (DBA_APPLY_ERROR, read
 * from the destinations, where the error queues are), {@code apply_instantiated_objects},
 * {@code apply_instantiated_schemas}, {@code apply_ignored_ddl} (the DDL LCRs an apply could not apply and
 * went past) and {@code apply_conflict_columns}.
 */
public final class ApplyViews {
    private static final CqlType TEXT = CqlType.of(CqlType.Kind.TEXT);
    private static final CqlType BIGINT = CqlType.of(CqlType.Kind.BIGINT);
    private static final CqlType INT = CqlType.of(CqlType.Kind.INT);
    private static final CqlType TIMESTAMP = CqlType.of(CqlType.Kind.TIMESTAMP);

    private final ApplyProcesses applies;

    public ApplyViews(ApplyProcesses applies) {
        this.applies = applies;
    }

    public List<TableSource> tables() {
        return List.of(
                new StaticTable("system_views", "apply", SystemTables.cols("apply_name", TEXT, "queue_name", TEXT,
                        "apply_captured", TEXT, "apply_database_link", TEXT, "apply_user", TEXT, "status", TEXT, "state", TEXT,
                        "applied_scn", BIGINT, "applied_transaction_id", TEXT, "total_applied", BIGINT, "total_errors", BIGINT,
                        "error_number", INT, "error_message", TEXT, "destination_error", TEXT),
                        List.of("apply_name"), List.of(), this::applyRows),
                new StaticTable("system_views", "apply_parameters", SystemTables.cols("apply_name", TEXT, "parameter", TEXT,
                        "value", TEXT), List.of("apply_name"), List.of("parameter"), this::parameterRows),
                new StaticTable("system_views", "apply_error", SystemTables.cols("apply_name", TEXT, "queue_name", TEXT,
                        "local_transaction_id", TEXT, "source_database", TEXT, "source_transaction_id", TEXT,
                        "source_commit_scn", BIGINT, "message_count", INT, "error_number", INT, "error_message", TEXT,
                        "error_creation_time", TIMESTAMP), List.of("apply_name"), List.of("local_transaction_id"),
                        this::errorRows),
                new StaticTable("system_views", "apply_instantiated_objects", SystemTables.cols("source_database", TEXT,
                        "source_object_owner", TEXT, "source_object_name", TEXT, "source_object_type", TEXT,
                        "instantiation_scn", BIGINT, "apply_database_link", TEXT), List.of("source_database"),
                        List.of("source_object_owner", "source_object_name"), () -> instantiatedRows(true)),
                new StaticTable("system_views", "apply_instantiated_schemas", SystemTables.cols("source_database", TEXT,
                        "source_schema", TEXT, "instantiation_scn", BIGINT, "apply_database_link", TEXT),
                        List.of("source_database"), List.of("source_schema"), () -> instantiatedRows(false)),
                new StaticTable("system_views", "apply_ignored_ddl", SystemTables.cols("apply_name", TEXT, "source_database",
                        TEXT, "scn", BIGINT, "transaction_id", TEXT, "command_type", TEXT, "object_owner", TEXT, "object_name",
                        TEXT, "ddl_text", TEXT, "reason", TEXT), List.of("apply_name"), List.of("scn", "transaction_id"),
                        this::ignoredDdlRows),
                new StaticTable("system_views", "apply_conflict_columns", SystemTables.cols("object_owner", TEXT,
                        "object_name", TEXT, "method_name", TEXT, "resolution_column", TEXT, "column_name", TEXT),
                        List.of("object_owner"), List.of("object_name", "column_name"), this::conflictRows));
    }

    private List<RowView> ignoredDdlRows() {
        List<RowView> out = new ArrayList<>();
        for (IgnoredDdl d : applies.ignoredDdl()) {
            out.add(SystemTables.row("apply_name", d.apply(), "source_database", d.sourceDatabase(), "scn", d.scn(), "transaction_id",
                    d.transactionId(), "command_type", d.commandType(), "object_owner", d.objectOwner(), "object_name",
                    d.objectName(), "ddl_text", d.ddlText(), "reason", d.reason()));
        }
        return out;
    }

    private List<RowView> applyRows() {
        List<RowView> out = new ArrayList<>();
        for (ProcessRegistry.Listed<ApplyDefinition, ApplyWorker> s : applies.applies()) {
            ApplyDefinition d = s.definition();
            ApplyWorker w = s.worker();
            ApplyPosition p = w == null ? null : w.committed();
            out.add(SystemTables.row("apply_name", d.name(), "queue_name", d.queueName(), "apply_captured", d.applyCaptured() ? "YES" : "NO",
                    "apply_database_link", d.databaseLink(), "apply_user", d.applyUser(), "status", d.status().name(),
                    "state", w == null ? null : w.state().label(), "applied_scn", p == null ? null : p.commitScn(),
                    "applied_transaction_id", p == null ? null : p.transactionId(),
                    "total_applied", w == null ? null : w.appliedTransactions(),
                    "total_errors", w == null ? null : w.errorTransactions(),
                    "error_number", d.errorNumber() == 0 ? null : d.errorNumber(), "error_message", d.errorMessage(),
                    "destination_error", w == null ? null : w.lastDestinationError()));
        }
        return out;
    }

    private List<RowView> parameterRows() {
        List<RowView> out = new ArrayList<>();
        for (ProcessRegistry.Listed<ApplyDefinition, ApplyWorker> s : applies.applies()) {
            s.definition().parameters().forEach((p, v) -> out.add(SystemTables.row("apply_name", s.definition().name(), "parameter", p,
                    "value", v)));
        }
        return out;
    }

    private List<RowView> errorRows() {
        Map<String, String> queues = new LinkedHashMap<>();
        applies.applies().forEach(s -> queues.put(s.definition().name(), s.definition().queueName()));
        List<RowView> out = new ArrayList<>();
        for (ErrorTransaction e : applies.errors()) {
            out.add(SystemTables.row("apply_name", e.applyName(), "queue_name", queues.get(e.applyName()), "local_transaction_id",
                    e.localTransactionId(), "source_database", e.sourceDatabase(), "source_transaction_id",
                    e.sourceTransactionId(), "source_commit_scn", e.sourceCommitScn(), "message_count", e.messageCount(),
                    "error_number", e.errorNumber(), "error_message", e.errorMessage(), "error_creation_time",
                    e.errorCreationTime()));
        }
        return out;
    }

    private List<RowView> instantiatedRows(boolean tables) {
        List<RowView> out = new ArrayList<>();
        for (ApplyProcesses.Instantiated i : applies.instantiated()) {
            if ((i.name() != null) != tables) {
                continue;
            }
            out.add(tables
                    ? SystemTables.row("source_database", i.sourceDatabase(), "source_object_owner", i.owner(), "source_object_name", i.name(),
                            "source_object_type", "TABLE", "instantiation_scn", i.scn(), "apply_database_link", i.databaseLink())
                    : SystemTables.row("source_database", i.sourceDatabase(), "source_schema", i.owner(), "instantiation_scn", i.scn(),
                            "apply_database_link", i.databaseLink()));
        }
        return out;
    }

    private List<RowView> conflictRows() {
        List<RowView> out = new ArrayList<>();
        for (ConflictHandler h : applies.conflictHandlers()) {
            for (String col : h.columns()) {
                out.add(SystemTables.row("object_owner", h.owner(), "object_name", h.table(), "method_name", h.method().name(),
                        "resolution_column", h.resolutionColumn(), "column_name", col));
            }
        }
        return out;
    }
}
