package dev.tributary.generations;

import dev.tributary.generations.errors.NoCdcStreamException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TabletStreamHistoryTest {

    private static final long FIRST = Instant.parse("2025-09-09T14:41:36.977Z").toEpochMilli();
    private static final long SECOND = Instant.parse("2025-09-09T14:44:47.820Z").toEpochMilli();

    private static StreamId id(String hex) {
        return StreamId.fromHex(hex);
    }

    private static StreamStateRow row(long ts, int state, String hex) {
        return new StreamStateRow(ts, StreamState.fromCode(state), id(hex));
    }

    /** The stream sets of the seed's "Tablet Split" example, with its literal stream ids. */
    private static TabletStreamHistory seedHistory() {
        return TabletStreamHistory.of(List.of(
                new TabletStreamSet(FIRST, List.of(
                        id("0x7fffffffffffffff55ebbda510000001"),
                        id("0xffffffffffffffff50e84c99d4000001"))),
                new TabletStreamSet(SECOND, List.of(
                        id("0x3fffffffffffffff296a1c0f24000001"),
                        id("0xbfffffffffffffffa67123f568000001"),
                        id("0x7fffffffffffffff9573ad2614000001"),
                        id("0xffffffffffffffffe28e96d4f4000001")))));
    }

    @Test
    @DisplayName("CDC-TAB-4: the Tablet Split walkthrough gives exactly the seed's 14 system.cdc_streams rows")
    void tabletSplitRowsAreTheSeedsRows() {
        // seed: CDC-TAB-3, CDC-TAB-4
        List<StreamStateRow> expected = List.of(
                row(FIRST, 0, "0xffffffffffffffff50e84c99d4000001"),
                row(FIRST, 0, "0x7fffffffffffffff55ebbda510000001"),
                row(FIRST, 2, "0xffffffffffffffff50e84c99d4000001"),
                row(FIRST, 2, "0x7fffffffffffffff55ebbda510000001"),
                row(SECOND, 0, "0xbfffffffffffffffa67123f568000001"),
                row(SECOND, 0, "0xffffffffffffffffe28e96d4f4000001"),
                row(SECOND, 0, "0x3fffffffffffffff296a1c0f24000001"),
                row(SECOND, 0, "0x7fffffffffffffff9573ad2614000001"),
                row(SECOND, 1, "0xffffffffffffffff50e84c99d4000001"),
                row(SECOND, 1, "0x7fffffffffffffff55ebbda510000001"),
                row(SECOND, 2, "0xbfffffffffffffffa67123f568000001"),
                row(SECOND, 2, "0xffffffffffffffffe28e96d4f4000001"),
                row(SECOND, 2, "0x3fffffffffffffff296a1c0f24000001"),
                row(SECOND, 2, "0x7fffffffffffffff9573ad2614000001"));
        TabletStreamHistory history = seedHistory();
        assertEquals(expected, history.rows());
        // system.cdc_timestamps: two timestamps, newest first.
        assertEquals(List.of(SECOND, FIRST), history.timestampsNewestFirst());
    }

    @Test
    @DisplayName("CDC-TAB-4: pk 0 is logged to the seed's stream before the split and to a new one after it")
    void writeGoesToTheSeedsStreams() {
        // seed: CDC-TAB-1, CDC-TAB-4
        TabletStreamHistory history = seedHistory();
        long pk0 = Murmur3Partitioner.token(Murmur3PartitionerTest.intKey(0));
        assertEquals(id("0xffffffffffffffff50e84c99d4000001"), history.streamFor(pk0, FIRST));
        assertEquals(id("0xffffffffffffffff50e84c99d4000001"), history.streamFor(pk0, SECOND - 1));
        StreamId after = history.streamFor(pk0, SECOND);
        assertEquals(id("0xffffffffffffffffe28e96d4f4000001"), after);
        assertTrue(history.latest().contains(after));
        assertFalse(history.sets().get(0).contains(after), "the new entry is written to one of the new streams");
    }

    @Test
    @DisplayName("CDC-TAB-1/2: a generated split replaces the stream set, one stream per tablet at its last token")
    void generatedSplitReplacesTheStreamSet() {
        // seed: CDC-TAB-1, CDC-TAB-2
        long seed = TestSeeds.seed("generated tablet split");
        SplittableRandom rnd = new SplittableRandom(seed);
        TabletMap two = TabletMap.create(2, List.of("n1", "n2"));
        TabletStreamHistory history = TabletStreamHistory.create(FIRST, two, rnd);
        TabletMap four = two.split();
        TabletStreamHistory split = history.next(SECOND, four, rnd);

        assertEquals(1, history.sets().size(), "the original history is unchanged");
        assertEquals(2, split.sets().size());
        assertEquals(14, split.rows().size());
        assertEquals(4, split.rows().stream().filter(r -> r.timestampMillis() == FIRST).count());
        assertEquals(10, split.rows().stream().filter(r -> r.timestampMillis() == SECOND).count());
        assertEquals(2, split.rows().stream().filter(r -> r.state() == StreamState.CLOSED).count());

        List<StreamId> streams = split.latest().streams();
        assertEquals(4, streams.size());
        for (int tablet = 0; tablet < 4; tablet++) {
            StreamId stream = streams.get(tablet);
            assertEquals(four.lastToken(tablet), stream.token(), "seed " + seed);
            assertEquals(0, stream.index());
            assertEquals(1, stream.version());
        }
        for (int i = 0; i < 1000; i++) {
            long token = rnd.nextLong();
            StreamId stream = split.streamFor(token, SECOND);
            assertEquals(four.tabletOf(token), four.tabletOf(stream.token()),
                    "seed " + seed + ": token " + token + " and its stream lie in the same tablet");
            StreamId old = split.streamFor(token, SECOND - 1);
            assertEquals(two.tabletOf(token), two.tabletOf(old.token()), "seed " + seed);
        }
    }

    @Test
    @DisplayName("CDC-TAB-2: a merge closes every old stream and opens one per merged tablet")
    void mergeReplacesTheStreamSet() {
        // seed: CDC-TAB-2
        SplittableRandom rnd = new SplittableRandom(TestSeeds.seed("tablet merge"));
        TabletMap four = TabletMap.create(4, List.of("n1"));
        TabletStreamHistory history = TabletStreamHistory.create(FIRST, four, rnd).next(SECOND, four.merge(), rnd);
        List<StreamStateRow> second = new ArrayList<>();
        history.rows().stream().filter(r -> r.timestampMillis() == SECOND).forEach(second::add);
        assertEquals(2, second.stream().filter(r -> r.state() == StreamState.CURRENT).count());
        assertEquals(4, second.stream().filter(r -> r.state() == StreamState.CLOSED).count());
        assertEquals(2, second.stream().filter(r -> r.state() == StreamState.OPENED).count());
        assertEquals(List.of(-1L, Long.MAX_VALUE), history.latest().streams().stream().map(StreamId::token).toList());
    }

    @Test
    void beforeTheFirstStreamSetThereIsNoStream() {
        TabletStreamHistory history = seedHistory();
        NoCdcStreamException e = assertThrows(NoCdcStreamException.class, () -> history.streamFor(0, FIRST - 1));
        assertTrue(e.getMessage().contains("(current time: 2025/09/09 14:41:36)"), e.getMessage());
        assertEquals(FIRST, e.firstStreamsMillis().orElseThrow());
    }

    @Test
    void timestampsMustIncrease() {
        TabletStreamHistory history = seedHistory();
        TabletMap two = TabletMap.create(2, List.of("n1"));
        assertThrows(IllegalArgumentException.class, () -> history.next(SECOND, two, new SplittableRandom(1)));
        assertThrows(IllegalArgumentException.class, () -> history.next(FIRST, two, new SplittableRandom(1)));
        assertEquals(SECOND + 1, history.nextTimestamp(SECOND - 10_000, 1_000));
        assertEquals(SECOND + 60_000, history.nextTimestamp(SECOND, 60_000));
        assertThrows(IllegalArgumentException.class, () -> history.nextTimestamp(SECOND, -1));
        assertThrows(IllegalArgumentException.class, () -> TabletStreamHistory.of(List.of()));
    }

    @Test
    void streamSetsRejectDuplicateTokens() {
        assertThrows(IllegalArgumentException.class, () -> new TabletStreamSet(1, List.of(
                id("0x7fffffffffffffff55ebbda510000001"), id("0x7fffffffffffffff9573ad2614000001"))));
        assertThrows(IllegalArgumentException.class, () -> new TabletStreamSet(1, List.of()));
    }

    @Test
    void streamStateCodesAreScyllas() {
        assertEquals(0, StreamState.CURRENT.code());
        assertEquals(1, StreamState.CLOSED.code());
        assertEquals(2, StreamState.OPENED.code());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> StreamState.fromCode(3));
        assertEquals("invalid value 3 for stream state", e.getMessage());
    }
}
