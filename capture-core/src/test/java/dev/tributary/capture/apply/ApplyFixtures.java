package dev.tributary.capture.apply;

import dev.tributary.capture.lcr.LcrColumn;
import dev.tributary.capture.lcr.RowLcr;
import dev.tributary.capture.log.CdcOperation;
import dev.tributary.capture.log.LogPosition;
import dev.tributary.capture.log.LogRecord;
import dev.tributary.dictionary.types.CqlType;
import dev.tributary.generations.StreamId;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** Row LCRs and transactions for the apply tests. */
final class ApplyFixtures {
    static final CqlType INT = CqlType.of(CqlType.Kind.INT);

    private ApplyFixtures() {
    }

    static RowLcr update(String table, int id, int oldV, int newV, long commitScn) {
        return new RowLcr("SRC", RowLcr.UPDATE, "ks", table, null, "tx" + commitScn, commitScn, commitScn,
                List.of(new LcrColumn("id", INT, id), new LcrColumn("v", INT, oldV)),
                List.of(new LcrColumn("id", INT, id), new LcrColumn("v", INT, newV)), List.of());
    }

    static LogRecord record(RowLcr lcr, int seq) {
        return new LogRecord((1L << 62) + 1, new LogPosition(new StreamId(1, 2), new UUID(0x1000L + seq, seq), seq),
                CdcOperation.UPDATE, true, 0, lcr, null);
    }

    /** A transaction of {@code size} updates to table t committed at {@code scn}. */
    static ApplyTransaction transaction(long scn, int size) {
        List<LogRecord> records = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            records.add(record(update("t", i, i, i + 1, scn), i));
        }
        return new ApplyTransaction(new ApplyPosition(scn, "tx" + scn), records);
    }
}
