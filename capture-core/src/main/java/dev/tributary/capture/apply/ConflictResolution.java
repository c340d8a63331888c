package dev.tributary.capture.apply;

import dev.tributary.capture.lcr.RowLcr;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * What an apply does with a row LCR that does not match the destination's row — the policy,
 * apart from how a destination finds the mismatch. An UPDATE or DELETE carries the old values
 * of the row (the redo holds the whole old row); when the destination's row is missing, or
 * differs from them in some columns, the change conflicts. A missing row, or an INSERT whose row
 * exists, is an error; differing columns are resolved by the table's handler whose column list
 * holds them all, else they are an error too.
 */
public final class ConflictResolution {
    private ConflictResolution() {
    }

    public enum Action {
        /** Apply the LCR's change as it is (for a conflict: OVERWRITE, or the winning side of MAXIMUM/MINIMUM). */
        APPLY,
        /** Leave the destination's row as it is. */
        DISCARD
    }

    /** How the LCR's value of a column compares with the destination row's (negative: less). */
    @FunctionalInterface
    public interface Comparison {
        int lcrAgainstRow(String column);
    }

    /**
     * @param conflicting the columns whose old values differ from the row's (empty: no conflict)
     * @param handlers    the update conflict handlers of the LCR's table
     * @throws ApplyErrorException when no handler resolves the conflict
     */
    public static Action resolve(RowLcr lcr, Set<String> conflicting, List<ConflictHandler> handlers, Comparison compare) {
        if (conflicting.isEmpty()) {
            return Action.APPLY;
        }
        ConflictHandler h = handlers.stream().filter(c -> c.columns().containsAll(conflicting)).findFirst()
                .orElseThrow(() -> new ApplyErrorException(ApplyErrorException.CONFLICTING_COLUMNS, lcr.commandType()
                        + " of " + lcr.objectOwner() + "." + lcr.objectName() + ": the row has other values in "
                        + sorted(conflicting) + " than the change's old values, and no update conflict handler covers them"));
        return switch (h.method()) {
            case OVERWRITE -> Action.APPLY;
            case DISCARD -> Action.DISCARD;
            case MAXIMUM -> compare.lcrAgainstRow(h.resolutionColumn()) > 0 ? Action.APPLY : Action.DISCARD;
            case MINIMUM -> compare.lcrAgainstRow(h.resolutionColumn()) < 0 ? Action.APPLY : Action.DISCARD;
        };
    }

    /** The error for an UPDATE or DELETE whose row the destination does not have. */
    public static ApplyErrorException missing(RowLcr lcr, String key) {
        return new ApplyErrorException(ApplyErrorException.ROW_MISSING, lcr.commandType() + " of "
                + lcr.objectOwner() + "." + lcr.objectName() + ": the row with key " + key + " does not exist");
    }

    /** The error for an INSERT whose row the destination has already. */
    public static ApplyErrorException exists(RowLcr lcr, String key) {
        return new ApplyErrorException(ApplyErrorException.ROW_EXISTS, "INSERT into " + lcr.objectOwner() + "."
                + lcr.objectName() + ": a row with key " + key + " exists");
    }

    private static List<String> sorted(Collection<String> c) {
        return c.stream().sorted().toList();
    }
}
