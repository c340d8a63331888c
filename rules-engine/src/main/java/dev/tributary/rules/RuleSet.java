package dev.tributary.rules;

import java.util.List;
import java.util.Objects;

/**
 * A rule set as stored: its owner and name (Oracle form), the rules it contains in the order they
 * were added, and its comment. Immutable; {@link RuleCatalog} holds the live membership.
 */
public record RuleSet(String owner, String name, List<QualifiedName> rules, String comment) {
    public RuleSet {
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(name, "name");
        rules = List.copyOf(rules);
        comment = comment == null ? "" : comment;
    }

    public QualifiedName qualifiedName() {
        return new QualifiedName(owner, name);
    }
}
