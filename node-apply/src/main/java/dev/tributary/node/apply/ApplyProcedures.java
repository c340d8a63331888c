package dev.tributary.node.apply;

import dev.tributary.capture.apply.ConflictMethod;
import dev.tributary.cql.ast.Call;
import dev.tributary.dictionary.types.CqlType;
import dev.tributary.node.errors.InvalidRequestException;
import dev.tributary.node.exec.ProcedureArgs;
import dev.tributary.node.exec.Procedures;
import dev.tributary.node.exec.ResultColumn;
import dev.tributary.node.exec.SessionContext;
import dev.tributary.node.exec.StatementAccess;
import dev.tributary.node.processes.ProcessRegistry;
import dev.tributary.node.exec.StatementResult;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The procedures of {@code dbms_apply_adm} (docs/REFERENCE.md), by parameter name as in
 * Oracle's package, on this instance's apply processes.
 */
public final class ApplyProcedures implements Procedures {
    private final ApplyProcesses applies;

    private final StatementAccess users;

    /** @param users checks an apply's user against what its queue holds when it starts */
    public ApplyProcedures(ApplyProcesses applies, StatementAccess users) {
        this.applies = applies;
        this.users = users;
    }

    /** Runs the procedure, or returns null when it is not one of dbms_apply_adm's. */
    @Override
    public StatementResult call(String proc, Call c, SessionContext s) {
        switch (proc) {
            case "dbms_apply_adm.create_apply" -> {
                ProcedureArgs a = args(proc, c, "queue_name", "apply_name", "rule_set_name", "message_handler", "ddl_handler",
                        "apply_user", "apply_database_link", "apply_captured", "precommit_handler",
                        "negative_rule_set_name", "source_database");
                for (String unsupported : List.of("rule_set_name", "negative_rule_set_name", "message_handler", "ddl_handler",
                        "precommit_handler", "source_database")) {
                    if (a.has(unsupported)) {
                        throw new InvalidRequestException(proc + ": " + unsupported + " is not supported: an apply process "
                                + "applies every LCR of its queue (the capture's rules choose what enters it) without handlers");
                    }
                }
                applies.create(a.requireString("apply_name"), a.requireString("queue_name"), a.bool("apply_captured", true),
                        a.string("apply_database_link", null), a.string("apply_user", s.username()));
                return StatementResult.of(s);
            }
            case "dbms_apply_adm.start_apply" -> {
                String name = args(proc, c, "apply_name").requireString("apply_name");
                applies.applies().stream().map(ProcessRegistry.Listed::definition).filter(d -> d.name().equalsIgnoreCase(name))
                        .findFirst().ifPresent(d -> users.requireProcessUser("start_apply " + d.name(), "apply_user",
                                d.applyUser(), d.queueName()));
                applies.start(name);
                return StatementResult.of(s);
            }
            case "dbms_apply_adm.stop_apply" -> {
                applies.stop(args(proc, c, "apply_name", "force").requireString("apply_name"));
                return StatementResult.of(s);
            }
            case "dbms_apply_adm.drop_apply" -> {
                applies.drop(args(proc, c, "apply_name", "drop_unused_rule_sets").requireString("apply_name"));
                return StatementResult.of(s);
            }
            case "dbms_apply_adm.set_parameter" -> {
                ProcedureArgs a = args(proc, c, "apply_name", "parameter", "value");
                applies.setParameter(a.requireString("apply_name"), a.requireString("parameter"), a.requireString("value"));
                return StatementResult.of(s);
            }
            case "dbms_apply_adm.set_table_instantiation_scn" -> {
                ProcedureArgs a = args(proc, c, "source_object_name", "source_database_name", "instantiation_scn",
                        "apply_database_link", "recursive");
                String[] t = ProcedureArgs.table(proc, a.requireString("source_object_name"));
                applies.setInstantiationScn(a.string("source_database_name", null), t[0], t[1], a.longValue("instantiation_scn"),
                        a.string("apply_database_link", null));
                return StatementResult.of(s);
            }
            case "dbms_apply_adm.set_schema_instantiation_scn" -> {
                ProcedureArgs a = args(proc, c, "source_schema_name", "source_database_name", "instantiation_scn",
                        "apply_database_link", "recursive");
                applies.setInstantiationScn(a.string("source_database_name", null),
                        a.requireString("source_schema_name").toLowerCase(Locale.ROOT), null, a.longValue("instantiation_scn"),
                        a.string("apply_database_link", null));
                return StatementResult.of(s);
            }
            case "dbms_apply_adm.set_update_conflict_handler" -> {
                ProcedureArgs a = args(proc, c, "object_name", "method_name", "resolution_column", "column_list",
                        "apply_database_link");
                String[] t = ProcedureArgs.table(proc, a.requireString("object_name"));
                String method = a.string("method_name", null);
                applies.setUpdateConflictHandler(t[0], t[1], method == null ? null : method(proc, method),
                        a.string("resolution_column", null), Arrays.asList(a.requireString("column_list").split(",")));
                return StatementResult.of(s);
            }
            case "dbms_streams_adm.instantiate_table" -> {
                ProcedureArgs a = args(proc, c, "table_name", "apply_name");
                String[] t = ProcedureArgs.table(proc, a.requireString("table_name"));
                ApplyProcesses.Instantiation done = applies.instantiateTable(t[0], t[1], a.requireString("apply_name"));
                return StatementResult.rows(List.of(new ResultColumn("instantiation_scn", CqlType.of(CqlType.Kind.BIGINT)),
                        new ResultColumn("rows_copied", CqlType.of(CqlType.Kind.BIGINT))),
                        List.of(List.<Object>of(done.scn(), done.rows())), s, List.of());
            }
            case "dbms_apply_adm.execute_error" -> {
                ProcedureArgs a = args(proc, c, "local_transaction_id", "execute_as_user", "user_procedure");
                applies.executeError(a.requireString("local_transaction_id"));
                return StatementResult.of(s);
            }
            case "dbms_apply_adm.execute_all_errors" -> {
                ProcedureArgs a = args(proc, c, "apply_name", "execute_as_user");
                return count(s, "executed", applies.executeAllErrors(a.requireString("apply_name")));
            }
            case "dbms_apply_adm.delete_error" -> {
                applies.deleteError(args(proc, c, "local_transaction_id").requireString("local_transaction_id"));
                return StatementResult.of(s);
            }
            case "dbms_apply_adm.delete_all_errors" -> {
                return count(s, "deleted", applies.deleteAllErrors(args(proc, c, "apply_name").requireString("apply_name")));
            }
            default -> {
                return null;
            }
        }
    }

    private static ConflictMethod method(String proc, String written) {
        try {
            return ConflictMethod.valueOf(written.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException(proc + ": method_name is one of " + Arrays.toString(ConflictMethod.values())
                    + " (or NULL to remove the handler), got '" + written + "'");
        }
    }

    private static StatementResult count(SessionContext s, String column, int n) {
        return StatementResult.rows(List.of(new ResultColumn(column, CqlType.of(CqlType.Kind.INT))), List.of(List.<Object>of(n)), s,
                List.of());
    }

    private static ProcedureArgs args(String proc, Call c, String... params) {
        return ProcedureArgs.of(proc, c, params);
    }
}
