package dev.tributary.rules;

import dev.tributary.rules.eval.RuleInput;
import dev.tributary.rules.eval.Truth;
import dev.tributary.rules.internal.Ast.BoolNode;
import dev.tributary.rules.internal.Outcomes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One rule set compiled for lookup. Each rule is filed under the keys {@link KeyExtractor}
 * derives from its condition: by (owner, object) for table rules, by owner for schema rules, by
 * object name, by base table, base owner or base name (DDL, full inputs only), and in a fallback list when no key can be
 * derived (global and unindexable custom rules). There are four such indexes: row or DDL
 * changes, each with partial or full information. An input is evaluated only against the rules
 * filed under its own keys plus the fallback list, so the cost does not grow with the number of
 * table rules. Every rule left out is certainly not TRUE for the input, so results equal a scan
 * of all rules. Immutable and thread-safe.
 */
public final class RuleIndex {
    private static final Entry[] NONE = new Entry[0];

    private final List<Rule> rules;
    private final Bucket partialDml;
    private final Bucket partialDdl;
    private final Bucket fullDml;
    private final Bucket fullDdl;

    /** One rule as filed, with the command types it is restricted to under this key (null: any). */
    private static final class Entry {
        final int ordinal;
        final BoolNode root;
        final Set<String> commands;

        Entry(int ordinal, BoolNode root, Set<String> commands) {
            this.ordinal = ordinal;
            this.root = root;
            this.commands = commands;
        }
    }

    private static final class Bucket {
        final Map<String, Map<String, Entry[]>> byTable;
        final Map<String, Entry[]> byOwner;
        final Map<String, Entry[]> byName;
        final Map<String, Map<String, Entry[]>> byBaseTable;
        final Map<String, Entry[]> byBaseOwner;
        final Map<String, Entry[]> byBaseName;
        final Entry[] fallback;

        Bucket(BucketBuilder b) {
            byTable = freezeNested(b.byTable);
            byOwner = freeze(b.byOwner);
            byName = freeze(b.byName);
            byBaseTable = freezeNested(b.byBaseTable);
            byBaseOwner = freeze(b.byBaseOwner);
            byBaseName = freeze(b.byBaseName);
            fallback = b.fallback.toArray(NONE);
        }

        private static Map<String, Entry[]> freeze(Map<String, List<Entry>> m) {
            Map<String, Entry[]> out = new HashMap<>(Math.max(4, m.size() * 2));
            m.forEach((k, v) -> out.put(k, v.toArray(NONE)));
            return out;
        }

        private static Map<String, Map<String, Entry[]>> freezeNested(Map<String, Map<String, List<Entry>>> m) {
            Map<String, Map<String, Entry[]>> out = new HashMap<>(Math.max(4, m.size() * 2));
            m.forEach((k, v) -> out.put(k, freeze(v)));
            return out;
        }
    }

    private static final class BucketBuilder {
        final Map<String, Map<String, List<Entry>>> byTable = new HashMap<>();
        final Map<String, List<Entry>> byOwner = new HashMap<>();
        final Map<String, List<Entry>> byName = new HashMap<>();
        final Map<String, Map<String, List<Entry>>> byBaseTable = new HashMap<>();
        final Map<String, List<Entry>> byBaseOwner = new HashMap<>();
        final Map<String, List<Entry>> byBaseName = new HashMap<>();
        final List<Entry> fallback = new ArrayList<>();

        void file(int ordinal, BoolNode root, KeyPattern p) {
            Entry e = new Entry(ordinal, root, p == null ? null : p.commands);
            if (p == null || (p.objectOwner == null && p.objectName == null && p.baseOwner == null && p.baseName == null)) {
                fallback.add(e);
            } else if (p.objectOwner != null && p.objectName != null) {
                byTable.computeIfAbsent(p.objectOwner, k -> new HashMap<>()).computeIfAbsent(p.objectName, k -> new ArrayList<>()).add(e);
            } else if (p.objectOwner != null) {
                byOwner.computeIfAbsent(p.objectOwner, k -> new ArrayList<>()).add(e);
            } else if (p.objectName != null) {
                byName.computeIfAbsent(p.objectName, k -> new ArrayList<>()).add(e);
            } else if (p.baseOwner != null && p.baseName != null) {
                byBaseTable.computeIfAbsent(p.baseOwner, k -> new HashMap<>()).computeIfAbsent(p.baseName, k -> new ArrayList<>()).add(e);
            } else if (p.baseOwner != null) {
                byBaseOwner.computeIfAbsent(p.baseOwner, k -> new ArrayList<>()).add(e);
            } else {
                byBaseName.computeIfAbsent(p.baseName, k -> new ArrayList<>()).add(e);
            }
        }
    }

    private RuleIndex(List<Rule> rules) {
        this.rules = List.copyOf(rules);
        BucketBuilder pDml = new BucketBuilder();
        BucketBuilder pDdl = new BucketBuilder();
        BucketBuilder fDml = new BucketBuilder();
        BucketBuilder fDdl = new BucketBuilder();
        for (int i = 0; i < this.rules.size(); i++) {
            Rule rule = this.rules.get(i);
            BoolNode root = rule.condition().syntaxTree();
            List<KeyPattern> partial = KeyExtractor.extract(root, false);
            List<KeyPattern> full = KeyExtractor.extract(root, true);
            if (rule.appliesTo(false)) {
                fileAll(pDml, i, root, partial, false);
                fileAll(fDml, i, root, full, false);
            }
            if (rule.appliesTo(true)) {
                fileAll(pDdl, i, root, partial, true);
                fileAll(fDdl, i, root, full, true);
            }
        }
        partialDml = new Bucket(pDml);
        partialDdl = new Bucket(pDdl);
        fullDml = new Bucket(fDml);
        fullDdl = new Bucket(fDdl);
    }

