package dev.tributary.rules;

/**
 * The schemas capture never captures, whatever the rules say: Tributary's system keyspaces
 * ({@code system}, {@code system_schema}, {@code system_distributed}, {@code system_views},
 * {@code system_queues}, {@code system_auth}, {@code system_traces}, and any other whose name
 * starts with {@code system_}), the counterpart of Oracle's SYS, SYSTEM and CTXSYS.
 * Comparison ignores case, so both the CQL name and its rule form are recognised.
 */
public final class SystemKeyspaces {
    private SystemKeyspaces() {
    }

    /** Whether changes to objects of this owner are never captured. {@code null} is not a system keyspace. */
    public static boolean isSystem(String owner) {
        if (owner == null) {
            return false;
        }
        return owner.equalsIgnoreCase("system")
                || (owner.length() > 7 && owner.regionMatches(true, 0, "system_", 0, 7));
    }
}
