package dev.tributary.client;

import dev.tributary.client.errors.TributaryException;
import dev.tributary.protocol.v1.AdminArgument;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The administration procedures of docs/REFERENCE.md ({@code dbms_capture_adm},
 * {@code dbms_streams_adm}, {@code dbms_rule_adm}, {@code dbms_streams}) over the gRPC
 * AdminService: the same procedures, parameters and results as
 * {@code CALL package.procedure(name => value, ...)}.
 *
 * <p>An {@code Admin} belongs to one {@link Session}: every call carries that session's keyspace,
 * tag and user, and the session the answer reports replaces the local one (so
 * {@link #setTag(byte[])} changes the tag of the session's later writes). Thread-safe, like its
 * session.
 *
 * <p>Calls go through the client's failover, request timeout and error mapping: a refused or
 * failed call throws the {@link TributaryException} subclass of its reason code (an unknown
 * capture, queue, rule or procedure is {@code NotFoundException}, a rule that already exists
 * {@code AlreadyExistsException}, a bad argument {@code InvalidQueryException}). The wire carries
 * no idempotency key for these calls: a call is sent to the next endpoint only when one is
 * unreachable or answers UNAVAILABLE, and a call whose answer was lost may have been applied, so
 * repeating it may report {@code AlreadyExistsException} for what the first attempt made.
 * Arguments the client cannot send fail with {@link IllegalArgumentException} before anything is
 * sent.
 */
public final class Admin {
    /** The result column in which procedures that make rules name them. */
    public static final String RULE_NAME_COLUMN = "rule_name";

    private static final String STREAMS_TYPE = "capture";

    private final Session session;

    Admin(Session session) {
        this.session = session;
    }

    /** The session this Admin runs in. */
    public Session session() {
        return session;
    }

    /** {@link #call(String, Map)} with no arguments, e.g. {@code call("dbms_streams.get_tag")}. */
    public ResultSet call(String procedure) {
        return call(procedure, Map.of());
    }

    /**
     * Runs a procedure with named arguments.
     *
     * @param procedure      {@code package.procedure}, e.g. {@code dbms_streams_adm.add_table_rules}
     * @param namedArguments parameter name to value, sent in the map's iteration order; a value is
     *                       a {@code String}, {@code Long}, {@code Integer}, {@code Boolean},
     *                       {@code byte[]} or {@code ByteBuffer} (a blob), or null (NULL)
     * @return the procedure's answer: rows (a {@code rule_name} column for procedures that make
     *         rules, {@code tag} for {@code get_tag}) or none
     * @throws IllegalArgumentException when the procedure is not {@code package.procedure}, an
     *         argument name is null or blank, or a value has another type (naming the argument)
     */
    public ResultSet call(String procedure, Map<String, ?> namedArguments) {
        String proc = checkProcedure(procedure);
        Objects.requireNonNull(namedArguments, "namedArguments");
        List<AdminArgument> arguments = new ArrayList<>(namedArguments.size());
        for (Map.Entry<String, ?> e : namedArguments.entrySet()) {
            arguments.add(argument(proc, e.getKey(), e.getValue()));
        }
        return session.call(proc, arguments);
    }

    // ---------------------------------------------------------------- dbms_capture_adm

    /** {@code dbms_capture_adm.create_capture}: a disabled capture enqueueing into an existing queue. */
    public void createCapture(String queue, String capture) {
        call("dbms_capture_adm.create_capture", args("queue_name", required("queue", queue),
                "capture_name", required("capture", capture)));
    }

    /**
     * {@code dbms_capture_adm.create_capture} with the capture seed's first and start SCN (either
     * may be null: see "First SCN and Start SCN Specifications During Capture Process Creation").
     */
    public void createCapture(String queue, String capture, Long firstScn, Long startScn) {
        call("dbms_capture_adm.create_capture", args("queue_name", required("queue", queue),
                "capture_name", required("capture", capture), "first_scn", firstScn, "start_scn", startScn));
    }

    /**
     * {@code dbms_capture_adm.build}: writes the dictionary into the redo log.
     *
     * @return the build's SCN, a first SCN a capture may be created with
     */
    public long build() {
        return call("dbms_capture_adm.build").one().getLong("first_scn");
    }

    /** {@code dbms_capture_adm.start_capture}. */
    public void startCapture(String capture) {
        call("dbms_capture_adm.start_capture", args("capture_name", required("capture", capture)));
    }

    /** {@code dbms_capture_adm.stop_capture}. */
    public void stopCapture(String capture) {
        call("dbms_capture_adm.stop_capture", args("capture_name", required("capture", capture)));
    }

    /** {@code dbms_capture_adm.drop_capture}. */
    public void dropCapture(String capture) {
        call("dbms_capture_adm.drop_capture", args("capture_name", required("capture", capture)));
    }

    // ---------------------------------------------------------------- dbms_streams_adm

    /** {@code dbms_streams_adm.set_up_queue}: creates the queue (readable as {@code system_queues."queue"}). */
    public void setUpQueue(String queue) {
        call("dbms_streams_adm.set_up_queue", args("queue_name", required("queue", queue)));
    }

    /**
     * {@code dbms_streams_adm.add_table_rules} with the default options and the given rule set;
     * the capture (and queue) is created, disabled, when it does not exist.
     *
     * @param table         {@code ks.table}
     * @param inclusionRule true for the positive rule set, false for the negative one
     * @return the names of the rules made
     */
    public List<String> addTableRules(String table, String capture, String queue, boolean inclusionRule) {
        return addTableRules(table, capture, queue, StreamsRuleOptions.DEFAULTS.withInclusionRule(inclusionRule));
    }

    /** {@code dbms_streams_adm.add_table_rules} with all its options; returns the names of the rules made. */
    public List<String> addTableRules(String table, String capture, String queue, StreamsRuleOptions options) {
        Map<String, Object> a = args("table_name", required("table", table));
        return ruleNames(call("dbms_streams_adm.add_table_rules", streamsRuleArgs(a, capture, queue, options)));
    }

    /** {@code dbms_streams_adm.add_schema_rules} with the default options; returns the names of the rules made. */
    public List<String> addSchemaRules(String schema, String capture, String queue, boolean inclusionRule) {
        return addSchemaRules(schema, capture, queue, StreamsRuleOptions.DEFAULTS.withInclusionRule(inclusionRule));
    }

    /** {@code dbms_streams_adm.add_schema_rules} (a schema is a keyspace); returns the names of the rules made. */
    public List<String> addSchemaRules(String schema, String capture, String queue, StreamsRuleOptions options) {
        Map<String, Object> a = args("schema_name", required("schema", schema));
        return ruleNames(call("dbms_streams_adm.add_schema_rules", streamsRuleArgs(a, capture, queue, options)));
    }

    /** {@code dbms_streams_adm.add_global_rules} with the default options; returns the names of the rules made. */
    public List<String> addGlobalRules(String capture, String queue, boolean inclusionRule) {
        return addGlobalRules(capture, queue, StreamsRuleOptions.DEFAULTS.withInclusionRule(inclusionRule));
    }

    /** {@code dbms_streams_adm.add_global_rules}; returns the names of the rules made. */
    public List<String> addGlobalRules(String capture, String queue, StreamsRuleOptions options) {
        return ruleNames(call("dbms_streams_adm.add_global_rules", streamsRuleArgs(new LinkedHashMap<>(), capture, queue, options)));
    }

    /**
     * {@code dbms_streams_adm.add_subset_rules} for untagged changes: the insert, update and delete
     * rules that keep the rows satisfying {@code dmlCondition} (e.g. {@code department_id = 50}).
     *
     * @return the names of the rules made (insert, update, delete)
     */
    public List<String> addSubsetRules(String table, String dmlCondition, String capture, String queue) {
        return addSubsetRules(table, dmlCondition, capture, queue, false);
    }

    /** {@link #addSubsetRules(String, String, String, String)} choosing {@code include_tagged_lcr}. */
    public List<String> addSubsetRules(String table, String dmlCondition, String capture, String queue,
            boolean includeTaggedLcr) {
        Map<String, Object> a = args("table_name", required("table", table),
                "dml_condition", required("dmlCondition", dmlCondition),
                "streams_type", STREAMS_TYPE,
                "streams_name", required("capture", capture),
                "queue_name", required("queue", queue));
        a.put("include_tagged_lcr", includeTaggedLcr);
        return ruleNames(call("dbms_streams_adm.add_subset_rules", a));
    }

    /**
     * {@code dbms_streams_adm.remove_rule}: removes a rule from a capture's positive
     * ({@code inclusionRule}) or negative rule set, dropping it when no other set uses it.
     *
     * @param rule the rule, or null for all the rules of that set
     */
    public void removeStreamsRule(String capture, String rule, boolean inclusionRule) {
        Map<String, Object> a = args("rule_name", rule, "streams_type", STREAMS_TYPE,
                "streams_name", required("capture", capture));
        a.put("inclusion_rule", inclusionRule);
        call("dbms_streams_adm.remove_rule", a);
    }

    // ---------------------------------------------------------------- dbms_rule_adm

    /** {@code dbms_rule_adm.create_rule_set}. */
    public void createRuleSet(String ruleSet) {
        call("dbms_rule_adm.create_rule_set", args("rule_set_name", required("ruleSet", ruleSet)));
    }

    /** {@code dbms_rule_adm.create_rule} with an Oracle-style condition such as {@code :dml.is_null_tag() = 'Y'}. */
    public void createRule(String rule, String condition) {
        call("dbms_rule_adm.create_rule", args("rule_name", required("rule", rule),
                "condition", required("condition", condition)));
    }

    /** {@code dbms_rule_adm.add_rule}: puts a rule into a rule set. */
    public void addRule(String rule, String ruleSet) {
        call("dbms_rule_adm.add_rule", args("rule_name", required("rule", rule),
                "rule_set_name", required("ruleSet", ruleSet)));
    }

    /** {@code dbms_rule_adm.remove_rule}: takes a rule out of a rule set (the rule stays). */
    public void removeRule(String rule, String ruleSet) {
        call("dbms_rule_adm.remove_rule", args("rule_name", required("rule", rule),
                "rule_set_name", required("ruleSet", ruleSet)));
    }

    /** {@code dbms_rule_adm.drop_rule}. */
    public void dropRule(String rule) {
        call("dbms_rule_adm.drop_rule", args("rule_name", required("rule", rule)));
    }

    /** {@code dbms_rule_adm.drop_rule_set}; {@code deleteRules} also drops the rules it holds. */
    public void dropRuleSet(String ruleSet, boolean deleteRules) {
        Map<String, Object> a = args("rule_set_name", required("ruleSet", ruleSet));
        a.put("delete_rules", deleteRules);
        call("dbms_rule_adm.drop_rule_set", a);
    }

    // ---------------------------------------------------------------- dbms_streams

    /**
     * {@code dbms_streams.set_tag} on the server: the session's tag becomes the one the answer
     * reports, and the session's later writes carry it; null sets the tag to NULL.
     * ({@link Session#setTag(byte[])} sets it locally, without a call.)
     */
    public void setTag(byte[] tag) {
        call("dbms_streams.set_tag", args("tag", tag));
    }

    /** {@code dbms_streams.get_tag}: the session's tag as the server sees it, or null when it is NULL. */
    public byte[] getTag() {
        Row row = call("dbms_streams.get_tag").one();
        ByteBuffer tag = row == null ? null : row.getBytes(0);
        if (tag == null) {
            return null;
        }
        byte[] out = new byte[tag.remaining()];
        tag.duplicate().get(out);
        return out;
    }

    // ---------------------------------------------------------------- helpers

    private static String checkProcedure(String procedure) {
        Objects.requireNonNull(procedure, "procedure");
        String p = procedure.trim();
        int dot = p.indexOf('.');
        if (dot <= 0 || dot == p.length() - 1 || p.indexOf('.', dot + 1) >= 0) {
            throw new IllegalArgumentException("procedure '" + procedure
                    + "' is not package.procedure (e.g. dbms_capture_adm.start_capture)");
        }
        return p;
    }

    private static AdminArgument argument(String procedure, String name, Object value) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("an argument of " + procedure + " has no name");
        }
        if (!(value == null || value instanceof String || value instanceof Long || value instanceof Integer
                || value instanceof Boolean || value instanceof byte[] || value instanceof ByteBuffer)) {
            throw new IllegalArgumentException("argument '" + name + "' of " + procedure
                    + " must be a String, Long, Integer, Boolean, byte[], ByteBuffer or null, got "
                    + value.getClass().getName());
        }
        // The accepted classes map to exactly the wire kinds the service takes: text, integer,
        // boolean, blob, and an unset value for NULL.
        return AdminArgument.newBuilder().setName(name)
                .setValue(ValueCodec.encode(value, null, "argument '" + name + "' of " + procedure)).build();
    }

    private static Map<String, Object> streamsRuleArgs(Map<String, Object> a, String capture, String queue,
            StreamsRuleOptions options) {
        Objects.requireNonNull(options, "options");
        a.put("streams_type", STREAMS_TYPE);
        a.put("streams_name", required("capture", capture));
        a.put("queue_name", required("queue", queue));
        a.put("include_dml", options.includeDml());
        a.put("include_ddl", options.includeDdl());
        a.put("include_tagged_lcr", options.includeTaggedLcr());
        a.put("inclusion_rule", options.inclusionRule());
        if (options.andCondition() != null) {
            a.put("and_condition", options.andCondition());
        }
        return a;
    }

    /** Name-value pairs in order; a LinkedHashMap since values may be null and order is kept. */
    private static Map<String, Object> args(Object... namesAndValues) {
        Map<String, Object> a = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            a.put((String) namesAndValues[i], namesAndValues[i + 1]);
        }
        return a;
    }

    private static String required(String what, String value) {
        return Objects.requireNonNull(value, what);
    }

    private static List<String> ruleNames(ResultSet result) {
        List<String> names = new ArrayList<>(result.size());
        for (Row row : result) {
            names.add(row.getString(RULE_NAME_COLUMN));
        }
        return List.copyOf(names);
    }

    @Override
    public String toString() {
        return "Admin[" + session + "]";
    }
}
