package dev.tributary.capture;

import dev.tributary.dictionary.types.CqlType;

/** The CQL type of a value a transformation added to an LCR, read off its Java class. */
final class LcrTypes {
    private LcrTypes() {
    }

    static CqlType infer(Object v) {
        if (v == null) {
            return CqlType.of(CqlType.Kind.TEXT); // a null added column: text, the most general scalar
        }
        return CqlType.of(CqlType.Kind.of(v).orElseThrow(() -> new IllegalArgumentException(
                "a transformation added a value of unsupported class " + v.getClass().getName() + "; use a scalar CQL value")));
    }
}
