package dev.tributary.rules;

import dev.tributary.rules.eval.RuleNames;
import java.util.List;
import java.util.Objects;

/**
 * An owner-qualified name in Oracle form: a rule or rule set ({@code STRMADMIN.JOBS12}), or, for
 * supplemental logging, a table in rule form ({@code HR.EMPLOYEES}). Immutable.
 */
public record QualifiedName(String owner, String name) implements Comparable<QualifiedName> {
    public QualifiedName {
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(name, "name");
    }

    /**
     * Parses {@code name} or {@code owner.name} as written in a procedure call: unquoted parts are
     * upper-cased, quoted parts kept exactly; a missing owner is {@code defaultOwner}.
     *
     * @throws dev.tributary.rules.errors.InvalidRuleArgumentException if it is not a valid name
     */
    public static QualifiedName parse(String written, String defaultOwner) {
        Objects.requireNonNull(written, "name");
        List<String> parts = RuleNames.splitQualified(written.strip());
        if (parts.size() == 1) {
            return new QualifiedName(defaultOwner, RuleNames.oracleIdentifier(parts.get(0)));
        }
        return new QualifiedName(RuleNames.oracleIdentifier(parts.get(0)), RuleNames.oracleIdentifier(parts.get(1)));
    }

    @Override
    public int compareTo(QualifiedName o) {
        int c = owner.compareTo(o.owner);
        return c != 0 ? c : name.compareTo(o.name);
    }

    /** {@code OWNER.NAME}, quoting parts that need it. */
    @Override
    public String toString() {
        return RuleNames.quoteOracleIdentifier(owner) + "." + RuleNames.quoteOracleIdentifier(name);
    }
}
