package dev.tributary.node.exec;

import dev.tributary.cql.ast.Call;
import dev.tributary.node.capture.CaptureDefinition;
import dev.tributary.node.capture.CaptureProcesses;
import dev.tributary.node.errors.ErrorCode;
import dev.tributary.node.errors.InvalidRequestException;
import dev.tributary.node.write.CommitPipeline;
import dev.tributary.rules.QualifiedName;
import dev.tributary.rules.RuleCatalog;
import dev.tributary.rules.RuleSetRole;
import dev.tributary.rules.StreamsClient;
import dev.tributary.rules.StreamsRuleOptions;
import dev.tributary.rules.StreamsRulesResult;
import dev.tributary.rules.SubsetRulesResult;
import dev.tributary.rules.errors.RulesException;
import dev.tributary.dictionary.types.CqlType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The administration procedures of docs/REFERENCE.md that manage capture processes, queues
 * and rules: {@code dbms_capture_adm}, {@code dbms_streams_adm} and {@code dbms_rule_adm}, by
 * parameter name as in the capture seed.
 */
final class AdminProcedures {
    private final CaptureProcesses captures;
    private final CommitPipeline pipeline;

    /** @param users checks a capture's user against what its queue holds when it starts */
    private final StatementAccess users;

    AdminProcedures(CaptureProcesses captures, CommitPipeline pipeline, StatementAccess users) {
        this.users = users;
        this.captures = captures;
        this.pipeline = pipeline;
    }

    /** Runs the procedure, or returns null when it is none of these packages'. */
    StatementResult call(String proc, Call c, SessionContext s) {
        try {
            return dispatch(proc, c, s);
        } catch (RulesException e) {
            ErrorCode code = switch (e.code()) {
                case "RULE_NOT_FOUND", "RULE_SET_NOT_FOUND" -> ErrorCode.NOT_FOUND;
                case "RULE_EXISTS", "RULE_SET_EXISTS" -> ErrorCode.ALREADY_EXISTS;
                default -> ErrorCode.INVALID_REQUEST;
            };
            throw new InvalidRequestException(code, proc + ": " + e.getMessage());
        }
    }

