package dev.tributary.deploy;

import dev.tributary.client.Row;
import dev.tributary.client.Session;
import dev.tributary.cql.lexer.Identifiers;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.jline.reader.Candidate;
import org.jline.reader.Completer;
import org.jline.reader.LineReader;
import org.jline.reader.ParsedLine;

/**
 * Tab completion in the shell: keywords, keyspaces, tables ({@code ks.} completes the keyspace's
 * tables) and columns — of the tables the statement names, else of every table. The schema is
 * read from {@code system_schema} at each Tab, so it is never stale; when that read fails (the
 * node is gone) only keywords are offered.
 */
final class CqlCompleter implements Completer {
    /** Words of the statement language beyond Cassandra's reserved ones, and the shell's own. */
    private static final List<String> MORE_KEYWORDS = List.of("as", "call", "cdc", "contains", "count", "distinct", "exists",
            "json", "key", "keyspaces", "list", "login", "password", "replication", "role", "roles", "superuser", "system",
            "tables", "tablets", "timestamp", "ttl", "type", "user", "values", "writetime", "exit", "quit");
    private static final Pattern NAMED_TABLE = Pattern.compile("(?i)\\b(?:from|into|update|table|truncate)\\s+([\\w\"$]+(?:\\.[\\w\"$]+)?)");

    private final Session session;

    CqlCompleter(Session session) {
        this.session = session;
    }

    @Override
    public void complete(LineReader reader, ParsedLine line, List<Candidate> candidates) {
        String word = line.word().substring(0, line.wordCursor());
        Map<String, Map<String, Set<String>>> schema = schema();
        int dot = word.indexOf('.');
        if (dot > 0) {
            String ks = word.substring(0, dot);
            schema.getOrDefault(ks.toLowerCase(Locale.ROOT), Map.of()).keySet()
                    .forEach(t -> candidates.add(new Candidate(ks + "." + Identifiers.quoteIfNeeded(t), t, "tables", null, null, null, true)));
            return;
        }
        Stream.concat(Identifiers.RESERVED.stream(), MORE_KEYWORDS.stream()).map(k -> k.toUpperCase(Locale.ROOT))
                .forEach(k -> candidates.add(new Candidate(k, k, "keywords", null, null, null, true)));
        // no space after a keyspace: a '.' and its table may follow
        schema.keySet().forEach(ks -> candidates.add(new Candidate(Identifiers.quoteIfNeeded(ks), ks, "keyspaces", null, null, null,
                false)));
        String current = session.keyspace();
        if (current != null) {
            schema.getOrDefault(current, Map.of()).keySet().forEach(t -> candidates.add(new Candidate(Identifiers.quoteIfNeeded(t), t,
                    "tables", null, null, null, true)));
        }
        Set<String> columns = new TreeSet<>();
        Matcher m = NAMED_TABLE.matcher(line.line());
        boolean named = false;
        while (m.find()) {
            String[] name = m.group(1).replace("\"", "").toLowerCase(Locale.ROOT).split("\\.", 2);
            String ks = name.length == 2 ? name[0] : current;
            Set<String> cols = ks == null ? null : schema.getOrDefault(ks, Map.of()).get(name[name.length - 1]);
            if (cols != null) {
                columns.addAll(cols);
                named = true;
            }
        }
        if (!named) {
            schema.values().forEach(tables -> tables.values().forEach(columns::addAll));
        }
        columns.forEach(c -> candidates.add(new Candidate(Identifiers.quoteIfNeeded(c), c, "columns", null, null, null, true)));
    }

    /** keyspace → table → columns, as the node's system_schema has them now; empty when it cannot be read. */
    private Map<String, Map<String, Set<String>>> schema() {
        Map<String, Map<String, Set<String>>> out = new TreeMap<>();
        try {
            for (Row r : session.execute("SELECT keyspace_name FROM system_schema.keyspaces")) {
                out.computeIfAbsent(r.getString(0), k -> new TreeMap<>());
            }
            for (Row r : session.execute("SELECT keyspace_name, table_name, column_name FROM system_schema.columns")) {
                out.computeIfAbsent(r.getString(0), k -> new TreeMap<>()).computeIfAbsent(r.getString(1), t -> new TreeSet<>())
                        .add(r.getString(2));
            }
        } catch (RuntimeException e) {
            // the node cannot answer now: keywords still complete
        }
        return out;
    }
}
