package dev.tributary.rules.transform;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The transformations attached to one rule: declarative ones, kept in execution order, and at
 * most one custom transformation, named as registered through {@link LcrTransformation}, run
 * after them. Immutable.
 */
public record RuleTransformations(List<DeclarativeTransformation> declarative, Optional<String> custom) {
    public static final RuleTransformations NONE = new RuleTransformations(List.of(), Optional.empty());

    /** Execution order: step number, then Oracle's default order; stable for equal keys. */
    public static final Comparator<DeclarativeTransformation> ORDER =
            Comparator.comparingInt(DeclarativeTransformation::stepNumber).thenComparingInt(DeclarativeTransformation::defaultOrder);

    public RuleTransformations {
        List<DeclarativeTransformation> sorted = new ArrayList<>(declarative);
        sorted.sort(ORDER);
        declarative = List.copyOf(sorted);
        Objects.requireNonNull(custom, "custom");
    }

    public boolean isEmpty() {
        return declarative.isEmpty() && custom.isEmpty();
    }

    public RuleTransformations with(DeclarativeTransformation t) {
        List<DeclarativeTransformation> list = new ArrayList<>(declarative);
        list.add(t);
        return new RuleTransformations(list, custom);
    }

    public RuleTransformations without(DeclarativeTransformation t) {
        List<DeclarativeTransformation> list = new ArrayList<>(declarative);
        list.remove(t);
        return new RuleTransformations(list, custom);
    }

    public RuleTransformations withCustom(Optional<String> name) {
        return new RuleTransformations(declarative, name);
    }
}
