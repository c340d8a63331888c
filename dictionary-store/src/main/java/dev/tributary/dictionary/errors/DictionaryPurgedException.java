package dev.tributary.dictionary.errors;

/**
 * The dictionary version in force at an SCN was purged, so a record at that SCN cannot be
 * decoded. The caller must restart from an SCN at or above {@link #firstAvailableScn()} (or
 * from a dictionary build that covers the SCN).
 */
public final class DictionaryPurgedException extends DictionaryException {
    private static final long serialVersionUID = 1L;
    private final long requestedScn;
    private final long firstAvailableScn;

    public DictionaryPurgedException(long requestedScn, long firstAvailableScn) {
        super("dictionary versions below scn " + firstAvailableScn + " were purged; cannot answer scn "
                + requestedScn);
        this.requestedScn = requestedScn;
        this.firstAvailableScn = firstAvailableScn;
    }

    public long requestedScn() {
        return requestedScn;
    }

    public long firstAvailableScn() {
        return firstAvailableScn;
    }
}