    private StatementResult dispatch(String proc, Call c, SessionContext s) {
        switch (proc) {
            case "dbms_streams_adm.set_up_queue" -> {
                ProcedureArgs a = args(proc, c, "queue_table", "storage_clause", "queue_name", "queue_user", "comment");
                captures.setUpQueue(a.string("queue_name", a.string("queue_table", "streams_queue")));
                return StatementResult.of(s);
            }
            case "dbms_capture_adm.create_capture" -> {
                ProcedureArgs a = args(proc, c, "queue_name", "capture_name", "rule_set_name", "start_scn", "source_database",
                        "use_database_link", "first_scn", "logfile_assignment", "negative_rule_set_name", "capture_user");
                captures.create(a.requireString("capture_name"), a.requireString("queue_name"),
                        ruleSetName(a.string("rule_set_name", null)), ruleSetName(a.string("negative_rule_set_name", null)),
                        a.string("capture_user", s.username()), a.longValue("first_scn"), a.longValue("start_scn"), currentScn(),
                        s.sessionId(), source(proc, a));
                return StatementResult.of(s);
            }
            case "dbms_capture_adm.build" -> {
                args(proc, c);
                long first = captures.build(s.username(), s.sessionId());
                return StatementResult.rows(List.of(new ResultColumn("first_scn", CqlType.of(CqlType.Kind.BIGINT))),
                        List.of(List.<Object>of(first)), s, List.of());
            }
            case "dbms_capture_adm.start_capture" -> {
                CaptureDefinition d = existing(args(proc, c, "capture_name").requireString("capture_name"));
                users.requireProcessUser("start_capture " + d.name(), "capture_user", d.captureUser(), d.queueName());
                captures.start(d.name());
                return StatementResult.of(s);
            }
            case "dbms_capture_adm.stop_capture" -> {
                captures.stop(args(proc, c, "capture_name", "force").requireString("capture_name"));
                return StatementResult.of(s);
            }
            case "dbms_capture_adm.alter_capture" -> {
                ProcedureArgs a = args(proc, c, "capture_name", "rule_set_name", "remove_rule_set", "start_scn", "use_database_link",
                        "first_scn", "negative_rule_set_name", "remove_negative_rule_set", "capture_user", "source_database");
                if (a.has("source_database")) {
                    // CAP-CRE-2: the redo a capture mined so far, its checkpoints and its LogMiner dictionary are the source's
                    throw new InvalidRequestException(proc + ": the source database of a capture process cannot change; "
                            + "drop the capture and create it again with dbms_capture_adm.create_capture(source_database => ...)");
                }
                captures.alter(a.requireString("capture_name"), ruleSetName(a.string("rule_set_name", null)),
                        ruleSetName(a.string("negative_rule_set_name", null)), a.bool("remove_negative_rule_set", false),
                        a.longValue("first_scn"), a.longValue("start_scn"),
                        a.has("use_database_link") ? a.bool("use_database_link", false) : null);
                return StatementResult.of(s);
            }
            case "dbms_capture_adm.prepare_table_instantiation" -> {
                ProcedureArgs a = args(proc, c, "table_name", "supplemental_logging");
                String[] t = ProcedureArgs.table(proc, a.requireString("table_name"));
                captures.prepare(t[0] + "." + t[1], prepareScn());
                return StatementResult.of(s);
            }
            case "dbms_capture_adm.prepare_schema_instantiation" -> {
                ProcedureArgs a = args(proc, c, "schema_name", "supplemental_logging");
                captures.prepare(a.requireString("schema_name").toLowerCase(Locale.ROOT) + ".*", prepareScn());
                return StatementResult.of(s);
            }
            case "dbms_capture_adm.prepare_global_instantiation" -> {
                args(proc, c, "supplemental_logging");
                captures.prepare("*", prepareScn());
                return StatementResult.of(s);
            }
            case "dbms_capture_adm.set_parameter" -> {
                ProcedureArgs a = args(proc, c, "capture_name", "parameter", "value");
                captures.setParameter(a.requireString("capture_name"), a.requireString("parameter"), a.requireString("value"));
                return StatementResult.of(s);
            }
            case "dbms_capture_adm.include_extra_attribute" -> {
                ProcedureArgs a = args(proc, c, "capture_name", "attribute_name", "include");
                captures.includeExtraAttribute(a.requireString("capture_name"), a.requireString("attribute_name"),
                        a.bool("include", true));
                return StatementResult.of(s);
            }
            case "dbms_system.restricted_session" -> {
                // the counterpart of ALTER SYSTEM ENABLE / DISABLE RESTRICTED SESSION
                ProcedureArgs a = args(proc, c, "enabled");
                captures.setRestricted(a.bool("enabled", true));
                return StatementResult.of(s);
            }
            case "dbms_capture_adm.drop_capture" -> {
                captures.drop(args(proc, c, "capture_name", "drop_unused_rule_sets").requireString("capture_name"));
                return StatementResult.of(s);
            }
            case "dbms_streams_adm.add_table_rules", "dbms_streams_adm.add_schema_rules", "dbms_streams_adm.add_global_rules" ->
                    {
                return streamsRules(proc, c, s);
            }
            case "dbms_streams_adm.add_subset_rules" -> {
                ProcedureArgs a = args(proc, c, "table_name", "dml_condition", "streams_type", "streams_name", "queue_name",
                        "include_tagged_lcr", "source_database");
                requireCapture(proc, a);
                StreamsClient client = clientFor(proc, a, s);
                RuleCatalog cat = captures.catalog();
                SubsetRulesResult r = cat.addSubsetRules(client, a.requireString("table_name"), a.requireString("dml_condition"),
                        a.bool("include_tagged_lcr", false), ruleSource(a, existing(client.name())));
                store(client, RuleSetRole.POSITIVE, r.ruleSet());
                return names(s, List.of(r.insertRule(), r.updateRule(), r.deleteRule()));
            }
            case "dbms_streams_adm.remove_rule" -> {
                ProcedureArgs a = args(proc, c, "rule_name", "streams_type", "streams_name", "drop_unused_rule", "inclusion_rule");
                requireCapture(proc, a);
                CaptureDefinition d = existing(a.requireString("streams_name"));
                captures.catalog().removeStreamsRules(CaptureProcesses.client(d), Optional.ofNullable(a.string("rule_name", null)),
                        a.bool("drop_unused_rule", true), a.bool("inclusion_rule", true));
                captures.saveCatalog();
                return StatementResult.of(s);
            }
            case "dbms_streams_adm.rename_schema", "dbms_streams_adm.rename_table", "dbms_streams_adm.rename_column",
                    "dbms_streams_adm.add_column", "dbms_streams_adm.delete_column" -> {
                return transformation(proc, c, s);
            }
            case "dbms_streams_adm.set_rule_transform_function" -> {
                ProcedureArgs a = args(proc, c, "rule_name", "transform_function");
                captures.catalog().setCustomTransformation(a.requireString("rule_name"),
                        Optional.ofNullable(a.string("transform_function", null)));
                captures.saveCatalog();
                return StatementResult.of(s);
            }
            case "dbms_rule_adm.create_rule_set" -> {
                ProcedureArgs a = args(proc, c, "rule_set_name", "evaluation_context", "rule_set_comment");
                captures.catalog().createRuleSet(a.requireString("rule_set_name"), a.string("rule_set_comment", null));
                captures.saveCatalog();
                return StatementResult.of(s);
            }
            case "dbms_rule_adm.drop_rule_set" -> {
                ProcedureArgs a = args(proc, c, "rule_set_name", "delete_rules");
                captures.catalog().dropRuleSet(a.requireString("rule_set_name"), a.bool("delete_rules", false));
                captures.saveCatalog();
                return StatementResult.of(s);
            }
            case "dbms_rule_adm.create_rule" -> {
                ProcedureArgs a = args(proc, c, "rule_name", "condition", "evaluation_context", "action_context", "rule_comment");
                captures.catalog().createRule(a.requireString("rule_name"), a.requireString("condition"), a.string("rule_comment", null));
                captures.saveCatalog();
                return StatementResult.of(s);
            }
            case "dbms_rule_adm.drop_rule" -> {
                ProcedureArgs a = args(proc, c, "rule_name", "force");
                captures.catalog().dropRule(a.requireString("rule_name"), a.bool("force", false));
                captures.saveCatalog();
                return StatementResult.of(s);
            }
            case "dbms_rule_adm.add_rule" -> {
                ProcedureArgs a = args(proc, c, "rule_name", "rule_set_name", "evaluation_context", "rule_comment");
                captures.catalog().addRule(a.requireString("rule_name"), a.requireString("rule_set_name"));
                captures.saveCatalog();
                return StatementResult.of(s);
            }
            case "dbms_rule_adm.remove_rule" -> {
                ProcedureArgs a = args(proc, c, "rule_name", "rule_set_name", "evaluation_context", "all_evaluation_contexts");
                captures.catalog().removeRule(a.requireString("rule_name"), a.requireString("rule_set_name"));
                captures.saveCatalog();
                return StatementResult.of(s);
            }
            default -> {
                return null;
            }
        }
    }

