package dev.tributary.node.exec;

import com.google.common.collect.Iterators;
import dev.tributary.capture.CaptureWorker;
import dev.tributary.capture.lcr.Lcr;
import dev.tributary.capture.log.LogRecord;
import dev.tributary.dictionary.types.Blob;
import dev.tributary.dictionary.types.CqlType;
import dev.tributary.node.capture.CaptureDefinition;
import dev.tributary.node.capture.CaptureProcesses;
import dev.tributary.node.capture.LcrJson;
import dev.tributary.node.capture.RocksDbCdcLog;
import dev.tributary.rules.RuleRow;
import dev.tributary.rules.RuleSetRow;
import dev.tributary.rules.StreamsRuleRow;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The dictionary views of capture processes and rules ({@code system_views.capture},
 * {@code streams_capture}, {@code rules}, {@code rule_sets}, {@code streams_rules}) and the queue
 * tables {@code system_queues."NAME"}.
 */
final class CaptureViews {
    private static final CqlType TEXT = CqlType.of(CqlType.Kind.TEXT);
    private static final CqlType BIGINT = CqlType.of(CqlType.Kind.BIGINT);
    private static final CqlType INT = CqlType.of(CqlType.Kind.INT);
    private static final CqlType BLOB = CqlType.of(CqlType.Kind.BLOB);
    private static final CqlType TIMEUUID = CqlType.of(CqlType.Kind.TIMEUUID);

    private final CaptureProcesses captures;
    private final java.util.function.Supplier<List<dev.tributary.node.transport.ReceivedLogs.Received>> receivedLogs;
    /** Where this instance runs now (its endpoint): the node streams_capture names. */
    private final java.util.function.Supplier<String> node;
    private final dev.tributary.node.capture.RedoSegments segments;
    private final java.util.function.Supplier<List<dev.tributary.node.coord.ConsumerGroups.GroupState>> groups;

    CaptureViews(CaptureProcesses captures, dev.tributary.node.capture.RedoSegments segments,
            java.util.function.Supplier<List<dev.tributary.node.coord.ConsumerGroups.GroupState>> groups,
            java.util.function.Supplier<List<dev.tributary.node.transport.ReceivedLogs.Received>> receivedLogs,
            java.util.function.Supplier<String> node) {
        this.node = node;
        this.receivedLogs = receivedLogs;
        this.captures = captures;
        this.segments = segments;
        this.groups = groups;
    }

    /**
     * A capture's applied SCN: the lowest low watermark of the consumer groups reading its queue,
     * as an SCN (an SCN's high bits are its milliseconds); null while no group has passed anything.
     */
    private Long appliedScn(String queue, List<dev.tributary.node.coord.ConsumerGroups.GroupState> all) {
        long low = dev.tributary.node.capture.LogRetention.passedByEveryGroup(all, true, queue);
        return low == 0 ? null : (low / 1000) << 16;
    }

    private List<RowView> consumerGroupRows() {
        List<RowView> out = new ArrayList<>();
        for (dev.tributary.node.coord.ConsumerGroups.GroupState g : groups.get()) {
            out.add(SystemTables.row("group_name", g.name(), "log_type", g.log().queue() ? "QUEUE" : "TABLE", "log_name", g.log().name(),
                    "epoch", g.epoch(), "members", g.members().size(), "lease_ms", g.leaseMillis(), "low_watermark",
                    g.lowWatermarkMicros() == 0 ? null : java.time.Instant.ofEpochMilli(g.lowWatermarkMicros() / 1000)));
        }
        return out;
    }

