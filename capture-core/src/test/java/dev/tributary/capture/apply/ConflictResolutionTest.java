package dev.tributary.capture.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tributary.capture.lcr.RowLcr;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ConflictResolutionTest {
    private final RowLcr lcr = ApplyFixtures.update("t", 1, 5, 6, 100);

    private static ConflictHandler handler(ConflictMethod m, String... cols) {
        return new ConflictHandler("ks", "t", m, "v", List.of(cols));
    }

    @Test
    void noConflictApplies() {
        assertEquals(ConflictResolution.Action.APPLY, ConflictResolution.resolve(lcr, Set.of(), List.of(), c -> 0));
    }

    @Test
    void conflictWithoutHandlerIsAnErrorNamingTheColumns() {
        ApplyErrorException e = assertThrows(ApplyErrorException.class,
                () -> ConflictResolution.resolve(lcr, Set.of("v", "w"), List.of(handler(ConflictMethod.OVERWRITE, "v")), c -> 0));
        assertEquals(ApplyErrorException.CONFLICTING_COLUMNS, e.errorNumber());
        assertEquals(true, e.getMessage().contains("[v, w]"), e.getMessage());
    }

    @Test
    void overwriteAndDiscard() {
        assertEquals(ConflictResolution.Action.APPLY,
                ConflictResolution.resolve(lcr, Set.of("v"), List.of(handler(ConflictMethod.OVERWRITE, "v", "w")), c -> -1));
        assertEquals(ConflictResolution.Action.DISCARD,
                ConflictResolution.resolve(lcr, Set.of("v"), List.of(handler(ConflictMethod.DISCARD, "v")), c -> 1));
    }

    @Test
    void maximumAndMinimumCompareTheResolutionColumn() {
        List<ConflictHandler> max = List.of(handler(ConflictMethod.MAXIMUM, "v"));
        assertEquals(ConflictResolution.Action.APPLY, ConflictResolution.resolve(lcr, Set.of("v"), max, c -> 1));
        assertEquals(ConflictResolution.Action.DISCARD, ConflictResolution.resolve(lcr, Set.of("v"), max, c -> 0));
        assertEquals(ConflictResolution.Action.DISCARD, ConflictResolution.resolve(lcr, Set.of("v"), max, c -> -1));
        List<ConflictHandler> min = List.of(handler(ConflictMethod.MINIMUM, "v"));
        assertEquals(ConflictResolution.Action.APPLY, ConflictResolution.resolve(lcr, Set.of("v"), min, c -> -1));
        assertEquals(ConflictResolution.Action.DISCARD, ConflictResolution.resolve(lcr, Set.of("v"), min, c -> 1));
    }

    @Test
    void maximumNeedsItsResolutionColumnInTheList() {
        assertThrows(IllegalArgumentException.class, () -> new ConflictHandler("ks", "t", ConflictMethod.MAXIMUM, "ts",
                List.of("v")));
    }
}
