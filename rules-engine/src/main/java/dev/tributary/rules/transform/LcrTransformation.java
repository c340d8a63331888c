package dev.tributary.rules.transform;

/**
 * The service-provider interface for custom rule-based transformations (Oracle's transformation
 * functions). A rule names a transformation by {@link #name()}; when the rule selects an LCR the
 * capture runs the transformation on it after the rule's declarative transformations.
 *
 * <p>Register an implementation with {@link java.util.ServiceLoader}: list its class name in
 * {@code META-INF/services/dev.tributary.rules.transform.LcrTransformation} of a jar on the
 * node's class path; it needs a public no-argument constructor. {@link TransformationRegistry}
 * loads them.
 *
 * <p>Contract: implementations must be thread-safe (captures call them from several threads)
 * and should be deterministic. {@link #transform} must return a non-null LCR; to fail, throw
 * any runtime exception: the capture reports it as a transformation error naming the rule and
 * this transformation, as Oracle does when a transformation function raises.
 */
public interface LcrTransformation {

    /** The name rules refer to, compared case-insensitively, e.g. {@code hr.mask_salary}. */
    String name();

    /** Transforms one row LCR; returns a new value (or the same one when nothing changes). */
    TransformableLcr transform(TransformableLcr lcr);
}
