package dev.tributary.node.nativeproto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.connection.ClosedConnectionException;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import com.datastax.oss.driver.api.core.servererrors.ProtocolError;
import com.datastax.oss.driver.api.core.servererrors.ServerError;
import dev.tributary.cql.StatementMutator;
import dev.tributary.node.TestNodes;
import dev.tributary.node.TributaryNode;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * RELIABILITY P4 against a node: the parser fuzz's seeded mutants ({@link StatementMutator}, from
 * cql's test-jar) sent to a real node over gRPC and over the CQL native protocol. Every statement
 * is answered — accepted, or refused as the client's error — never with an internal error, a
 * dropped connection or a timeout, and the rows of keyspace {@code keep}, which no mutant can
 * name, read back with the checksum they had before. Mutants that are accepted may write in
 * {@code ks} and {@code hr}: that is theirs. {@code -Dtributary.p4.statements} per protocol (CI
 * 500, reliability 5,000); replay with {@code -Dtributary.p4.seed}.
 */
class MutatedStatementsIT {
    private static final int STATEMENTS = Integer.getInteger("tributary.p4.statements", 500);
    private static final int KEPT_ROWS = 300;

    @Test
    // the limit that holds is the size's, inside; this only lifts the 300 s default above it
    @Timeout(value = 1, unit = TimeUnit.DAYS)
    @DisplayName("RELIABILITY P4: seeded statement mutants over gRPC and the CQL native protocol are each accepted or "
            + "refused as the client's error, never an internal error, a dropped connection or a timeout; the rows of a "
            + "keyspace no mutant can name keep their checksum")
    void mutatedStatementsAgainstANode(@TempDir Path dir) {
        // the time allowed grows with the size: a statement takes a few ms, a DDL mutant up to a second
        assertTimeoutPreemptively(Duration.ofSeconds(120 + STATEMENTS / 5), () -> run(dir));
    }

