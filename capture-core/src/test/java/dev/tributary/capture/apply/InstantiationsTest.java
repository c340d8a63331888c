package dev.tributary.capture.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** CAP-INST-2: only changes committed after an object's instantiation SCN are applied. */
class InstantiationsTest {
    @Test
    void tableScnDecidesThenSchemaScn() {
        Instantiations i = new Instantiations(Map.of(Instantiations.tableKey("src", "ks", "t"), 100L),
                Map.of(Instantiations.schemaKey("SRC", "KS"), 300L));
        assertEquals(0, i.toApply(ApplyFixtures.transaction(100, 2)).size(), "committed at the instantiation SCN: in the copy");
        assertEquals(2, i.toApply(ApplyFixtures.transaction(101, 2)).size());
        ApplyTransaction other = new ApplyTransaction(new ApplyPosition(200, "x"),
                java.util.List.of(ApplyFixtures.record(ApplyFixtures.update("u", 1, 1, 2, 200), 0)));
        assertEquals(0, i.toApply(other).size(), "table u falls under the schema's SCN 300");
    }

    @Test
    void anObjectWithoutScnIsAnError() {
        ApplyErrorException e = assertThrows(ApplyErrorException.class,
                () -> Instantiations.NONE.toApply(ApplyFixtures.transaction(5, 1)));
        assertEquals(ApplyErrorException.NOT_INSTANTIATED, e.errorNumber());
    }
}
