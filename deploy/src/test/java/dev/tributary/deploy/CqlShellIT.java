package dev.tributary.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.client.TributaryClient;
import dev.tributary.node.TributaryNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.jline.terminal.Size;
import org.jline.terminal.TerminalBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The interactive shell on a terminal, driven key by key through JLine's external terminal (a
 * pseudo-terminal's line discipline, emulated over streams) against a real node: a statement
 * over two lines, Tab completion of a column, a keyspace and a table, Up recalling history within
 * a run and from the run before. Each key sequence is typed once the shell has answered the one
 * before, as a person (or expect) would.
 */
@Timeout(120)
class CqlShellIT {
    /** The Up key as xterm sends it once the shell switched the keypad to application mode (smkx). */
    private static final String UP = "\033OA";
    private static final String PROMPT = "tributary> ";

    /** One run of {@code tributary cql} at a terminal the test types into. */
    private static final class Session implements AutoCloseable {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final PipedOutputStream keys = new PipedOutputStream();
        final CompletableFuture<Integer> status;
        /** Where the shell's answer to the last keys typed begins in {@link #out()}. */
        private int answerFrom;

        Session(TributaryNode node, Path history) throws IOException {
            PipedInputStream in = new PipedInputStream(keys, 4096);
            PrintStream po = new PrintStream(out, true, StandardCharsets.UTF_8);
            Terminal t = new Terminal(in, po, new PrintStream(err, true, StandardCharsets.UTF_8), true, () -> {
                org.jline.terminal.Terminal jt = TerminalBuilder.builder().system(false).streams(in, po).type("xterm")
                        .encoding(StandardCharsets.UTF_8).build();
                jt.setSize(new Size(160, 40));
                return jt;
            });
            status = CompletableFuture.supplyAsync(() -> new CqlCommand(t, ClientFactory.netty(), history)
                    .run(java.util.List.of("--connect", node.endpoint())));
        }

        String out() {
            return out.toString(StandardCharsets.UTF_8);
        }

        /**
         * Types {@code text} once what the shell wrote since the keys typed before satisfies
         * {@code ready}. Only that answer counts: a name already on the screen from an earlier line
         * (the INSERT names the column and the table the SELECT completes) would let the keys go in
         * before the completion was shown (seen once: the completion printed after the SELECT's rows).
         */
        void type(Predicate<String> ready, String what, String text) throws IOException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!ready.test(out().substring(answerFrom))) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("the shell never showed " + what + "; screen:\n" + out() + "\nerr: "
                            + err.toString(StandardCharsets.UTF_8));
                }
                Thread.onSpinWait();
                if (status.isDone()) {
                    throw new AssertionError("the shell ended before " + what + "; screen:\n" + out());
                }
            }
            answerFrom = out().length();
            keys.write(text.getBytes(StandardCharsets.UTF_8));
            keys.flush();
        }

        int awaitExit() throws Exception {
            return status.get(30, TimeUnit.SECONDS);
        }

        @Override
        public void close() throws IOException {
            keys.close();
        }
    }

    @Test
    void editsCompletesAndRemembersAcrossRuns(@TempDir Path dir) throws Exception {
        Path history = dir.resolve("home").resolve(".tributary").resolve("cql_history");
        try (TributaryNode node = TailCommandIT.startNode(dir.resolve("node"), 4);
                TributaryClient client = TributaryClient.builder().endpoints(node.endpoint()).build()) {
            client.execute("CREATE KEYSPACE shellks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1}");
            client.execute("CREATE TABLE shellks.readings (k int PRIMARY KEY, val_one int)");

            try (Session s = new Session(node, history)) {
                s.type(o -> o.contains(PROMPT), "its prompt", "INSERT INTO shellks.readings (k, val_one)\r");
                s.type(o -> o.contains("   ... "), "the continuation prompt", "VALUES (1, 11);\r");
                s.type(o -> o.contains(PROMPT), "the prompt after the INSERT", "SELECT val_o\t");
                s.type(o -> o.contains("val_one"), "the column completed", "FROM shellk\t");
                s.type(o -> o.contains("shellks"), "the keyspace completed", ".read\t");
                s.type(o -> o.contains("readings"), "the table completed", ";\r");
                s.type(o -> o.contains("(1 rows)"), "the SELECT's row", UP);
                s.type(o -> o.contains("SELECT val_one FROM shellks.readings"), "the SELECT recalled by Up", "\r");
                s.type(o -> o.contains("(1 rows)"), "the recalled SELECT's row", "quit\r");
                assertEquals(0, s.awaitExit(), s.out());
            }
            assertEquals(11, client.execute("SELECT val_one FROM shellks.readings WHERE k = 1").one().getInt(0),
                    "the statement typed over two lines ran as one");
            String kept = Files.readString(history, StandardCharsets.UTF_8);
            assertTrue(kept.contains("SELECT val_one FROM shellks.readings ;"), kept);
            assertTrue(kept.contains("VALUES (1, 11);"), kept);

            // the next run starts with that history: Up, Up is the SELECT before 'quit'
            try (Session s = new Session(node, history)) {
                s.type(o -> o.contains(PROMPT), "its prompt", UP + UP);
                s.type(o -> o.contains("SELECT val_one FROM shellks.readings"), "the SELECT of the run before", "\r");
                s.type(o -> o.contains("(1 rows)"), "its row", "quit\r");
                assertEquals(0, s.awaitExit(), s.out());
            }
        }
    }
}