    private static void fileAll(BucketBuilder b, int ordinal, BoolNode root, List<KeyPattern> patterns, boolean ddl) {
        if (patterns == null) {
            b.file(ordinal, root, null);
            return;
        }
        for (KeyPattern p : patterns) {
            if (p.ddl == null || p.ddl == ddl) {
                b.file(ordinal, root, p);
            }
        }
    }

    /** Compiles rules; their order here is the order in which matching rules are reported. */
    public static RuleIndex build(List<Rule> rules) {
        return new RuleIndex(rules);
    }

    public List<Rule> rules() {
        return rules;
    }

    /** How many rules are evaluated for every change of the given kind (not indexable). */
    public int fallbackSize(boolean ddl, boolean partial) {
        return select(ddl, partial).fallback.length;
    }

    private Bucket select(boolean ddl, boolean partial) {
        if (partial) {
            return ddl ? partialDdl : partialDml;
        }
        return ddl ? fullDdl : fullDml;
    }

    private static final int NO = 0;
    private static final int MAYBE = 1;
    private static final int YES = 2;

    /** The rule set's truth: TRUE if a rule is TRUE, else MAYBE if one is MAYBE, else FALSE. */
    public Truth truth(RuleInput in) {
        boolean ddl = in.isDdl();
        Bucket b = select(ddl, in.isPartial());
        String owner = in.objectOwner();
        String name = in.objectName();
        String command = in.commandType();
        int best = NO;
        Map<String, Entry[]> tables = b.byTable.get(owner);
        if (tables != null) {
            best = Math.max(best, scan(tables.get(name), in, command));
            if (best == YES) {
                return Truth.TRUE;
            }
        }
        best = Math.max(best, scan(b.byOwner.get(owner), in, command));
        if (best == YES) {
            return Truth.TRUE;
        }
        best = Math.max(best, scan(b.byName.get(name), in, command));
        if (best == YES) {
            return Truth.TRUE;
        }
        if (ddl && !in.isPartial()) {
            Map<String, Entry[]> baseTables = b.byBaseTable.get(in.baseTableOwner());
            if (baseTables != null) {
                best = Math.max(best, scan(baseTables.get(in.baseTableName()), in, command));
            }
            best = Math.max(best, scan(b.byBaseOwner.get(in.baseTableOwner()), in, command));
            best = Math.max(best, scan(b.byBaseName.get(in.baseTableName()), in, command));
            if (best == YES) {
                return Truth.TRUE;
            }
        }
        best = Math.max(best, scan(b.fallback, in, command));
        return best == YES ? Truth.TRUE : best == MAYBE ? Truth.MAYBE : Truth.FALSE;
    }

    private static int scan(Entry[] entries, RuleInput in, String command) {
        if (entries == null) {
            return NO;
        }
        int best = NO;
        for (Entry e : entries) {
            if (e.commands != null && (command == null || !e.commands.contains(command))) {
                continue;
            }
            int mask = e.root.test(in);
            if (mask == Outcomes.T) {
                return YES;
            }
            if ((mask & Outcomes.T) != 0) {
                best = MAYBE;
            }
        }
        return best;
    }

    /** The rules that are TRUE for the input, in rule order, each once. */
    public List<Rule> trueRules(RuleInput in) {
        boolean ddl = in.isDdl();
        Bucket b = select(ddl, in.isPartial());
        String owner = in.objectOwner();
        String name = in.objectName();
        String command = in.commandType();
        int[] found = new int[4];
        int[] count = {0};
        Map<String, Entry[]> tables = b.byTable.get(owner);
        if (tables != null) {
            found = collect(tables.get(name), in, command, found, count);
        }
        found = collect(b.byOwner.get(owner), in, command, found, count);
        found = collect(b.byName.get(name), in, command, found, count);
        if (ddl && !in.isPartial()) {
            Map<String, Entry[]> baseTables = b.byBaseTable.get(in.baseTableOwner());
            if (baseTables != null) {
                found = collect(baseTables.get(in.baseTableName()), in, command, found, count);
            }
            found = collect(b.byBaseOwner.get(in.baseTableOwner()), in, command, found, count);
            found = collect(b.byBaseName.get(in.baseTableName()), in, command, found, count);
        }
        found = collect(b.fallback, in, command, found, count);
        int n = count[0];
        if (n == 0) {
            return List.of();
        }
        if (n == 1) {
            return List.of(rules.get(found[0]));
        }
        int[] ordinals = Arrays.copyOf(found, n);
        Arrays.sort(ordinals);
        List<Rule> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            if (i == 0 || ordinals[i] != ordinals[i - 1]) {
                out.add(rules.get(ordinals[i]));
            }
        }
        return out;
    }

    private static int[] collect(Entry[] entries, RuleInput in, String command, int[] found, int[] count) {
        if (entries == null) {
            return found;
        }
        int[] f = found;
        for (Entry e : entries) {
            if (e.commands != null && (command == null || !e.commands.contains(command))) {
                continue;
            }
            if (e.root.test(in) == Outcomes.T) {
                if (count[0] == f.length) {
                    f = Arrays.copyOf(f, f.length * 2);
                }
                f[count[0]++] = e.ordinal;
            }
        }
        return f;
    }
}
