package dev.tributary.node.kit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Metadata;
import io.grpc.Status;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The checker must be able to see a loss: each defect a history check exists for, planted once. */
class HistoryTest {
    private static History history() {
        History h = new History();
        h.invoke(0, 1);
        h.ok(1);
        h.invoke(0, 2);
        h.failed(2, Status.INVALID_ARGUMENT.asRuntimeException());
        h.invoke(0, 3);
        h.failed(3, Status.DEADLINE_EXCEEDED.asRuntimeException());
        h.invoke(1, 4); // still pending: unknown
        return h;
    }

    @Test
    void anExactReadPasses() {
        History h = history();
        assertEquals(List.of(), h.readProblems("t", List.of(1), Set.of()));
        assertEquals(List.of(), h.readProblems("t", List.of(1, 3, 4), Set.of()), "unknown outcomes may be visible");
        assertEquals(Set.of(3, 4), h.unknown());
        assertEquals(Set.of(3), h.unknown(0), "writer 0's: the timed-out one");
        assertEquals(Set.of(4), h.unknown(1), "writer 1's: the pending one");
        h.verifyUnknownAtMost(2);
        assertThrows(AssertionError.class, () -> h.verifyUnknownAtMost(1));
    }

    @Test
    void aMissingAcknowledgedWriteIsSeenEvenWhenAnExtraRowMakesTheCountMatch() {
        // the count (2 rows for 1 acknowledged + 2 unknown) would pass; the key sets do not
        List<String> p = history().readProblems("t", List.of(3, 4), Set.of());
        assertTrue(p.size() == 1 && p.get(0).contains("1 acknowledged writes missing"), p.toString());
    }

    @Test
    void aRefusedWriteVisibleAPhantomAndARepeatAreSeen() {
        History h = history();
        assertTrue(h.readProblems("t", List.of(1, 2), Set.of()).get(0).contains("definitely refused"));
        assertTrue(h.readProblems("t", List.of(1, 99), Set.of()).get(0).contains("no write produced"));
        assertEquals(List.of(), h.readProblems("t", List.of(1, -1), Set.of(-1)), "a marker row the test names");
        assertTrue(h.readProblems("t", List.of(1, 1), Set.of()).get(0).contains("more than once"));
    }

    @Test
    void onlyARefusalBeforeApplyingIsDefinite() {
        assertEquals(History.Outcome.FAIL, History.classify(Status.NOT_FOUND.asRuntimeException()));
        assertEquals(History.Outcome.FAIL, History.classify(Status.RESOURCE_EXHAUSTED.asRuntimeException()));
        assertEquals(History.Outcome.INFO, History.classify(Status.UNAVAILABLE.asRuntimeException()));
        assertEquals(History.Outcome.INFO, History.classify(Status.DEADLINE_EXCEEDED.asRuntimeException()));
        assertEquals(History.Outcome.INFO, History.classify(Status.INTERNAL.asRuntimeException()));
        assertEquals(History.Outcome.INFO, History.classify(new RuntimeException("anything else")));
        // a connection refused: the request never left
        assertEquals(History.Outcome.FAIL, History.classify(Status.UNAVAILABLE
                .withCause(new java.net.ConnectException("Connection refused")).asRuntimeException()));
        // the node's reason code decides over the status
        Metadata m = new Metadata();
        m.put(dev.tributary.node.net.ErrorMapping.ERROR_CODE, "NO_CDC_STREAM");
        assertEquals(History.Outcome.FAIL, History.classify(Status.FAILED_PRECONDITION.asRuntimeException(m)));
        // the SDK's typed exceptions
        assertEquals(History.Outcome.FAIL, History.classify(new dev.tributary.client.errors.TributaryException("DISK_FULL", "full")));
        assertEquals(History.Outcome.INFO, History.classify(new dev.tributary.client.errors.UnavailableException("none",
                List.of("a:1"), null)));
        // a node's forward that timed out (issue 32): unknown, through the wire and through the SDK
        Metadata t = new Metadata();
        t.put(dev.tributary.node.net.ErrorMapping.ERROR_CODE, "TIMEOUT");
        t.put(dev.tributary.node.net.ErrorMapping.OUTCOME_UNKNOWN, "true");
        assertEquals(History.Outcome.INFO, History.classify(Status.DEADLINE_EXCEEDED.asRuntimeException(t)));
        assertEquals(History.Outcome.INFO, History.classify(new dev.tributary.client.errors.RequestTimeoutException(
                "TIMEOUT", "the forward to node h ...", "key-1", null)));
    }

    @Test
    void aKeyWrittenTwiceIsAnErrorOfTheTest() {
        History h = history();
        assertThrows(IllegalStateException.class, () -> h.invoke(0, 1));
    }
}