    /** The declarative rule-based transformations of dbms_streams_adm, added to or removed from a rule. */
    private StatementResult transformation(String proc, Call c, SessionContext s) {
        String kind = proc.substring(proc.indexOf('.') + 1);
        List<String> params = new ArrayList<>(List.of("rule_name"));
        switch (kind) {
            case "rename_schema" -> params.addAll(List.of("from_schema_name", "to_schema_name"));
            case "rename_table" -> params.addAll(List.of("from_table_name", "to_table_name"));
            case "rename_column" -> params.addAll(List.of("table_name", "from_column_name", "to_column_name", "value_type"));
            case "add_column" -> params.addAll(List.of("table_name", "column_name", "column_value", "value_type"));
            default -> params.addAll(List.of("table_name", "column_name", "value_type"));
        }
        params.addAll(List.of("step_number", "operation"));
        ProcedureArgs a = new ProcedureArgs(proc, params, c.arguments());
        int step = a.longValue("step_number") == null ? 0 : a.longValue("step_number").intValue();
        dev.tributary.rules.transform.DeclarativeTransformation t = switch (kind) {
            case "rename_schema" -> new dev.tributary.rules.transform.RenameSchema(a.requireString("from_schema_name"),
                    a.requireString("to_schema_name"), step);
            case "rename_table" -> {
                String[] from = ProcedureArgs.table(proc, a.requireString("from_table_name"));
                String[] to = ProcedureArgs.table(proc, a.requireString("to_table_name"));
                yield new dev.tributary.rules.transform.RenameTable(from[0], from[1], to[0], to[1], step);
            }
            case "rename_column" -> {
                String[] t2 = ProcedureArgs.table(proc, a.requireString("table_name"));
                yield new dev.tributary.rules.transform.RenameColumn(t2[0], t2[1], a.requireString("from_column_name"),
                        a.requireString("to_column_name"), dev.tributary.rules.transform.ValueType.parse(a.string("value_type", "*")), step);
            }
            case "add_column" -> {
                String[] t2 = ProcedureArgs.table(proc, a.requireString("table_name"));
                yield new dev.tributary.rules.transform.AddColumn(t2[0], t2[1], a.requireString("column_name"),
                        a.raw("column_value"), dev.tributary.rules.transform.ValueType.parse(a.string("value_type", "NEW")), step);
            }
            default -> {
                String[] t2 = ProcedureArgs.table(proc, a.requireString("table_name"));
                yield new dev.tributary.rules.transform.DeleteColumn(t2[0], t2[1], a.requireString("column_name"),
                        dev.tributary.rules.transform.ValueType.parse(a.string("value_type", "*")), step);
            }
        };
        String operation = a.string("operation", "ADD").toUpperCase(Locale.ROOT);
        if (operation.equals("ADD")) {
            captures.catalog().addTransformation(a.requireString("rule_name"), t);
        } else if (operation.equals("REMOVE")) {
            captures.catalog().removeTransformation(a.requireString("rule_name"), t);
        } else {
            throw new InvalidRequestException(proc + ": operation must be 'ADD' or 'REMOVE', got '" + operation + "'");
        }
        captures.saveCatalog();
        return StatementResult.of(s);
    }

