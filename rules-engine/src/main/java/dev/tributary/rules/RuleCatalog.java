package dev.tributary.rules;

import dev.tributary.rules.errors.InvalidRuleArgumentException;
import dev.tributary.rules.errors.ObjectExistsException;
import dev.tributary.rules.errors.RuleInUseException;
import dev.tributary.rules.errors.RuleMembershipException;
import dev.tributary.rules.errors.RuleNotFoundException;
import dev.tributary.rules.errors.RuleSetNotFoundException;
import dev.tributary.rules.eval.RuleNames;
import dev.tributary.rules.internal.Ast.BoolNode;
import dev.tributary.rules.internal.Parser;
import dev.tributary.rules.RuleTemplates;
import dev.tributary.rules.transform.DeclarativeTransformation;
import dev.tributary.rules.transform.RuleTransformations;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The rules and rule sets of one database, with the procedures of dbms_rule_adm (create and drop
 * rule sets and rules, add and remove rules) and the system-made rule generators of
 * dbms_streams_adm (add_table_rules, add_schema_rules, add_global_rules, add_subset_rules,
 * remove_rule).
 *
 * <p>Names: rule and rule set names are Oracle identifiers, unquoted ones upper-cased, and may be
 * qualified ({@code strmadmin.jobs12}); an unqualified name belongs to the catalog's default
 * owner. Table and schema names given to the generators are CQL names ({@code hr.employees},
 * {@code "MyKs".t}); the generated conditions compare their rule form ({@code 'HR'},
 * {@code 'EMPLOYEES'}, see {@link RuleNames}). System-made rules are named like Oracle's, after
 * the object plus a sequence number ({@code EMPLOYEES12}); rule sets created for a client
 * without one are named {@code RULESET$_n}.
 *
 * <p>Thread-safety: all methods are synchronized; every value returned is immutable. A change
 * bumps {@link #version()}, so a capture can tell when to {@link #compile} again. Errors are
 * {@link dev.tributary.rules.errors.RulesException}s naming the rule, rule set or condition; a
 * failed call changes nothing.
 */
public final class RuleCatalog {
    /** The evaluation context every Streams rule and rule set uses. */
    public static final String EVALUATION_CONTEXT_OWNER = "SYS";
    public static final String EVALUATION_CONTEXT_NAME = "STREAMS$_EVALUATION_CONTEXT";
    private static final int MAX_NAME_BASE = 26;

    private final String localDatabase;
    private final String defaultOwner;
    private final Map<QualifiedName, Rule> rules = new TreeMap<>();
    private final Map<QualifiedName, MutableRuleSet> ruleSets = new TreeMap<>();
    private long sequence;
    private long version;

    private static final class MutableRuleSet {
        final QualifiedName name;
        final String comment;
        final LinkedHashSet<QualifiedName> members = new LinkedHashSet<>();

        MutableRuleSet(QualifiedName name, String comment) {
            this.name = name;
            this.comment = comment == null ? "" : comment;
        }

        RuleSet freeze() {
            return new RuleSet(name.owner(), name.name(), List.copyOf(members), comment);
        }
    }

    /**
     * An empty catalog.
     *
     * @param localDatabase the global name of the local database (the default source_database of
     *     system-made rules), e.g. {@code DB1}; stored upper-cased
     * @param defaultOwner the owner of unqualified names and of system-made rules and rule sets
     *     (the Streams administrator), e.g. {@code TRIBUTARY}; stored as an Oracle identifier
     */
    public RuleCatalog(String localDatabase, String defaultOwner) {
        this.localDatabase = Objects.requireNonNull(localDatabase, "localDatabase").strip().toUpperCase(Locale.ROOT);
        this.defaultOwner = RuleNames.oracleIdentifier(Objects.requireNonNull(defaultOwner, "defaultOwner"));
        if (this.localDatabase.isEmpty()) {
            throw new InvalidRuleArgumentException("the local database needs a global name");
        }
    }

    /** A catalog holding what a snapshot holds. */
    public static RuleCatalog restore(CatalogSnapshot snapshot, String localDatabase, String defaultOwner) {
        RuleCatalog c = new RuleCatalog(localDatabase, defaultOwner);
        c.sequence = snapshot.sequence();
        for (Rule r : snapshot.rules()) {
            if (c.rules.put(r.qualifiedName(), r) != null) {
                throw new InvalidRuleArgumentException("snapshot holds rule " + r.qualifiedName() + " twice");
            }
        }
        for (RuleSet s : snapshot.ruleSets()) {
            MutableRuleSet m = new MutableRuleSet(s.qualifiedName(), s.comment());
            for (QualifiedName member : s.rules()) {
                if (!c.rules.containsKey(member)) {
                    throw new InvalidRuleArgumentException("snapshot's rule set " + s.qualifiedName()
                            + " contains rule " + member + ", which the snapshot lacks");
                }
                m.members.add(member);
            }
            if (c.ruleSets.put(m.name, m) != null) {
                throw new InvalidRuleArgumentException("snapshot holds rule set " + m.name + " twice");
            }
        }
        return c;
    }

    public String localDatabase() {
        return localDatabase;
    }

    public String defaultOwner() {
        return defaultOwner;
    }

    /** Increases with every change. */
    public synchronized long version() {
        return version;
    }

    /** Resolves a rule or rule set name as written, with the default owner. */
    public QualifiedName resolve(String written) {
        return QualifiedName.parse(written, defaultOwner);
    }

    // ------------------------------------------------------------------ dbms_rule_adm

    /**
     * create_rule_set.
     *
     * @throws ObjectExistsException if a rule set of that name exists
     */
    public synchronized QualifiedName createRuleSet(String ruleSetName, String comment) {
        QualifiedName name = resolve(ruleSetName);
        if (ruleSets.containsKey(name)) {
            throw new ObjectExistsException("rule set", name.toString());
        }
        ruleSets.put(name, new MutableRuleSet(name, comment));
        version++;
        return name;
    }

    /**
     * drop_rule_set. With {@code deleteRules}, the rules it contains are dropped too, except those
     * another rule set still contains.
     *
     * @throws RuleSetNotFoundException if there is no such rule set
     */
    public synchronized void dropRuleSet(String ruleSetName, boolean deleteRules) {
        QualifiedName name = resolve(ruleSetName);
        MutableRuleSet set = requireSet(name);
        ruleSets.remove(name);
        if (deleteRules) {
            for (QualifiedName r : set.members) {
                if (ruleSetsContaining(r).isEmpty()) {
                    rules.remove(r);
                }
            }
        }
        version++;
    }

    /**
     * create_rule.
     *
     * @throws ObjectExistsException if a rule of that name exists
     * @throws dev.tributary.rules.errors.ConditionSyntaxException if the condition does not parse
     */
    public synchronized Rule createRule(String ruleName, String condition, String comment) {
        QualifiedName name = resolve(ruleName);
        if (rules.containsKey(name)) {
            throw new ObjectExistsException("rule", name.toString());
        }
        Rule rule = Rule.custom(name.owner(), name.name(), Condition.parse(condition), comment);
        rules.put(name, rule);
        version++;
        return rule;
    }

    /**
     * drop_rule. Without {@code force} a rule still in a rule set cannot be dropped; with it, it
     * is removed from every rule set first.
     *
     * @throws RuleNotFoundException if there is no such rule
     * @throws RuleInUseException if it is in a rule set and {@code force} is false
     */
    public synchronized void dropRule(String ruleName, boolean force) {
        QualifiedName name = resolve(ruleName);
        requireRule(name);
        List<QualifiedName> containing = ruleSetsContaining(name);
        if (!containing.isEmpty() && !force) {
            throw new RuleInUseException(name.toString(), containing.stream().map(QualifiedName::toString).toList());
        }
        for (QualifiedName s : containing) {
            ruleSets.get(s).members.remove(name);
        }
        rules.remove(name);
        version++;
    }

    /**
     * add_rule.
     *
     * @throws RuleNotFoundException, RuleSetNotFoundException if either does not exist
     * @throws RuleMembershipException if the rule is already in the rule set
     */
    public synchronized void addRule(String ruleName, String ruleSetName) {
        changeMembership(ruleName, ruleSetName, true);
    }

    /**
     * remove_rule of dbms_rule_adm: takes the rule out of the rule set; the rule itself remains.
     *
     * @throws RuleMembershipException if the rule is not in the rule set
     */
    public synchronized void removeRule(String ruleName, String ruleSetName) {
        changeMembership(ruleName, ruleSetName, false);
    }

    /** add_rule ({@code add}) or remove_rule: both must exist, and the membership must change. */
    private void changeMembership(String ruleName, String ruleSetName, boolean add) {
        QualifiedName rule = resolve(ruleName);
        QualifiedName setName = resolve(ruleSetName);
        requireRule(rule);
        MutableRuleSet set = requireSet(setName);
        boolean changed = add ? set.members.add(rule) : set.members.remove(rule);
        if (!changed) {
            throw new RuleMembershipException(rule.toString(), setName.toString(), add);
        }
        version++;
    }

    // ------------------------------------------------------------------ dbms_streams_adm

    /**
     * add_table_rules: a DML rule and/or a DDL rule for one table, added to the client's positive
     * rule set ({@code inclusionRule}) or negative one, which is created if the client has none.
     * If the rule set already holds a system-made rule with the same condition, that rule is
     * returned instead of a new one.
     *
     * @param tableName {@code keyspace.table} as written in CQL
     * @throws InvalidRuleArgumentException for an unqualified table, neither DML nor DDL, or a bad
     *     and_condition
     * @throws RuleSetNotFoundException if the client names a rule set that does not exist
     */
    public synchronized StreamsRulesResult addTableRules(StreamsClient client, String tableName, StreamsRuleOptions options) {
        String[] table = tableName(tableName);
        return addRules(client, options, RuleKind.TABLE, table[0], table[1]);
    }

    /** add_schema_rules: like {@link #addTableRules} for every object of a keyspace. */
    public synchronized StreamsRulesResult addSchemaRules(StreamsClient client, String schemaName, StreamsRuleOptions options) {
        String schema = RuleNames.ruleForm(cqlName(schemaName, "schema name"));
        return addRules(client, options, RuleKind.SCHEMA, schema, null);
    }

    /** add_global_rules: like {@link #addTableRules} for every object of the database. */
    public synchronized StreamsRulesResult addGlobalRules(StreamsClient client, StreamsRuleOptions options) {
        return addRules(client, options, RuleKind.GLOBAL, null, null);
    }

    private StreamsRulesResult addRules(StreamsClient client, StreamsRuleOptions options, RuleKind kind,
                                        String schema, String object) {
        if (!options.includeDml() && !options.includeDdl()) {
            throw new InvalidRuleArgumentException("include_dml and include_ddl are both false: no rule to add");
        }
        String source = sourceDatabase(options.sourceDatabase());
        BoolNode andCondition = options.andCondition().map(c -> Parser.parse(c, Parser.Mode.AND_CONDITION)).orElse(null);
        RuleSetRole role = options.role();
        // build every rule before changing anything, so a bad argument leaves the catalog as it was
        List<Rule> made = new ArrayList<>();
        for (boolean ddl : new boolean[] {false, true}) {
            if (ddl ? !options.includeDdl() : !options.includeDml()) {
                continue;
            }
            String condition = switch (kind) {
                case TABLE -> RuleTemplates.table(ddl, schema, object, options.includeTaggedLcr(), source);
                case SCHEMA -> RuleTemplates.schema(ddl, schema, options.includeTaggedLcr(), source);
                default -> RuleTemplates.global(ddl, options.includeTaggedLcr(), source);
            };
            if (andCondition != null) {
                condition = RuleTemplates.withAndCondition(condition, andCondition, ddl);
            }
            SystemRuleSpec spec = new SystemRuleSpec(Optional.ofNullable(schema), Optional.ofNullable(object),
                    Optional.empty(), Optional.empty(), Set.of(), options.includeTaggedLcr(), source,
                    options.andCondition(), condition);
            made.add(systemRule(kind, DmlOrDdl.of(ddl), condition, spec));
        }
        RuleSetTarget target = ruleSetFor(client, role);
        List<QualifiedName> names = new ArrayList<>();
        String nameBase = kind == RuleKind.TABLE ? object : kind == RuleKind.SCHEMA ? schema : source;
        for (Rule template : made) {
            names.add(place(target, template, nameBase));
        }
        version++;
        Optional<QualifiedName> dml = options.includeDml() ? Optional.of(names.get(0)) : Optional.empty();
        Optional<QualifiedName> ddlRule = options.includeDdl() ? Optional.of(names.get(names.size() - 1)) : Optional.empty();
        return new StreamsRulesResult(dml, ddlRule, target.name, role, target.created);
    }

    /**
     * add_subset_rules: the three rules (insert, update, delete) that capture the rows of a table
     * satisfying {@code dmlCondition}, with row migration, in the client's positive rule set
     * (created if the client has none). The dml_condition names columns directly
     * ({@code department_id = 50}); capture must log the old values of those columns
     * (supplemental logging, see {@link CompiledRuleSets#supplementalLogging()}).
     *
     * @throws dev.tributary.rules.errors.ConditionSyntaxException if the dml_condition does not parse
     * @throws InvalidRuleArgumentException for an unqualified table or a dml_condition naming no column
     */
    public synchronized SubsetRulesResult addSubsetRules(StreamsClient client, String tableName, String dmlCondition,
                                                         boolean includeTaggedLcr, Optional<String> sourceDatabase) {
        String[] table = tableName(tableName);
        Condition parsed = Condition.parseDmlCondition(dmlCondition);
        if (parsed.columns().isEmpty()) {
            throw new InvalidRuleArgumentException("dml_condition " + dmlCondition + " names no column of " + tableName);
        }
        String source = sourceDatabase(sourceDatabase);
        List<Rule> made = new ArrayList<>();
        for (SubsetOperation op : SubsetOperation.values()) {
            String condition = RuleTemplates.subset(op, table[0], table[1], parsed.syntaxTree(), includeTaggedLcr, source);
            SystemRuleSpec spec = new SystemRuleSpec(Optional.of(table[0]), Optional.of(table[1]), Optional.of(op),
                    Optional.of(dmlCondition), parsed.columns(), includeTaggedLcr, source, Optional.empty(), condition);
            made.add(systemRule(RuleKind.SUBSET, DmlOrDdl.DML, condition, spec));
        }
        RuleSetTarget target = ruleSetFor(client, RuleSetRole.POSITIVE);
        List<QualifiedName> names = new ArrayList<>();
        for (Rule template : made) {
            names.add(place(target, template, table[1]));
        }
        version++;
        return new SubsetRulesResult(names.get(0), names.get(1), names.get(2), target.name, target.created);
    }

    /**
     * remove_rule of dbms_streams_adm: takes one rule ({@code ruleName}) or, when empty, every
     * rule out of the client's positive ({@code inclusionRule}) or negative rule set; with
     * {@code dropUnusedRule}, a removed rule no rule set contains any more is dropped.
     *
     * @return the rules removed from the rule set
     * @throws InvalidRuleArgumentException if the client has no such rule set
     * @throws RuleMembershipException if the named rule is not in it
     */
    public synchronized List<QualifiedName> removeStreamsRules(StreamsClient client, Optional<String> ruleName,
                                                               boolean dropUnusedRule, boolean inclusionRule) {
        RuleSetRole role = inclusionRule ? RuleSetRole.POSITIVE : RuleSetRole.NEGATIVE;
        QualifiedName setName = client.ruleSet(role).orElseThrow(() -> new InvalidRuleArgumentException(
                client.type() + " " + client.name() + " has no " + role.name().toLowerCase(Locale.ROOT) + " rule set"));
        MutableRuleSet set = requireSet(setName);
        List<QualifiedName> removed;
        if (ruleName.isPresent()) {
            QualifiedName rule = resolve(ruleName.get());
            requireRule(rule);
            if (!set.members.contains(rule)) {
                throw new RuleMembershipException(rule.toString(), setName.toString(), false);
            }
            removed = List.of(rule);
        } else {
            removed = List.copyOf(set.members);
        }
        for (QualifiedName r : removed) {
            set.members.remove(r);
            if (dropUnusedRule && ruleSetsContaining(r).isEmpty()) {
                rules.remove(r);
            }
        }
        version++;
        return removed;
    }

    private Rule systemRule(RuleKind kind, DmlOrDdl type, String condition, SystemRuleSpec spec) {
        Condition parsed = Condition.parse(condition);
        // the owner and name are placeholders until place() names the rule
        return new Rule(defaultOwner, "NEW", parsed, kind, Optional.of(type), Optional.of(spec), RuleTransformations.NONE, "");
    }

    private record RuleSetTarget(QualifiedName name, MutableRuleSet set, boolean created) {
    }

    private RuleSetTarget ruleSetFor(StreamsClient client, RuleSetRole role) {
        Optional<QualifiedName> existing = client.ruleSet(role);
        if (existing.isPresent()) {
            return new RuleSetTarget(existing.get(), requireSet(existing.get()), false);
        }
        QualifiedName name = nextName("RULESET$_", ruleSets.keySet());
        MutableRuleSet set = new MutableRuleSet(name, "streams name is " + client.name());
        ruleSets.put(name, set);
        return new RuleSetTarget(name, set, true);
    }

    /** Adds a generated rule to the rule set, or finds the equal system-made rule already there. */
    private QualifiedName place(RuleSetTarget target, Rule template, String nameBase) {
        String text = template.condition().text();
        int hash = text.hashCode();
        for (QualifiedName member : target.set.members) {
            Rule r = rules.get(member);
            // the cached hash first: a rule set may hold thousands of rules of one table pattern
            String existing = r.condition().text();
            if (existing.hashCode() == hash && existing.equals(text) && r.kind() == template.kind()
                    && r.ruleType().equals(template.ruleType())) {
                return member;
            }
        }
        QualifiedName name = nextName(nameBase(nameBase), rules.keySet());
        Rule rule = new Rule(name.owner(), name.name(), template.condition(), template.kind(), template.ruleType(),
                template.system(), RuleTransformations.NONE, "");
        rules.put(name, rule);
        target.set.members.add(name);
        return name;
    }

    private static String nameBase(String object) {
        StringBuilder sb = new StringBuilder();
        for (char c : object.toUpperCase(Locale.ROOT).toCharArray()) {
            if ((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_') {
                sb.append(c);
            }
        }
        if (sb.length() == 0 || !Character.isLetter(sb.charAt(0))) {
            sb.insert(0, "RULE");
        }
        return sb.length() > MAX_NAME_BASE ? sb.substring(0, MAX_NAME_BASE) : sb.toString();
    }

    private QualifiedName nextName(String base, Set<QualifiedName> taken) {
        while (true) {
            QualifiedName candidate = new QualifiedName(defaultOwner, base + (++sequence));
            if (!taken.contains(candidate)) {
                return candidate;
            }
        }
    }

    private String sourceDatabase(Optional<String> given) {
        String s = given.map(String::strip).filter(v -> !v.isEmpty()).orElse(localDatabase);
        return s.toUpperCase(Locale.ROOT);
    }

    /** [owner, table] in rule form. */
    private static String[] tableName(String written) {
        List<String> parts = RuleNames.splitQualified(Objects.requireNonNull(written, "table name").strip());
        if (parts.size() != 2) {
            throw new InvalidRuleArgumentException("table name " + written + " must be qualified: keyspace.table");
        }
        return new String[] {RuleNames.ruleForm(RuleNames.cqlIdentifier(parts.get(0))),
                             RuleNames.ruleForm(RuleNames.cqlIdentifier(parts.get(1)))};
    }

    private static String cqlName(String written, String what) {
        List<String> parts = RuleNames.splitQualified(Objects.requireNonNull(written, what).strip());
        if (parts.size() != 1) {
            throw new InvalidRuleArgumentException(what + " " + written + " must not be qualified");
        }
        return RuleNames.cqlIdentifier(parts.get(0));
    }

    // ------------------------------------------------------------------ transformations

    /**
     * Attaches a declarative transformation (dbms_streams_adm's rename_schema, rename_table,
     * rename_column, add_column, delete_column with operation ADD) to a rule.
     *
     * @throws InvalidRuleArgumentException if the rule is not a DML rule, or the added column's
     *     value is of a type the catalog cannot store
     */
    public synchronized Rule addTransformation(String ruleName, DeclarativeTransformation transformation) {
        QualifiedName name = resolve(ruleName);
        Rule rule = requireRule(name);
        if (rule.ruleType().orElse(null) != DmlOrDdl.DML) {
            throw new InvalidRuleArgumentException("declarative transformations apply to DML rules only; rule " + name
                    + " is " + rule.ruleType().map(Enum::name).orElse("neither DML nor DDL"));
        }
        if (transformation instanceof dev.tributary.rules.transform.AddColumn add && !CatalogCodec.canStore(add.value())) {
            throw new InvalidRuleArgumentException("add_column on rule " + name + ": values of type "
                    + add.value().getClass().getName() + " are not supported");
        }
        Rule updated = rule.withTransformations(rule.transformations().with(transformation));
        rules.put(name, updated);
        version++;
        return updated;
    }

    /**
     * Removes a declarative transformation equal to the given one (operation REMOVE).
     *
     * @throws InvalidRuleArgumentException if the rule has no such transformation
     */
    public synchronized Rule removeTransformation(String ruleName, DeclarativeTransformation transformation) {
        QualifiedName name = resolve(ruleName);
        Rule rule = requireRule(name);
        if (!rule.transformations().declarative().contains(transformation)) {
            throw new InvalidRuleArgumentException("rule " + name + " has no transformation " + transformation);
        }
        Rule updated = rule.withTransformations(rule.transformations().without(transformation));
        rules.put(name, updated);
        version++;
        return updated;
    }

    /**
     * Sets (or, with an empty name, removes) the custom transformation of a DML rule, by the name
     * under which it is registered ({@link dev.tributary.rules.transform.LcrTransformation#name()}).
     *
     * @throws InvalidRuleArgumentException if the rule is not a DML rule
     */
    public synchronized Rule setCustomTransformation(String ruleName, Optional<String> transformationName) {
        QualifiedName name = resolve(ruleName);
        Rule rule = requireRule(name);
        if (transformationName.isPresent() && rule.ruleType().orElse(null) != DmlOrDdl.DML) {
            throw new InvalidRuleArgumentException("transformations apply to DML rules only; rule " + name + " is not one");
        }
        Rule updated = rule.withTransformations(rule.transformations().withCustom(transformationName.map(String::strip)));
        rules.put(name, updated);
        version++;
        return updated;
    }

    // ------------------------------------------------------------------ queries

    public synchronized Optional<Rule> rule(String ruleName) {
        return Optional.ofNullable(rules.get(resolve(ruleName)));
    }

    public synchronized Optional<RuleSet> ruleSet(String ruleSetName) {
        MutableRuleSet s = ruleSets.get(resolve(ruleSetName));
        return s == null ? Optional.empty() : Optional.of(s.freeze());
    }

    /** The rules of a rule set, in the order they were added. */
    public synchronized List<Rule> rulesOf(QualifiedName ruleSet) {
        return requireSet(ruleSet).members.stream().map(rules::get).toList();
    }

    /**
     * Compiles a capture's rule sets.
     *
     * @throws RuleSetNotFoundException if a named rule set does not exist
     */
    public synchronized CompiledRuleSets compile(Optional<QualifiedName> positive, Optional<QualifiedName> negative) {
        return CompiledRuleSets.compile(positive.map(this::rulesOf), negative.map(this::rulesOf));
    }

    public synchronized CompiledRuleSets compile(StreamsClient client) {
        return compile(client.positiveRuleSet(), client.negativeRuleSet());
    }

    /**
     * The columns whose old values must be logged for the subset rules of every rule set, by
     * table in rule form (see {@link CompiledRuleSets#supplementalLogging()} for one capture).
     */
    public synchronized Map<QualifiedName, Set<String>> supplementalLogging() {
        List<Rule> inSets = new ArrayList<>();
        for (MutableRuleSet s : ruleSets.values()) {
            for (QualifiedName m : s.members) {
                inSets.add(rules.get(m));
            }
        }
        return CompiledRuleSets.supplementalLogging(inSets, null);
    }

    /** Everything, for persistence. */
    public synchronized CatalogSnapshot snapshot() {
        return new CatalogSnapshot(sequence, List.copyOf(rules.values()),
                ruleSets.values().stream().map(MutableRuleSet::freeze).toList());
    }

    // ------------------------------------------------------------------ views

    /** The rows of the {@code rules} view (DBA_RULES), by owner and name. */
    public synchronized List<RuleRow> ruleRows() {
        return rules.values().stream().map(r -> new RuleRow(r.owner(), r.name(), r.condition().text(),
                EVALUATION_CONTEXT_OWNER, EVALUATION_CONTEXT_NAME, r.actionContext().orElse(null),
                r.comment().isEmpty() ? null : r.comment())).toList();
    }

    /** The rows of the {@code rule_sets} view (DBA_RULE_SETS), by owner and name. */
    public synchronized List<RuleSetRow> ruleSetRows() {
        return ruleSets.values().stream().map(s -> new RuleSetRow(s.name.owner(), s.name.name(), EVALUATION_CONTEXT_OWNER,
                EVALUATION_CONTEXT_NAME, s.comment.isEmpty() ? null : s.comment)).toList();
    }

    /** Rule set membership (DBA_RULE_SET_RULES). */
    public synchronized List<RuleSetRuleRow> ruleSetRuleRows() {
        List<RuleSetRuleRow> out = new ArrayList<>();
        for (MutableRuleSet s : ruleSets.values()) {
            for (QualifiedName m : s.members) {
                out.add(new RuleSetRuleRow(s.name.owner(), s.name.name(), m.owner(), m.name(), "ENABLED", null));
            }
        }
        return out;
    }

    /**
     * The rows of the {@code streams_rules} view (DBA_STREAMS_RULES): one per rule in each
     * client's positive and negative rule set. Rule sets the catalog no longer has are skipped.
     */
    public synchronized List<StreamsRuleRow> streamsRuleRows(Collection<StreamsClient> clients) {
        List<StreamsRuleRow> out = new ArrayList<>();
        for (StreamsClient client : clients) {
            for (RuleSetRole role : RuleSetRole.values()) {
                Optional<QualifiedName> setName = client.ruleSet(role);
                MutableRuleSet set = setName.map(ruleSets::get).orElse(null);
                if (set == null) {
                    continue;
                }
                for (QualifiedName member : set.members) {
                    out.add(streamsRow(client, role, set.name, rules.get(member)));
                }
            }
        }
        return out;
    }

    private static StreamsRuleRow streamsRow(StreamsClient client, RuleSetRole role, QualifiedName set, Rule r) {
        Optional<SystemRuleSpec> spec = r.system();
        String streamsRuleType = switch (r.kind()) {
            case TABLE, SUBSET -> "TABLE";
            case SCHEMA -> "SCHEMA";
            case GLOBAL -> "GLOBAL";
            case CUSTOM -> null;
        };
        return new StreamsRuleRow(client.type().name(), client.name(), set.owner(), set.name(), r.owner(), r.name(),
                r.ruleType().map(Enum::name).orElse(null), role.name(), streamsRuleType,
                spec.flatMap(SystemRuleSpec::schemaName).orElse(null),
                spec.flatMap(SystemRuleSpec::objectName).orElse(null),
                spec.flatMap(SystemRuleSpec::subsettingOperation).map(Enum::name).orElse(null),
                spec.flatMap(SystemRuleSpec::dmlCondition).orElse(null),
                spec.map(s -> s.includeTaggedLcr() ? "YES" : "NO").orElse(null),
                spec.map(SystemRuleSpec::sourceDatabase).orElse(null),
                r.condition().text(),
                spec.map(SystemRuleSpec::originalCondition).orElse(null),
                spec.map(s -> s.originalCondition().equals(r.condition().text()) ? "YES" : "NO").orElse(null));
    }

    // ------------------------------------------------------------------ helpers

    private Rule requireRule(QualifiedName name) {
        Rule r = rules.get(name);
        if (r == null) {
            throw new RuleNotFoundException(name.toString());
        }
        return r;
    }

    private MutableRuleSet requireSet(QualifiedName name) {
        MutableRuleSet s = ruleSets.get(name);
        if (s == null) {
            throw new RuleSetNotFoundException(name.toString());
        }
        return s;
    }

    private List<QualifiedName> ruleSetsContaining(QualifiedName rule) {
        List<QualifiedName> out = new ArrayList<>();
        for (MutableRuleSet s : ruleSets.values()) {
            if (s.members.contains(rule)) {
                out.add(s.name);
            }
        }
        return out;
    }
}