    List<TableSource> tables() {
        return List.of(
                new StaticTable("system_views", "consumer_groups", SystemTables.cols("group_name", TEXT, "log_type", TEXT,
                        "log_name", TEXT, "epoch", BIGINT, "members", INT, "lease_ms", BIGINT,
                        "low_watermark", CqlType.of(CqlType.Kind.TIMESTAMP)), List.of("group_name"), List.of(),
                        this::consumerGroupRows),
                new StaticTable("system_views", "capture", SystemTables.cols("capture_name", TEXT, "queue_name", TEXT,
                        "rule_set_name", TEXT, "negative_rule_set_name", TEXT, "capture_user", TEXT, "status", TEXT,
                        "capture_type", TEXT, "source_database", TEXT, "first_scn", BIGINT, "start_scn", BIGINT,
                        "captured_scn", BIGINT, "applied_scn", BIGINT, "required_checkpoint_scn", BIGINT,
                        "max_checkpoint_scn", BIGINT, "error_number", INT, "error_message", TEXT, "logminer_id", BIGINT,
                        "use_database_link", TEXT),
                        List.of("capture_name"), List.of(), this::captureRows),
                new StaticTable("system_views", "streams_capture", SystemTables.cols("capture_name", TEXT, "node", TEXT,
                        "process", TEXT, "state", TEXT, "state_changed_time", CqlType.of(CqlType.Kind.TIMESTAMP),
                        "captured_scn", BIGINT, "total_messages_captured", BIGINT, "total_messages_enqueued", BIGINT,
                        "flow_control_pauses", BIGINT), List.of("capture_name"), List.of(), this::streamsCaptureRows),
                new StaticTable("system_views", "archived_log", SystemTables.cols("name", TEXT, "thread_number", INT,
                        "sequence_number", BIGINT, "first_change", BIGINT, "next_change", BIGINT, "dictionary_begin", TEXT,
                        "dictionary_end", TEXT, "completion_time", CqlType.of(CqlType.Kind.TIMESTAMP), "purgeable", TEXT,
                        "deleted", TEXT, "source_database", TEXT, "standby_dest", TEXT), List.of("source_database"),
                        List.of("thread_number", "sequence_number"), this::archivedLogRows),
                new StaticTable("system_views", "logmnr_dictionaries", SystemTables.cols("logminer_id", BIGINT,
                        "build_scn", BIGINT, "loaded", TEXT, "first_available_scn", BIGINT, "versions", INT, "captures", TEXT),
                        List.of("logminer_id"), List.of(), this::logMinerRows),
                new StaticTable("system_views", "buffered_queues", SystemTables.cols("queue_name", TEXT, "subscribers", INT,
                        "buffered_bytes", BIGINT, "capacity_bytes", BIGINT), List.of("queue_name"), List.of(),
                        this::bufferedQueueRows),
                new StaticTable("system_views", "logmnr_purged_log", SystemTables.cols("file_name", TEXT),
                        List.of("file_name"), List.of(), this::purgedLogRows),
                new StaticTable("system_views", "rules", SystemTables.cols("rule_owner", TEXT, "rule_name", TEXT,
                        "rule_condition", TEXT, "rule_evaluation_context_owner", TEXT, "rule_evaluation_context_name", TEXT,
                        "rule_action_context", TEXT, "rule_comment", TEXT), List.of("rule_owner"), List.of("rule_name"),
                        this::ruleRows),
                new StaticTable("system_views", "rule_sets", SystemTables.cols("rule_set_owner", TEXT, "rule_set_name", TEXT,
                        "rule_set_eval_context_owner", TEXT, "rule_set_eval_context_name", TEXT, "rule_set_comment", TEXT),
                        List.of("rule_set_owner"), List.of("rule_set_name"), this::ruleSetRows),
                new StaticTable("system_views", "streams_rules", SystemTables.cols("streams_type", TEXT, "streams_name", TEXT,
                        "rule_set_owner", TEXT, "rule_set_name", TEXT, "rule_owner", TEXT, "rule_name", TEXT, "rule_type", TEXT,
                        "rule_set_type", TEXT, "streams_rule_type", TEXT, "schema_name", TEXT, "object_name", TEXT,
                        "subsetting_operation", TEXT, "dml_condition", TEXT, "include_tagged_lcr", TEXT, "source_database", TEXT,
                        "rule_condition", TEXT), List.of("streams_name"), List.of("rule_name"), this::streamsRuleRows),
                new StaticTable("system_views", "capture_parameters", SystemTables.cols("capture_name", TEXT, "parameter", TEXT,
                        "value", TEXT, "set_by_user", TEXT), List.of("capture_name"), List.of("parameter"), this::parameterRows),
                new StaticTable("system_views", "capture_extra_attributes", SystemTables.cols("capture_name", TEXT,
                        "attribute_name", TEXT, "include", TEXT), List.of("capture_name"), List.of("attribute_name"),
                        this::extraAttributeRows),
                new StaticTable("system_views", "capture_trace", SystemTables.cols("capture_name", TEXT, "sequence", BIGINT,
                        "error_number", INT, "message", TEXT), List.of("capture_name"), List.of("sequence"), this::traceRows),
                new StaticTable("system_views", "streams_pool", SystemTables.cols("pool", TEXT, "base_bytes", BIGINT,
                        "total_parallelism", INT, "budget_bytes", BIGINT, "buffered_bytes", BIGINT), List.of("pool"), List.of(),
                        this::streamsPoolRows),
                new StaticTable("system_views", "prepared_tables", SystemTables.cols("object", TEXT, "scn", BIGINT),
                        List.of("object"), List.of(), this::preparedRows),
                new StaticTable("system_views", "database", SystemTables.cols("global_name", TEXT, "current_scn", BIGINT,
                        "restricted", TEXT), List.of("global_name"), List.of(), this::databaseRows));
    }

