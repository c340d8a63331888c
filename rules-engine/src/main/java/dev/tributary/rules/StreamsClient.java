package dev.tributary.rules;

import java.util.Objects;
import java.util.Optional;

/**
 * A Streams client (a capture process) as the rule generators and the streams_rules view see
 * it: its name and the rule sets it currently uses. The rules engine does not own captures; the
 * caller passes the capture's current rule sets and stores back the one a generator created.
 */
public record StreamsClient(StreamsType type, String name, Optional<QualifiedName> positiveRuleSet,
                            Optional<QualifiedName> negativeRuleSet) {
    public StreamsClient {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(positiveRuleSet, "positiveRuleSet");
        Objects.requireNonNull(negativeRuleSet, "negativeRuleSet");
    }

    public static StreamsClient capture(String name, Optional<QualifiedName> positiveRuleSet,
                                        Optional<QualifiedName> negativeRuleSet) {
        return new StreamsClient(StreamsType.CAPTURE, name, positiveRuleSet, negativeRuleSet);
    }

    public Optional<QualifiedName> ruleSet(RuleSetRole role) {
        return role == RuleSetRole.POSITIVE ? positiveRuleSet : negativeRuleSet;
    }

    /** The same client using {@code ruleSet} in the given role. */
    public StreamsClient withRuleSet(RuleSetRole role, QualifiedName ruleSet) {
        return role == RuleSetRole.POSITIVE
                ? new StreamsClient(type, name, Optional.of(ruleSet), negativeRuleSet)
                : new StreamsClient(type, name, positiveRuleSet, Optional.of(ruleSet));
    }
}