    /**
     * Where create_capture's capture mines: this database (no source_database, or this one's
     * name), or another one downstream, reached through the database link named after it when
     * use_database_link is true.
     */
    private CaptureProcesses.Source source(String proc, ProcedureArgs a) {
        String source = a.string("source_database", null);
        boolean link = a.bool("use_database_link", false);
        if (source == null || source.equalsIgnoreCase(captures.sourceDatabase())) {
            if (link) {
                throw new InvalidRequestException(proc + ": use_database_link applies to a downstream capture; give "
                        + "source_database => the name of the database whose redo it mines");
            }
            return CaptureProcesses.Source.LOCAL;
        }
        if (!source.matches("[A-Za-z0-9_$#.-]+")) {
            throw new InvalidRequestException(proc + ": source_database '" + source + "' is not a database name");
        }
        return new CaptureProcesses.Source(source.toUpperCase(Locale.ROOT), link);
    }

    /**
     * The source database a rule names: as given, else the capture's source (a downstream
     * capture's rules about this database could never match what it captures), else none, which
     * the catalog reads as this database.
     */
    private static Optional<String> ruleSource(ProcedureArgs a, CaptureDefinition capture) {
        String given = a.string("source_database", null);
        return given != null ? Optional.of(given) : Optional.ofNullable(capture.sourceDatabase());
    }

    private static ProcedureArgs args(String proc, Call c, String... params) {
        return ProcedureArgs.of(proc, c, params);
    }

    private long currentScn() {
        return pipeline.commit(ctx -> null).scn();
    }

    /**
     * The SCN an object is prepared at: the end of the redo once every commit queued before the
     * rules changed is written. It is what system_views.database shows as current_scn then, so
     * an instantiation SCN read from there afterwards is never below it (CAP-SCN-4), and every
     * change with a higher SCN committed under the new rules.
     */
    private long prepareScn() {
        pipeline.commit(ctx -> null);
        return captures.currentScn();
    }

    private static String ruleSetName(String written) {
        return written == null ? null : QualifiedName.parse(written, "TRIBUTARY").toString();
    }

    private static void requireCapture(String proc, ProcedureArgs a) {
        String type = a.string("streams_type", "capture").toLowerCase(Locale.ROOT);
        if (!type.equals("capture")) {
            throw new InvalidRequestException(proc + ": streams_type '" + type + "' is not supported; Tributary runs capture processes");
        }
    }

    private CaptureDefinition existing(String name) {
        return captures.capture(name).orElseThrow(() -> new InvalidRequestException(ErrorCode.NOT_FOUND,
                "capture process " + name + " does not exist"));
    }

