package dev.tributary.rules;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The outcome of full evaluation: keep the LCR (enqueue it) or discard it. A kept LCR comes with
 * the positive rules that are TRUE for it, in rule order (their transformations are what the
 * capture runs), and the row migration subset rules ask for. Immutable.
 */
public record EvaluationResult(boolean keep, Optional<DiscardReason> discardReason, List<Rule> matchedRules,
                               RowMigration migration) {
    public EvaluationResult {
        Objects.requireNonNull(discardReason, "discardReason");
        matchedRules = List.copyOf(matchedRules);
        Objects.requireNonNull(migration, "migration");
        if (keep == discardReason.isPresent()) {
            throw new IllegalArgumentException("a kept LCR has no discard reason and a discarded one has one");
        }
    }

    public static EvaluationResult keep(List<Rule> matchedRules, RowMigration migration) {
        return new EvaluationResult(true, Optional.empty(), matchedRules, migration);
    }

    public static EvaluationResult discard(DiscardReason reason) {
        return new EvaluationResult(false, Optional.of(reason), List.of(), RowMigration.NONE);
    }

    /** The command type the kept LCR must carry: the original one, or INSERT/DELETE after row migration. */
    public String commandType(String original) {
        return switch (migration) {
            case NONE -> original;
            case TO_INSERT -> "INSERT";
            case TO_DELETE -> "DELETE";
        };
    }
}
