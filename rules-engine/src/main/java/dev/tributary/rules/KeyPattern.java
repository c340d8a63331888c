package dev.tributary.rules;

import java.util.HashSet;
import java.util.Objects;
import java.util.Set;

/**
 * A necessary condition for a rule to be TRUE, over the attributes the index can look up: the
 * LCR kind, object owner and name, base table owner and name, and command type. {@code null}
 * fields are unconstrained. A rule is TRUE for an input only if the input matches at least one
 * of the rule's patterns (see {@link KeyExtractor}). Immutable.
 */
final class KeyPattern {
    static final KeyPattern ANY = new KeyPattern(null, null, null, null, null, null);

    final Boolean ddl;
    final String objectOwner;
    final String objectName;
    final String baseOwner;
    final String baseName;
    final Set<String> commands;

    KeyPattern(Boolean ddl, String objectOwner, String objectName, String baseOwner, String baseName, Set<String> commands) {
        this.ddl = ddl;
        this.objectOwner = objectOwner;
        this.objectName = objectName;
        this.baseOwner = baseOwner;
        this.baseName = baseName;
        this.commands = commands == null ? null : Set.copyOf(commands);
    }

    boolean isAny() {
        return ddl == null && objectOwner == null && objectName == null && baseOwner == null && baseName == null
                && commands == null;
    }

    /** Both patterns at once, or null when they contradict each other. */
    KeyPattern merge(KeyPattern o) {
        if (conflicts(ddl, o.ddl) || conflicts(objectOwner, o.objectOwner) || conflicts(objectName, o.objectName)
                || conflicts(baseOwner, o.baseOwner) || conflicts(baseName, o.baseName)) {
            return null;
        }
        Set<String> c;
        if (commands == null) {
            c = o.commands;
        } else if (o.commands == null) {
            c = commands;
        } else {
            Set<String> both = new HashSet<>(commands);
            both.retainAll(o.commands);
            if (both.isEmpty()) {
                return null;
            }
            c = both;
        }
        return new KeyPattern(first(ddl, o.ddl), first(objectOwner, o.objectOwner), first(objectName, o.objectName),
                first(baseOwner, o.baseOwner), first(baseName, o.baseName), c);
    }

    private static boolean conflicts(Object a, Object b) {
        return a != null && b != null && !a.equals(b);
    }

    private static <T> T first(T a, T b) {
        return a != null ? a : b;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KeyPattern k && Objects.equals(ddl, k.ddl) && Objects.equals(objectOwner, k.objectOwner)
                && Objects.equals(objectName, k.objectName) && Objects.equals(baseOwner, k.baseOwner)
                && Objects.equals(baseName, k.baseName) && Objects.equals(commands, k.commands);
    }

    @Override
    public int hashCode() {
        return Objects.hash(ddl, objectOwner, objectName, baseOwner, baseName, commands);
    }

    @Override
    public String toString() {
        return "KeyPattern[ddl=" + ddl + ", object=" + objectOwner + "." + objectName + ", base=" + baseOwner + "."
                + baseName + ", commands=" + commands + "]";
    }
}
