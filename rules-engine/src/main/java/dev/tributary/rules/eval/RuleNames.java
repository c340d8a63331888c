package dev.tributary.rules.eval;

import dev.tributary.rules.errors.InvalidRuleArgumentException;
import dev.tributary.rules.eval.RuleInput;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The naming conventions between CQL and Oracle-style rules, in one place.
 *
 * <p>CQL folds unquoted identifiers to lower case ({@code hr.employees}); Oracle folds them to
 * upper case ({@code 'HR'}, {@code 'EMPLOYEES'}), and rule conditions compare names as strings.
 * Tributary keeps Oracle's form in rules: the <em>rule form</em> of a CQL name is the name
 * upper-cased when it is a plain unquoted CQL identifier (lower-case letters, digits and
 * underscores, starting with a letter), and the name unchanged otherwise (a case-sensitive,
 * quoted name such as {@code "MyTable"}). Adapters hand owners and object names to the engine in
 * rule form ({@link RuleInput}); system-made rules generate conditions on rule-form names, so a
 * keyspace created as {@code hr} or {@code HR} (both stored as {@code hr}) matches {@code 'HR'}.
 * As in Oracle, the quoted CQL name {@code "HR"} is indistinguishable from unquoted {@code hr}.
 *
 * <p>Column names stay CQL names in LCRs and transformations. Inside
 * {@code get_value('NEW', 'col')} the column is written as Oracle writes it: unquoted means
 * case-insensitive ({@code 'DEPARTMENT_ID'} and {@code 'department_id'} both name CQL column
 * {@code department_id}), double quotes mean exact ({@code '"Dept"'}).
 *
 * <p>Rule and rule set names are Oracle identifiers: unquoted names are upper-cased, quoted names
 * kept exactly; they may be qualified by an owner ({@code strmadmin.jobs12}).
 *
 * <p>All methods are pure and thread-safe.
 */
public final class RuleNames {
    private static final Pattern PLAIN_CQL = Pattern.compile("[a-z][a-z0-9_]*");
    private static final Pattern PLAIN_ORACLE = Pattern.compile("[A-Z][A-Z0-9_$#]*");

    private RuleNames() {
    }

    /** The rule form of a stored CQL name: upper case for a plain lower-case name; {@code null} stays null. */
    public static String ruleForm(String cqlName) {
        if (cqlName == null) {
            return null;
        }
        return PLAIN_CQL.matcher(cqlName).matches() ? cqlName.toUpperCase(Locale.ROOT) : cqlName;
    }

    /** The stored CQL name of an identifier written in CQL: quoted exact, unquoted lower-cased. */
    public static String cqlIdentifier(String written) {
        String w = written.strip();
        if (w.length() >= 2 && w.startsWith("\"") && w.endsWith("\"")) {
            return w.substring(1, w.length() - 1).replace("\"\"", "\"");
        }
        if (w.isEmpty() || w.indexOf('"') >= 0) {
            throw new InvalidRuleArgumentException("not a valid identifier: " + written);
        }
        return w.toLowerCase(Locale.ROOT);
    }

    /** An Oracle-style object identifier (rule or rule set name): quoted exact, unquoted upper-cased. */
    public static String oracleIdentifier(String written) {
        String w = written.strip();
        if (w.length() >= 2 && w.startsWith("\"") && w.endsWith("\"")) {
            return w.substring(1, w.length() - 1).replace("\"\"", "\"");
        }
        if (w.isEmpty() || w.indexOf('"') >= 0) {
            throw new InvalidRuleArgumentException("not a valid identifier: " + written);
        }
        return w.toUpperCase(Locale.ROOT);
    }

    /**
     * Splits a possibly qualified name such as {@code hr.employees} or {@code "My Ks"."T"} at the
     * dot outside quotes. Returns one or two parts, still as written.
     */
    public static List<String> splitQualified(String written) {
        List<String> parts = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < written.length(); i++) {
            char c = written.charAt(i);
            if (c == '"') {
                quoted = !quoted;
                current.append(c);
            } else if (c == '.' && !quoted) {
                parts.add(current.toString());
                current.setLength(0);
            } else {
                current.append(c);
            }
        }
        parts.add(current.toString());
        if (quoted || parts.size() > 2 || parts.stream().anyMatch(p -> p.isBlank())) {
            throw new InvalidRuleArgumentException("not a valid name: " + written);
        }
        return parts;
    }

    /** How a CQL column is written inside {@code get_value}: {@code DEPARTMENT_ID} or {@code "Dept"}. */
    public static String columnReference(String cqlColumn) {
        if (PLAIN_CQL.matcher(cqlColumn).matches()) {
            return cqlColumn.toUpperCase(Locale.ROOT);
        }
        return "\"" + cqlColumn.replace("\"", "\"\"") + "\"";
    }

    /** The CQL column named by the text of a {@code get_value} column argument. */
    public static String columnFromReference(String reference) {
        String r = reference.strip();
        if (r.length() >= 2 && r.startsWith("\"") && r.endsWith("\"")) {
            return r.substring(1, r.length() - 1).replace("\"\"", "\"");
        }
        return r.toLowerCase(Locale.ROOT);
    }

    /** Whether an Oracle-form identifier can be written without quotes. */
    public static boolean isPlainOracleIdentifier(String name) {
        return PLAIN_ORACLE.matcher(name).matches();
    }

    /** An Oracle identifier as it is written: bare when plain upper case, else double-quoted. */
    public static String quoteOracleIdentifier(String name) {
        return isPlainOracleIdentifier(name) ? name : "\"" + name.replace("\"", "\"\"") + "\"";
    }

    /** A SQL string literal: {@code 'O''Brien'}. */
    public static String literal(String value) {
        return "'" + value.replace("'", "''") + "'";
    }
}