    private void run(Path dir) throws Exception {
        long seed = Long.getLong("tributary.p4.seed", System.nanoTime());
        System.out.println("MutatedStatementsIT seed=" + seed + " statements per protocol=" + STATEMENTS
                + " (replay with -Dtributary.p4.seed=" + seed + " -Dtributary.p4.statements=" + STATEMENTS + ")");
        try (TributaryNode node = TestNodes.startOperating(dir); TestNodes.Wire w = new TestNodes.Wire(node);
                CqlSession cql = JavaDriverIT.connect(node.nativeEndpoint())) {
            w.exec("CREATE KEYSPACE keep WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            w.exec("CREATE TABLE keep.rows (pk int, ck int, v text, PRIMARY KEY (pk, ck)) WITH cdc = {'enabled': true}");
            w.execInBatches(KEPT_ROWS, i -> "INSERT INTO keep.rows (pk, ck, v) VALUES (" + i % 16 + ", " + i + ", 'v" + i
                    + "')");
            // the objects the corpus names, so that mutants reach execution and not only "unknown table"
            w.exec("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            w.exec("CREATE TABLE ks.t (pk int, ck int, v int, PRIMARY KEY (pk, ck)) WITH cdc = {'enabled': true}");
            w.exec("INSERT INTO ks.t (pk, ck, v) VALUES (1, 1, 1)");
            String before = checksum(w);

            // found by this test (seed 39820528740681): an existing database link was an ALREADY_EXISTS
            // the native codec could not encode, and the driver got a SERVER_ERROR
            String link = "CREATE DATABASE LINK fz_link CONNECT TO u IDENTIFIED BY 'pw' USING 'h:1'";
            cql.execute(link);
            InvalidQueryException exists = assertThrows(InvalidQueryException.class, () -> cql.execute(link));
            assertTrue(exists.getMessage().contains("already exists"), exists.getMessage());

            Random random = new Random(seed);
            List<String> problems = new ArrayList<>();
            int[] accepted = new int[2];
            long started = System.nanoTime();
            for (int i = 0; i < STATEMENTS; i++) {
                String text = StatementMutator.mutant(random);
                try {
                    w.exec(text);
                    accepted[0]++;
                } catch (StatusRuntimeException e) {
                    String p = grpcProblem(e.getStatus());
                    if (p != null) {
                        problems.add("gRPC #" + i + " " + p + ": " + e.getStatus() + " for <<" + text + ">>");
                    }
                }
            }
            for (int i = 0; i < STATEMENTS; i++) {
                String text = StatementMutator.mutant(random);
                try {
                    cql.execute(SimpleStatement.newInstance(text).setTimeout(Duration.ofSeconds(30)));
                    accepted[1]++;
                } catch (ServerError | ProtocolError | DriverTimeoutException | ClosedConnectionException
                        | AllNodesFailedException e) {
                    problems.add("native #" + i + " " + e.getClass().getSimpleName() + ": " + e.getMessage() + " for <<" + text
                            + ">>");
                } catch (DriverException refused) {
                    // a syntax error, an invalid query, an unavailable replica: the client's statement was refused
                    if (refused.getMessage() != null && refused.getMessage().contains("\tat ")) {
                        problems.add("native #" + i + " a stack trace in the message: " + refused.getMessage());
                    }
                }
            }
            long millis = Duration.ofNanos(System.nanoTime() - started).toMillis();
            System.out.println("MutatedStatementsIT " + 2 * STATEMENTS + " statements in " + millis + " ms; accepted over gRPC "
                    + accepted[0] + ", over native " + accepted[1]);
            assertTrue(problems.isEmpty(), problems.size() + " statements answered wrongly (seed " + seed + "):\n"
                    + String.join("\n", problems.stream().limit(30).toList()));
            // the mutations must reach both outcomes on both protocols, or this proves little
            assertTrue(accepted[0] > 0 && accepted[1] > 0 && accepted[0] < STATEMENTS && accepted[1] < STATEMENTS,
                    "accepted: " + accepted[0] + " over gRPC, " + accepted[1] + " over native, of " + STATEMENTS + " each");

            // nothing committed was lost or changed, and both protocols still serve
            assertEquals(before, checksum(w), "the rows of keep.rows (seed " + seed + ")");
            assertEquals(KEPT_ROWS, cql.execute("SELECT pk FROM keep.rows").all().size());
            w.exec("INSERT INTO keep.rows (pk, ck, v) VALUES (99, 99, 'after')");
            assertEquals(1, cql.execute("SELECT v FROM keep.rows WHERE pk = 99 AND ck = 99").all().size());
        }
    }

    private static String grpcProblem(Status s) {
        if (s.getCode() == Status.Code.INTERNAL || s.getCode() == Status.Code.UNKNOWN || s.getCode() == Status.Code.DATA_LOSS) {
            return "a node error for the client's statement";
        }
        if (s.getCode() == Status.Code.DEADLINE_EXCEEDED || s.getCode() == Status.Code.CANCELLED) {
            return "no answer";
        }
        String d = s.getDescription();
        if (d != null && (d.contains("\tat ") || d.contains("Caused by"))) {
            return "a stack trace in the message";
        }
        return null;
    }

    /** SHA-256 over keep.rows in key order: the keyspace no mutant can name. */
    private static String checksum(TestNodes.Wire w) throws Exception {
        MessageDigest d = MessageDigest.getInstance("SHA-256");
        var rows = w.exec("SELECT pk, ck, v FROM keep.rows").getRowsList().stream()
                .map(r -> r.getValues(0).getInteger() + "/" + r.getValues(1).getInteger() + "/" + r.getValues(2).getText())
                .sorted().toList();
        assertEquals(KEPT_ROWS, rows.size(), "rows of keep.rows");
        rows.forEach(r -> d.update((r + "\n").getBytes(StandardCharsets.UTF_8)));
        return HexFormat.of().formatHex(d.digest());
    }
}
