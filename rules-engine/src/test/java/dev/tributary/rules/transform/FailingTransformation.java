package dev.tributary.rules.transform;

/** A custom transformation that always fails, registered through META-INF/services in the test resources. */
public final class FailingTransformation implements LcrTransformation {
    @Override
    public String name() {
        return "test.always_fails";
    }

    @Override
    public TransformableLcr transform(TransformableLcr lcr) {
        throw new IllegalStateException("refusing " + lcr.objectName());
    }
}