    private List<RowView> parameterRows() {
        List<RowView> out = new ArrayList<>();
        for (CaptureDefinition d : captures.captures()) {
            for (Map.Entry<String, String> p : d.parameters().entrySet()) {
                boolean byUser = !p.getValue().equals(CaptureDefinition.DEFAULT_PARAMETERS.get(p.getKey()));
                out.add(SystemTables.row("capture_name", d.name(), "parameter", p.getKey().toUpperCase(java.util.Locale.ROOT), "value",
                        p.getValue(), "set_by_user", byUser ? "YES" : "NO"));
            }
        }
        return out;
    }

    private List<RowView> extraAttributeRows() {
        List<RowView> out = new ArrayList<>();
        for (CaptureDefinition d : captures.captures()) {
            for (String a : new java.util.TreeSet<>(CaptureDefinition.EXTRA_ATTRIBUTES)) {
                out.add(SystemTables.row("capture_name", d.name(), "attribute_name", a.toUpperCase(java.util.Locale.ROOT), "include",
                        d.extraAttributes().contains(a) ? "YES" : "NO"));
            }
        }
        return out;
    }

    private List<RowView> traceRows() {
        List<RowView> out = new ArrayList<>();
        for (CaptureProcesses.TraceEntry t : captures.trace()) {
            out.add(SystemTables.row("capture_name", t.capture(), "sequence", t.sequence(), "error_number", t.errorNumber(), "message",
                    t.message()));
        }
        return out;
    }

    private List<RowView> preparedRows() {
        List<RowView> out = new ArrayList<>();
        for (Map.Entry<String, Long> p : captures.prepared().entrySet()) {
            out.add(SystemTables.row("object", p.getKey(), "scn", p.getValue()));
        }
        return out;
    }

    private List<RowView> databaseRows() {
        return List.of(SystemTables.row("global_name", captures.sourceDatabase(), "current_scn", captures.currentScn(), "restricted",
                captures.restricted() ? "YES" : "NO"));
    }

    private List<RowView> captureRows() {
        List<RowView> out = new ArrayList<>();
        List<dev.tributary.node.coord.ConsumerGroups.GroupState> all = groups.get();
        for (CaptureDefinition d : captures.captures()) {
            long checkpoint = captures.checkpointOf(d.name());
            Optional<CaptureWorker> w = captures.worker(d.name());
            long captured = w.map(CaptureWorker::capturedScn).orElse(checkpoint);
            out.add(SystemTables.row("capture_name", d.name(), "queue_name", d.queueName(), "rule_set_name", d.positiveRuleSet(),
                    "negative_rule_set_name", d.negativeRuleSet(), "capture_user", d.captureUser(), "status", d.status().name(),
                    "capture_type", d.downstream() ? "DOWNSTREAM" : "LOCAL",
                    "source_database", d.downstream() ? d.sourceDatabase() : captures.sourceDatabase(), "first_scn", d.firstScn(), "start_scn", d.startScn(),
                    "captured_scn", captured, "applied_scn", appliedScn(d.queueName(), all), "required_checkpoint_scn", checkpoint,
                    "max_checkpoint_scn", checkpoint, "error_number", d.errorNumber() == 0 ? null : d.errorNumber(),
                    "error_message", d.errorMessage(), "logminer_id", d.dictionaryId(),
                    "use_database_link", d.downstream() ? (d.useDatabaseLink() ? "YES" : "NO") : null));
        }
        return out;
    }

