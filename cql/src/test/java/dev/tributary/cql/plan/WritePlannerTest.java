package dev.tributary.cql.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.cql.CqlParser;
import dev.tributary.cql.TermTyper;
import dev.tributary.cql.TimeUuidGenerator;
import dev.tributary.cql.ast.ModificationStatement;
import dev.tributary.cql.ast.Operator;
import dev.tributary.cql.errors.CqlInvalidException;
import dev.tributary.cql.errors.CqlLimitException;
import dev.tributary.dictionary.errors.UnknownColumnException;
import dev.tributary.dictionary.schema.ClusteringOrder;
import dev.tributary.dictionary.schema.ColumnDef;
import dev.tributary.dictionary.schema.ColumnKind;
import dev.tributary.dictionary.schema.TableDef;
import dev.tributary.dictionary.schema.TableOptions;
import dev.tributary.dictionary.types.CqlType;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Write planning on its own: no store, no node; the clock is a fixed one. */
class WritePlannerTest {
    private static final long NOW_MILLIS = 1_700_000_000_000L;
    private static final CqlType INT = CqlType.parse("int");
    /** {@code ks.t (pk int, ck int, v int, tags set<text>, m map<text,int>, PRIMARY KEY (pk, ck))} */
    private static final TableDef T = new TableDef("ks", "t", 7, List.of(
            new ColumnDef("pk", INT, ColumnKind.PARTITION_KEY, 0, 0, ClusteringOrder.ASC),
            new ColumnDef("ck", INT, ColumnKind.CLUSTERING, 0, 1, ClusteringOrder.ASC),
            ColumnDef.regular("v", INT, 2),
            ColumnDef.regular("tags", CqlType.parse("set<text>"), 3),
            ColumnDef.regular("m", CqlType.parse("map<text, int>"), 4)), TableOptions.DEFAULT, 5);

    private final WritePlanner planner = new WritePlanner(
            new TermTyper(TimeUuidGenerator.withRandomNode(InstantSource.fixed(Instant.ofEpochMilli(NOW_MILLIS)), new Random(1)),
                    new Random(2)),
            () -> NOW_MILLIS, 500, 64);

    private List<PlannedWrite> plan(String cql, Object... bound) {
        return planner.plan((ModificationStatement) CqlParser.parse(cql), null, java.util.Arrays.asList(bound), name -> T);
    }

    @Test
    void anInsertIsOneRowWriteWithAMarkerAndTheCommitTimestamp() {
        PlannedWrite w = plan("INSERT INTO ks.t (pk, ck, v) VALUES (1, 2, ?)", 3).get(0);
        assertEquals(List.of(1), w.partitionKey());
        assertEquals(List.of(2), w.clustering());
        assertEquals(new CellOp.Set(3), w.cells().get("v"));
        assertTrue(w.rowMarker());
        assertFalse(w.deleteRows());
        assertEquals(Long.MIN_VALUE, w.timestampMicros());
        assertEquals(0, w.ttlSeconds());
    }

    @Test
    void anUpdateWithInWritesEveryKeyCombination() {
        List<PlannedWrite> ws = plan("UPDATE ks.t USING TTL 60 SET v = 5, tags = tags + {'a'} WHERE pk IN (1, 2) AND ck IN (3, 4)");
        assertEquals(4, ws.size());
        assertEquals(List.of(List.of(1), List.of(1), List.of(2), List.of(2)), ws.stream().map(PlannedWrite::partitionKey).toList());
        assertEquals(List.of(List.of(3), List.of(4), List.of(3), List.of(4)), ws.stream().map(PlannedWrite::clustering).toList());
        assertInstanceOf(CellOp.Add.class, ws.get(0).cells().get("tags"));
        assertEquals(60, ws.get(0).ttlSeconds());
        assertFalse(ws.get(0).rowMarker());
    }

    @Test
    void aRangeDeleteBoundsTheFirstUnrestrictedClusteringColumn() {
        PlannedWrite w = plan("DELETE FROM ks.t WHERE pk = 1 AND ck >= 10").get(0);
        assertTrue(w.deleteRows());
        assertEquals(List.of(), w.clustering());
        assertEquals(List.of(new PlannedWrite.RangeBound(0, Operator.GTE, 10)), w.rangeBound());
        PlannedWrite cell = plan("DELETE m['k'] FROM ks.t WHERE pk = 1 AND ck = 2").get(0);
        assertEquals(new CellOp.RemoveElement("k"), cell.cells().get("m"));
    }

    @Test
    void usingTimestampWithinTheSkewIsKeptAndBeyondItIsALimitError() {
        long ok = (NOW_MILLIS - 400) * 1000;
        assertEquals(ok, plan("INSERT INTO ks.t (pk, ck) VALUES (1, 1) USING TIMESTAMP " + ok).get(0).timestampMicros());
        CqlLimitException e = assertThrows(CqlLimitException.class,
                () -> plan("INSERT INTO ks.t (pk, ck) VALUES (1, 1) USING TIMESTAMP " + (NOW_MILLIS - 600) * 1000));
        assertEquals(CqlLimitException.Limit.WRITE_TIMESTAMP_SKEW, e.limit());
        assertTrue(e.getMessage().contains("600 ms behind"), e.getMessage());
    }

    @Test
    void aValueLargerThanTheLimitIsALimitErrorNamingTheColumn() {
        CqlLimitException e = assertThrows(CqlLimitException.class,
                () -> plan("UPDATE ks.t SET tags = ? WHERE pk = 1 AND ck = 1", java.util.Set.of("x".repeat(100))));
        assertEquals(CqlLimitException.Limit.VALUE_SIZE, e.limit());
        assertTrue(e.getMessage().startsWith("value of column tags is "), e.getMessage());
    }

    @Test
    void invalidStatementsNameWhatIsWrong() {
        assertEquals("some clustering key parts of ks.t are missing: ck",
                assertThrows(CqlInvalidException.class, () -> plan("INSERT INTO ks.t (pk, v) VALUES (1, 2)")).getMessage());
        assertEquals("invalid null value for partition key column pk of ks.t",
                assertThrows(CqlInvalidException.class, () -> plan("INSERT INTO ks.t (pk, ck) VALUES (?, 1)", (Object) null))
                        .getMessage());
        assertEquals("invalid operation (v = v + ...) for non-counter, non-collection column v of ks.t",
                assertThrows(CqlInvalidException.class, () -> plan("UPDATE ks.t SET v = v + 1 WHERE pk = 1 AND ck = 1"))
                        .getMessage());
        assertEquals("PRIMARY KEY part ck found in SET part of an UPDATE on ks.t",
                assertThrows(CqlInvalidException.class, () -> plan("UPDATE ks.t SET ck = 1 WHERE pk = 1 AND ck = 1"))
                        .getMessage());
        String ttl = assertThrows(CqlInvalidException.class,
                () -> plan("INSERT INTO ks.t (pk, ck) VALUES (1, 1) USING TTL ?", -1)).getMessage();
        assertTrue(ttl.startsWith("TTL -1 is out of range"), ttl);
        assertThrows(CqlInvalidException.class, () -> plan("DELETE FROM ks.t WHERE pk > 1"));
        assertThrows(UnknownColumnException.class, () -> plan("INSERT INTO ks.t (pk, ck, nope) VALUES (1, 1, 1)"));
    }
}
