package dev.tributary.rules;

import java.util.List;

/**
 * Everything a {@link RuleCatalog} holds, as immutable values, for persistence
 * ({@link CatalogCodec}) and for restoring a catalog on another node.
 *
 * @param sequence the counter that numbers system-generated rule and rule set names
 */
public record CatalogSnapshot(long sequence, List<Rule> rules, List<RuleSet> ruleSets) {
    public CatalogSnapshot {
        rules = List.copyOf(rules);
        ruleSets = List.copyOf(ruleSets);
    }
}