    /**
     * The capture the rules are for; dbms_streams_adm creates it (and its queue) when it does not
     * exist, disabled, as Oracle does.
     */
    private StreamsClient clientFor(String proc, ProcedureArgs a, SessionContext s) {
        String name = a.requireString("streams_name");
        Optional<CaptureDefinition> d = captures.capture(name);
        String source = a.string("source_database", null);
        if (d.isEmpty() && source != null && !source.equalsIgnoreCase(captures.sourceDatabase())) {
            // CAP-CRE-2: a capture of another database is a downstream capture, made by create_capture only
            throw new InvalidRequestException(proc + ": capture process " + name + " does not exist, and "
                    + "dbms_streams_adm makes local capture processes only, not one of " + source.toUpperCase(Locale.ROOT)
                    + "; create it with dbms_capture_adm.create_capture(queue_name => ..., capture_name => '" + name
                    + "', source_database => '" + source + "'), then add its rules");
        }
        if (d.isEmpty()) {
            String queue = a.string("queue_name", "streams_queue");
            captures.setUpQueue(queue);
            d = Optional.of(captures.create(name, queue, null, null, s.username(), null, null, currentScn(), s.sessionId(),
                    CaptureProcesses.Source.LOCAL));
        }
        return CaptureProcesses.client(d.get());
    }

    private void store(StreamsClient client, RuleSetRole role, QualifiedName set) {
        CaptureDefinition d = existing(client.name());
        String positive = role == RuleSetRole.POSITIVE ? set.toString() : d.positiveRuleSet();
        String negative = role == RuleSetRole.NEGATIVE ? set.toString() : d.negativeRuleSet();
        captures.updateRuleSets(d.name(), positive, negative);
        captures.saveCatalog();
    }

    private StatementResult streamsRules(String proc, Call c, SessionContext s) {
        boolean table = proc.endsWith("table_rules");
        boolean schema = proc.endsWith("schema_rules");
        List<String> params = new ArrayList<>();
        if (table) {
            params.add("table_name");
        } else if (schema) {
            params.add("schema_name");
        }
        params.addAll(List.of("streams_type", "streams_name", "queue_name", "include_dml", "include_ddl",
                "include_tagged_lcr", "source_database", "dml_rule_name", "ddl_rule_name", "inclusion_rule", "and_condition"));
        ProcedureArgs a = new ProcedureArgs(proc, params, c.arguments());
        requireCapture(proc, a);
        StreamsClient client = clientFor(proc, a, s);
        StreamsRuleOptions o = StreamsRuleOptions.DEFAULTS.withDml(a.bool("include_dml", true)).withDdl(a.bool("include_ddl", false))
                .withTaggedLcr(a.bool("include_tagged_lcr", false)).withInclusionRule(a.bool("inclusion_rule", true));
        CaptureDefinition capture = existing(client.name());
        Optional<String> ruleSource = ruleSource(a, capture);
        if (ruleSource.isPresent()) {
            o = o.withSourceDatabase(ruleSource.get());
        }
        if (a.has("and_condition")) {
            o = o.withAndCondition(a.string("and_condition", null));
        }
        RuleCatalog cat = captures.catalog();
        StreamsRulesResult r = table ? cat.addTableRules(client, a.requireString("table_name"), o)
                : schema ? cat.addSchemaRules(client, a.requireString("schema_name"), o)
                : cat.addGlobalRules(client, o);
        store(client, r.role(), r.ruleSet());
        if (o.inclusionRule()) {
            // rules in a positive rule set prepare their objects for instantiation, as dbms_streams_adm does
            captures.prepareFor(capture, table ? String.join(".", ProcedureArgs.table(proc, a.requireString("table_name")))
                    : schema ? a.requireString("schema_name").toLowerCase(Locale.ROOT) + ".*" : "*", prepareScn());
        }
        List<QualifiedName> made = new ArrayList<>();
        r.dmlRule().ifPresent(made::add);
        r.ddlRule().ifPresent(made::add);
        return names(s, made);
    }

    /** The names of the rules a procedure made, as rows (what Oracle returns in OUT parameters). */
    private static StatementResult names(SessionContext s, List<QualifiedName> rules) {
        List<List<Object>> rows = new ArrayList<>();
        for (QualifiedName q : rules) {
            List<Object> row = new ArrayList<>();
            row.add(q.toString());
            rows.add(row);
        }
        return StatementResult.rows(List.of(new ResultColumn("rule_name", CqlType.of(CqlType.Kind.TEXT))), rows, s, List.of());
    }
}