    private List<RowView> streamsCaptureRows() {
        List<RowView> out = new ArrayList<>();
        for (CaptureDefinition d : captures.captures()) {
            Optional<CaptureWorker> w = captures.worker(d.name());
            if (w.isEmpty()) {
                continue; // V$STREAMS_CAPTURE lists running captures only
            }
            CaptureWorker cw = w.get();
            out.add(SystemTables.row("capture_name", d.name(), "node", node.get(), "process", d.processName(), "state",
                    cw.stateDescription(), "state_changed_time", java.time.Instant.ofEpochMilli(cw.stateChangedMillis()),
                    "captured_scn", cw.capturedScn(), "total_messages_captured", cw.totalScanned(),
                    "total_messages_enqueued", cw.totalEnqueued(), "flow_control_pauses", cw.flowControlPauses()));
        }
        return out;
    }

    /** V$ARCHIVED_LOG: the sealed redo segments, purged ones marked deleted. */
    private List<RowView> archivedLogRows() {
        List<RowView> out = new ArrayList<>();
        for (dev.tributary.node.capture.RedoSegments.Segment g : segments.segments()) {
            if (g.archived()) {
                out.add(SystemTables.row("name", g.name(), "thread_number", g.thread(), "sequence_number", g.sequence(), "first_change", g.firstScn(),
                        "next_change", g.nextScn(), "dictionary_begin", yes(g.dictionaryBegin()), "dictionary_end",
                        yes(g.dictionaryEnd()), "completion_time", java.time.Instant.ofEpochMilli(g.archivedMillis()),
                        "purgeable", yes(segments.purgeable(g)), "deleted", yes(g.purged()), "source_database",
                        captures.sourceDatabase().toUpperCase(java.util.Locale.ROOT), "standby_dest", "NO"));
            }
        }
        // the logs other databases shipped here (log transport), for downstream capture
        for (dev.tributary.node.transport.ReceivedLogs.Received r : receivedLogs.get()) {
            dev.tributary.capture.redo.ArchivedLogFile.Header h = r.header();
            out.add(SystemTables.row("name", r.file().toString(), "thread_number", h.thread(), "sequence_number", h.sequence(),
                    "first_change", h.firstScn(), "next_change", h.nextScn(), "dictionary_begin", yes(h.dictionaryBegin()),
                    "dictionary_end", yes(h.dictionaryEnd()), "completion_time", java.time.Instant.ofEpochMilli(r.receivedMillis()),
                    "purgeable", "NO", "deleted", "NO", "source_database", h.sourceDatabase(), "standby_dest", "YES"));
        }
        return out;
    }

    /** V$BUFFERED_QUEUES: what each queue holds in memory for its live subscribers. */
    /** The Streams pool of this node: what its buffered queues may hold together (CAP-MULTI-1). */
    private List<RowView> streamsPoolRows() {
        dev.tributary.capture.BufferedQueues b = captures.buffered();
        dev.tributary.capture.StreamsPool p = b.pool();
        return List.of(SystemTables.row("pool", "streams", "base_bytes", p.baseBytes(), "total_parallelism", p.totalParallelism(),
                "budget_bytes", p.budgetBytes(), "buffered_bytes", b.totalBufferedBytes()));
    }

    private List<RowView> bufferedQueueRows() {
        dev.tributary.capture.BufferedQueues b = captures.buffered();
        List<RowView> out = new ArrayList<>();
        for (Map.Entry<String, Long> q : new java.util.TreeMap<>(captures.queues()).entrySet()) {
            out.add(SystemTables.row("queue_name", q.getKey(), "subscribers", b.subscribers(q.getValue()), "buffered_bytes",
                    b.bufferedBytes(q.getValue()), "capacity_bytes", b.capacityBytes()));
        }
        return out;
    }

    /** The LogMiner dictionaries and the captures that share each. */
    private List<RowView> logMinerRows() {
        List<CaptureDefinition> all = captures.captures();
        List<RowView> out = new ArrayList<>();
        for (dev.tributary.dictionary.logminer.LogMinerDictionary d : captures.logMinerDictionaries()) {
            long first = d.versions().firstAvailableScn();
            out.add(SystemTables.row("logminer_id", d.id(), "build_scn", d.buildScn(), "loaded", yes(d.loaded()), "first_available_scn",
                    first == Long.MIN_VALUE ? d.buildScn() : first, "versions", d.versions().versions().size(), "captures",
                    String.join(",", all.stream().filter(c -> c.dictionaryId() == d.id()).map(CaptureDefinition::name).toList())));
        }
        return out;
    }

