package dev.tributary.capture.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.capture.lcr.LcrColumn;
import dev.tributary.capture.lcr.RowLcr;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TransactionKeysTest {
    private static final TransactionKeys.KeyColumns ID = (db, owner, table) -> table.equals("t") ? Optional.of(List.of("id"))
            : Optional.empty();

    @Test
    void aRowIsKeyedByItsTableAndPrimaryKeyInBothImages() {
        ApplyTransaction tx = new ApplyTransaction(new ApplyPosition(5, "tx5"), List.of(ApplyFixtures.record(ApplyFixtures.update("t", 7, 1, 2, 5), 0)));
        ApplySchedule.Keys k = TransactionKeys.of(tx, ID);
        assertFalse(k.barrier());
        assertEquals(Set.of("ks.t\u00007"), k.keys());
    }

    @Test
    void aTableWithoutAKnownKeyIsABarrier() {
        ApplyTransaction tx = new ApplyTransaction(new ApplyPosition(5, "tx5"), List.of(ApplyFixtures.record(ApplyFixtures.update("u", 7, 1, 2, 5), 0)));
        assertTrue(TransactionKeys.of(tx, ID).barrier());
    }

    @Test
    void anImageWithoutItsKeyIsABarrier() {
        RowLcr noKey = new RowLcr("SRC", RowLcr.UPDATE, "ks", "t", null, "tx5", 5, 5,
                List.of(new LcrColumn("v", ApplyFixtures.INT, 1)), List.of(new LcrColumn("v", ApplyFixtures.INT, 2)), List.of());
        ApplyTransaction tx = new ApplyTransaction(new ApplyPosition(5, "tx5"), List.of(ApplyFixtures.record(noKey, 0)));
        assertTrue(TransactionKeys.of(tx, ID).barrier());
    }
}
