package dev.tributary.rules;

import dev.tributary.rules.errors.TransformationException;
import dev.tributary.rules.transform.DeclarativeTransformation;
import dev.tributary.rules.transform.LcrTransformation;
import dev.tributary.rules.transform.TransformableLcr;
import dev.tributary.rules.transform.TransformationRegistry;
import java.util.Optional;

/**
 * Runs what full evaluation asks for on a kept row LCR: first the row migration of subset rules,
 * then, for each matching positive rule in rule order, that rule's declarative transformations
 * (by step number, then Oracle's default order) and its custom transformation. Thread-safe if
 * the registered custom transformations are, as their contract requires.
 */
public final class TransformationRunner {
    private final TransformationRegistry registry;

    public TransformationRunner(TransformationRegistry registry) {
        this.registry = registry;
    }

    /**
     * The LCR as it is to be enqueued.
     *
     * @throws IllegalArgumentException if the result is a discard
     * @throws TransformationException if a rule names an unregistered custom transformation, or
     *     a custom transformation throws or returns null
     */
    public TransformableLcr apply(EvaluationResult result, TransformableLcr lcr) {
        if (!result.keep()) {
            throw new IllegalArgumentException("a discarded LCR is not transformed");
        }
        TransformableLcr out = result.migration().apply(lcr);
        for (Rule rule : result.matchedRules()) {
            out = apply(rule, out);
        }
        return out;
    }

    /** One rule's transformations on an LCR it selected. */
    public TransformableLcr apply(Rule rule, TransformableLcr lcr) {
        TransformableLcr out = lcr;
        for (DeclarativeTransformation t : rule.transformations().declarative()) {
            out = t.apply(out);
        }
        Optional<String> custom = rule.transformations().custom();
        if (custom.isPresent()) {
            LcrTransformation t = registry.find(custom.get())
                    .orElseThrow(() -> TransformationException.unknown(rule.qualifiedName().toString(), custom.get()));
            TransformableLcr transformed;
            try {
                transformed = t.transform(out);
            } catch (RuntimeException e) {
                throw new TransformationException("TRANSFORMATION_FAILED", "transformation " + custom.get() + " of rule "
                        + rule.qualifiedName() + " failed on " + out.objectOwner() + "." + out.objectName() + ": " + e, e);
            }
            if (transformed == null) {
                throw new TransformationException("TRANSFORMATION_FAILED", "transformation " + custom.get() + " of rule "
                        + rule.qualifiedName() + " returned no LCR", null);
            }
            out = transformed;
        }
        return out;
    }
}
