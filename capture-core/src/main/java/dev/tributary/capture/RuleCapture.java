package dev.tributary.capture;

import dev.tributary.capture.lcr.DdlLcr;
import dev.tributary.capture.lcr.LcrColumn;
import dev.tributary.capture.lcr.RowLcr;
import dev.tributary.capture.log.LogRecord;
import dev.tributary.capture.redo.RedoEntry;
import dev.tributary.capture.redo.RowChange;
import dev.tributary.dictionary.DictionaryVersion;
import dev.tributary.dictionary.MultiversionDictionary;
import dev.tributary.dictionary.schema.TableDef;
import dev.tributary.dictionary.types.CqlType;
import dev.tributary.rules.CompiledRuleSets;
import dev.tributary.rules.EvaluationResult;
import dev.tributary.rules.LcrInput;
import dev.tributary.rules.PartialInput;
import dev.tributary.rules.PrefilterDecision;
import dev.tributary.rules.QualifiedName;
import dev.tributary.rules.eval.RuleNames;
import dev.tributary.rules.SystemKeyspaces;
import dev.tributary.rules.transform.TransformableLcr;
import dev.tributary.rules.TransformationRunner;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A capture process's decisions on each change, in the six steps of the capture seed: find the
 * change, prefilter it with partial information (owner, object, command type, tag), convert it
 * into an LCR only when the rule sets may keep it, evaluate the LCR fully, discard what the rule
 * sets reject, and enqueue the rest (after row migration and the kept rules' transformations)
 * into the capture's queue. System keyspaces are never captured.
 *
 * <p>Thread-safe: the rule sets are read through a supplier on every entry, so rule changes
 * apply from the next entry on.
 */
public final class RuleCapture implements RedoCapturer {
    private final long queueId;
    private final String sourceDatabaseName;
    private final MultiversionDictionary dictionary;
    private final CdcLogFormatter formatter;
    private final Supplier<CompiledRuleSets> rules;
    private final TransformationRunner transformations;
    private final long startScn;
    private final java.util.Set<String> extraAttributes;

    /**
     * @param queueId   the log id of the capture's queue
     * @param startScn  changes below it are scanned but not captured (the capture seed's start SCN)
     */
    /** See {@link #filteredByRules}: preparers and the capture thread both count. */
    private final java.util.concurrent.atomic.AtomicLong filtered = new java.util.concurrent.atomic.AtomicLong();

    public RuleCapture(long queueId, String sourceDatabaseName, MultiversionDictionary dictionary,
            CdcLogFormatter formatter, Supplier<CompiledRuleSets> rules, TransformationRunner transformations,
            long startScn, java.util.Set<String> extraAttributes) {
        this.extraAttributes = java.util.Set.copyOf(extraAttributes);
        this.queueId = queueId;
        this.sourceDatabaseName = sourceDatabaseName;
        this.dictionary = dictionary;
        this.formatter = formatter;
        this.rules = rules;
        this.transformations = transformations;
        this.startScn = startScn;
    }

    @Override
    public PreparedEntry prepare(RedoEntry e) {
        if (e.scn() < startScn) {
            return PreparedEntry.discarded(e);
        }
        CompiledRuleSets sets = rules.get();
        String db = sourceDatabaseName.toUpperCase(Locale.ROOT);
        if (e.isDdl()) {
            if (e.ddl().replicated()) {
                return PreparedEntry.discarded(e); // the thread of the node that ran it has it too: one DDL LCR
            }
            String owner = e.ddl().objectOwner();
            if (owner != null && SystemKeyspaces.isSystem(owner)) {
                return PreparedEntry.discarded(e);
            }
            String name = e.ddl().objectName() == null ? owner : e.ddl().objectName();
            PartialInput partial = PartialInput.ddl(db, RuleNames.ruleForm(owner), RuleNames.ruleForm(name),
                    e.ddl().commandType()).withTag(e.tag());
            PrefilterDecision ddlDecision = sets.decide(partial);
            if (!ddlDecision.converts()) {
                filtered.incrementAndGet();
            }
            return new PreparedEntry(e, List.of(), ddlDecision);
        }
        DictionaryVersion version = dictionary.asOf(e.scn());
        List<PreparedEntry.Row> rows = new ArrayList<>();
        for (RowChange r : e.rows()) {
            Optional<TableDef> found = version.table(r.objectNumber());
            if (found.isEmpty() || SystemKeyspaces.isSystem(found.get().keyspace())) {
                continue;
            }
            TableDef t = found.get();
            PartialInput partial = PartialInput.dml(db, RuleNames.ruleForm(t.keyspace()), RuleNames.ruleForm(t.name()),
                    r.operation().name()).withTag(e.tag());
            PrefilterDecision decision = sets.decide(partial);
            if (decision.converts()) {
                rows.add(new PreparedEntry.Row(r, t, decision)); // a DISCARD is never turned into an LCR
            } else {
                filtered.incrementAndGet();
            }
        }
        return new PreparedEntry(e, rows, PrefilterDecision.DISCARD);
    }

    @Override
    public long filteredByRules() {
        return filtered.get();
    }

    @Override
    public List<LogRecord> build(PreparedEntry p, CaptureProgress progress) {
        if (p.empty()) {
            return List.of();
        }
        CompiledRuleSets sets = rules.get();
        RedoEntry e = p.entry();
        if (e.isDdl()) {
            return buildDdl(e, sets, progress);
        }
        List<CdcLogFormatter.KeptChange> kept = new ArrayList<>();
        String db = sourceDatabaseName.toUpperCase(Locale.ROOT);
        for (PreparedEntry.Row row : p.rows()) {
            RowChange r = row.change();
            TableDef t = row.table();
            progress.at(CaptureState.CREATING_LCR);
            RowLcr lcr = formatter.rowLcr(e, r, t);
            java.util.Set<String> supplemental = sets.supplementalLogging()
                    .get(new QualifiedName(RuleNames.ruleForm(t.keyspace()), RuleNames.ruleForm(t.name())));
            if (supplemental != null) {
                lcr = formatter.withSupplementalOldValues(lcr, r, t, supplemental);
            }
            // a CONVERT is kept whatever the full evaluation says, but its matching rules drive row
            // migration and transformations, so both decisions evaluate
            progress.at(CaptureState.EVALUATING_RULE);
            EvaluationResult result = sets.evaluate(input(db, lcr));
            if (!result.keep()) {
                filtered.incrementAndGet();
                continue;
            }
            refuseUnsupported(t, lcr);
            if (result.migration() == dev.tributary.rules.RowMigration.TO_INSERT) {
                // the row enters the subset: the INSERT it becomes carries the whole row, so an apply
                // can create it where it never was (the redo holds the whole old row)
                lcr = formatter.withSupplementalOldValues(lcr, r, t,
                        t.columns().stream().map(dev.tributary.dictionary.schema.ColumnDef::name).collect(java.util.stream.Collectors.toSet()));
            }
            kept.add(new CdcLogFormatter.KeptChange(r, t, withExtra(transform(lcr, result), e, r)));
        }
        return kept.isEmpty() ? List.of() : formatter.queueRecords(e, queueId, kept);
    }

    private List<LogRecord> buildDdl(RedoEntry e, CompiledRuleSets sets, CaptureProgress progress) {
        String db = sourceDatabaseName.toUpperCase(Locale.ROOT);
        progress.at(CaptureState.CREATING_LCR);
        DdlLcr lcr = formatter.ddlLcr(e);
        String name = lcr.objectName() == null ? lcr.objectOwner() : lcr.objectName();
        LcrInput.Builder full = LcrInput.builder().sourceDatabaseName(db)
                .object(RuleNames.ruleForm(lcr.objectOwner()), RuleNames.ruleForm(name)).commandType(lcr.commandType())
                .ddl(true).tag(e.tag()).objectType(lcr.objectType());
        if (lcr.baseTableName() != null) {
            full.baseTable(RuleNames.ruleForm(lcr.baseTableOwner()), RuleNames.ruleForm(lcr.baseTableName()));
        }
        progress.at(CaptureState.EVALUATING_RULE);
        if (!sets.evaluate(full.build()).keep()) {
            filtered.incrementAndGet();
            return List.of();
        }
        if (!extraAttributes.isEmpty()) {
            List<LcrColumn> extra = sessionAttributes(e);
            lcr = new DdlLcr(lcr.sourceDatabaseName(), lcr.commandType(), lcr.objectOwner(), lcr.objectName(), lcr.objectType(),
                    lcr.ddlText(), lcr.logonUser(), lcr.currentSchema(), lcr.baseTableOwner(), lcr.baseTableName(), lcr.tag(),
                    lcr.transactionId(), lcr.scn(), extra);
        }
        return List.of(formatter.ddlRecord(e, queueId, lcr));
    }

    /**
     * Capture does not support user-defined types (the capture seed's unsupported datatypes): a
     * kept change to a table with such a column stops the capture, naming the LCR.
     */
    private static void refuseUnsupported(TableDef t, RowLcr lcr) {
        for (dev.tributary.dictionary.schema.ColumnDef c : t.columns()) {
            if (containsUserType(c.type())) {
                throw new UnsupportedColumnTypeException(t.qualifiedName(), c.name(), c.type().cql(), lcr);
            }
        }
    }

    private static boolean containsUserType(CqlType type) {
        if (type instanceof CqlType.UserType) {
            return true;
        }
        if (type instanceof CqlType.ListType l) {
            return containsUserType(l.element());
        }
        if (type instanceof CqlType.SetType st) {
            return containsUserType(st.element());
        }
        if (type instanceof CqlType.MapType m) {
            return containsUserType(m.key()) || containsUserType(m.value());
        }
        return false;
    }

    /** The extra attributes this capture includes (include_extra_attribute). */
    private RowLcr withExtra(RowLcr lcr, RedoEntry e, RowChange r) {
        if (extraAttributes.isEmpty()) {
            return lcr;
        }
        List<LcrColumn> extra = new ArrayList<>(lcr.extra());
        extra.addAll(sessionAttributes(e));
        if (extraAttributes.contains("row_id")) {
            StringBuilder id = new StringBuilder(java.util.HexFormat.of().formatHex(r.partitionKey()));
            for (dev.tributary.capture.redo.ColumnValue k : r.key()) {
                id.append('.').append(k.value() == null ? "" : java.util.HexFormat.of().formatHex(k.value()));
            }
            extra.add(new LcrColumn("row_id", CqlType.of(CqlType.Kind.TEXT), id.toString()));
        }
        return new RowLcr(lcr.sourceDatabaseName(), lcr.commandType(), lcr.objectOwner(), lcr.objectName(), lcr.tag(),
                lcr.transactionId(), lcr.scn(), lcr.commitScn(), lcr.oldValues(), lcr.newValues(), extra);
    }

    /** serial#, session#, thread#, tx_name and username, where included; row_id never goes into DDL LCRs. */
    private List<LcrColumn> sessionAttributes(RedoEntry e) {
        List<LcrColumn> out = new ArrayList<>();
        if (extraAttributes.contains("serial#")) {
            out.add(new LcrColumn("serial#", CqlType.of(CqlType.Kind.BIGINT), e.session().serialNumber()));
        }
        if (extraAttributes.contains("session#")) {
            out.add(new LcrColumn("session#", CqlType.of(CqlType.Kind.BIGINT), e.session().sessionNumber()));
        }
        if (extraAttributes.contains("thread#")) {
            out.add(new LcrColumn("thread#", CqlType.of(CqlType.Kind.INT), e.session().threadNumber()));
        }
        if (extraAttributes.contains("tx_name")) {
            out.add(new LcrColumn("tx_name", CqlType.of(CqlType.Kind.TEXT), null)); // CQL transactions are not named
        }
        if (extraAttributes.contains("username")) {
            out.add(new LcrColumn("username", CqlType.of(CqlType.Kind.TEXT), e.session().username()));
        }
        return out;
    }

    private static LcrInput input(String db, RowLcr lcr) {
        LcrInput.Builder b = LcrInput.builder().sourceDatabaseName(db)
                .object(RuleNames.ruleForm(lcr.objectOwner()), RuleNames.ruleForm(lcr.objectName()))
                .commandType(lcr.commandType()).tag(lcr.tag());
        if (lcr.oldValues() != null) {
            b.oldValues(values(lcr.oldValues()));
        }
        if (lcr.newValues() != null) {
            b.newValues(values(lcr.newValues()));
        }
        return b.build();
    }

    private static Map<String, Object> values(List<LcrColumn> cols) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (LcrColumn c : cols) {
            out.put(c.name(), c.value());
        }
        return out;
    }

    /** Row migration (a subset UPDATE into or out of the subset) and the kept rules' transformations. */
    private RowLcr transform(RowLcr lcr, EvaluationResult result) {
        TransformableLcr before = new TransformableLcr(lcr.objectOwner(), lcr.objectName(), lcr.commandType(),
                lcr.oldValues() == null ? null : values(lcr.oldValues()), lcr.newValues() == null ? null : values(lcr.newValues()));
        TransformableLcr after = transformations.apply(result, before);
        if (after.equals(before)) {
            return lcr;
        }
        Map<String, CqlType> types = new LinkedHashMap<>();
        for (List<LcrColumn> cols : java.util.Arrays.asList(lcr.oldValues(), lcr.newValues())) {
            if (cols != null) {
                for (LcrColumn c : cols) {
                    types.put(c.name(), c.type());
                }
            }
        }
        return new RowLcr(lcr.sourceDatabaseName(), after.commandType(), after.objectOwner(), after.objectName(), lcr.tag(),
                lcr.transactionId(), lcr.scn(), lcr.commitScn(), columns(after.oldValues(), types),
                columns(after.newValues(), types), lcr.extra());
    }

    private static List<LcrColumn> columns(Map<String, Object> values, Map<String, CqlType> types) {
        if (values == null) {
            return null;
        }
        List<LcrColumn> out = new ArrayList<>();
        for (Map.Entry<String, Object> v : values.entrySet()) {
            CqlType t = types.get(v.getKey());
            out.add(new LcrColumn(v.getKey(), t != null ? t : LcrTypes.infer(v.getValue()), v.getValue()));
        }
        return out;
    }
}
