package dev.tributary.rules.errors;

/**
 * A rule-based transformation failed on an LCR: a custom transformation threw, returned nothing,
 * or no transformation is registered under the name a rule refers to. The message names the rule
 * and the transformation. The capture treats this like any other capture error.
 */
public final class TransformationException extends RulesException {
    public TransformationException(String code, String message, Throwable cause) {
        super(code, message, cause);
    }

    public static TransformationException unknown(String ruleName, String transformation) {
        return new TransformationException("UNKNOWN_TRANSFORMATION",
                "rule " + ruleName + " names transformation " + transformation + ", which is not registered", null);
    }
}