    /** DBA_LOGMNR_PURGED_LOG: the archived logs no capture will ever need again. */
    private List<RowView> purgedLogRows() {
        List<RowView> out = new ArrayList<>();
        for (dev.tributary.node.capture.RedoSegments.Segment g : segments.segments()) {
            if (g.purged()) {
                out.add(SystemTables.row("file_name", g.name()));
            }
        }
        return out;
    }

    private static String yes(boolean b) {
        return b ? "YES" : "NO";
    }

    private List<RowView> ruleRows() {
        List<RowView> out = new ArrayList<>();
        for (RuleRow r : captures.catalog().ruleRows()) {
            out.add(SystemTables.row("rule_owner", r.ruleOwner(), "rule_name", r.ruleName(), "rule_condition", r.ruleCondition(),
                    "rule_evaluation_context_owner", r.ruleEvaluationContextOwner(), "rule_evaluation_context_name",
                    r.ruleEvaluationContextName(), "rule_action_context", r.ruleActionContext(), "rule_comment", r.ruleComment()));
        }
        return out;
    }

    private List<RowView> ruleSetRows() {
        List<RowView> out = new ArrayList<>();
        for (RuleSetRow r : captures.catalog().ruleSetRows()) {
            out.add(SystemTables.row("rule_set_owner", r.ruleSetOwner(), "rule_set_name", r.ruleSetName(), "rule_set_eval_context_owner",
                    r.ruleSetEvalContextOwner(), "rule_set_eval_context_name", r.ruleSetEvalContextName(), "rule_set_comment",
                    r.ruleSetComment()));
        }
        return out;
    }

    private List<RowView> streamsRuleRows() {
        List<RowView> out = new ArrayList<>();
        for (StreamsRuleRow r : captures.catalog().streamsRuleRows(captures.clients())) {
            out.add(SystemTables.row("streams_type", r.streamsType(), "streams_name", r.streamsName(), "rule_set_owner", r.ruleSetOwner(),
                    "rule_set_name", r.ruleSetName(), "rule_owner", r.ruleOwner(), "rule_name", r.ruleName(), "rule_type",
                    r.ruleType(), "rule_set_type", r.ruleSetType(), "streams_rule_type", r.streamsRuleType(), "schema_name",
                    r.schemaName(), "object_name", r.objectName(), "subsetting_operation", r.subsettingOperation(),
                    "dml_condition", r.dmlCondition(), "include_tagged_lcr", r.includeTaggedLcr(), "source_database",
                    r.sourceDatabase(), "rule_condition", r.ruleCondition()));
        }
        return out;
    }

    /** {@code system_queues."NAME"}: the LCRs a queue holds, in position order. */
    static TableSource queueTable(String name, long queueId, RocksDbCdcLog log) {
        List<ResultColumn> columns = SystemTables.cols("cdc$stream_id", BLOB, "cdc$time", TIMEUUID, "cdc$batch_seq_no", INT,
                "lcr$scn", BIGINT, "lcr$command_type", TEXT, "lcr$object_owner", TEXT, "lcr$object_name", TEXT,
                "lcr$transaction_id", TEXT, "lcr", TEXT);
        return new LogTable("system_queues", name, columns, () -> {
            return Iterators.transform(log.iterate(queueId, true), CaptureViews::queueRow);
        });
    }

    private static RowView queueRow(LogRecord r) {
        Lcr l = r.lcr();
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("cdc$stream_id", Blob.of(r.position().stream().toBytes()));
        v.put("cdc$time", r.position().time());
        v.put("cdc$batch_seq_no", r.position().batchSeqNo());
        v.put("lcr$scn", l.scn());
        v.put("lcr$command_type", l.commandType());
        v.put("lcr$object_owner", l.objectOwner());
        v.put("lcr$object_name", l.objectName());
        v.put("lcr$transaction_id", l.transactionId());
        v.put("lcr", LcrJson.of(r));
        return SystemTables.row(v, r.position().stream().token());
    }
}
