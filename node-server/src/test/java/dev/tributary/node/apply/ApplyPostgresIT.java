package dev.tributary.node.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.node.NodeProcess;
import dev.tributary.node.TestNodes;
import dev.tributary.node.TributaryNode;
import dev.tributary.node.kit.PostgresServer;
import dev.tributary.protocol.v1.ExecuteResponse;
import dev.tributary.protocol.v1.Row;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Apply processes into a real PostgreSQL 15 (started by the test kit): whole source transactions
 * in commit order, exactly once across killed nodes, a killed PostgreSQL and stopped applies;
 * atomic to concurrent readers; conflicts detected and resolved or queued as errors.
 */
@Timeout(600)
class ApplyPostgresIT {
    private static final String KS = "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}";

    @TempDir
    Path tmp;

    /**
     * Captures keyspace ks into queue q and applies it into PostgreSQL through link pg, with the
     * schema's instantiation SCN taken once the capture's rules are in place (nothing is written
     * to the tables before).
     */
    static void replicate(TestNodes.Wire w, PostgresServer pg, String... createTables) throws SQLException {
        replicate(w, pg, false, createTables);
    }

    /** As {@link #replicate(TestNodes.Wire, PostgresServer, String...)}, the keyspace's DDL captured too when {@code ddl}. */
    static void replicate(TestNodes.Wire w, PostgresServer pg, boolean ddl, String... createTables) throws SQLException {
        w.exec(KS);
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA IF NOT EXISTS ks");
            for (String t : createTables) {
                w.exec("CREATE TABLE ks." + t);
                s.execute("CREATE TABLE ks." + t); // the CQL types used here are PostgreSQL's too
            }
        }
        w.exec("CALL dbms_streams_adm.add_schema_rules(schema_name => 'ks', streams_type => 'capture', streams_name => 'cap', "
                + "queue_name => 'q', include_ddl => " + ddl + ")");
        w.exec("CALL dbms_capture_adm.start_capture(capture_name => 'cap')");
        w.exec("CREATE DATABASE LINK pg CONNECT TO " + pg.user() + " IDENTIFIED BY '" + pg.password() + "' USING '"
                + pg.jdbcUrl() + "'");
        w.exec("CALL dbms_apply_adm.create_apply(queue_name => 'q', apply_name => 'app', apply_database_link => 'pg')");
        long scn = ((Number) w.scalar("SELECT current_scn FROM system_views.database")).longValue();
        w.exec("CALL dbms_apply_adm.set_schema_instantiation_scn(source_schema_name => 'ks', instantiation_scn => " + scn
                + ", apply_database_link => 'pg')");
        w.exec("CALL dbms_apply_adm.start_apply(apply_name => 'app')");
    }

    /** A table's rows by id, each as its other columns' text, from the source. */
    static Map<Integer, String> sourceRows(TestNodes.Wire w, String table, String columns) {
        return rows(w, "ks." + table, columns);
    }

    /** A table's rows by id, each as its other columns' text, from a Tributary cluster. */
    static Map<Integer, String> rows(TestNodes.Wire w, String table, String columns) {
        Map<Integer, String> out = new TreeMap<>();
        ExecuteResponse r = w.exec("SELECT id, " + columns + " FROM " + table);
        for (Row row : r.getRowsList()) {
            StringBuilder b = new StringBuilder();
            for (int i = 1; i < row.getValuesCount(); i++) {
                var v = row.getValues(i);
                b.append(v.hasInteger() ? String.valueOf(v.getInteger()) : v.hasText() ? v.getText() : "null").append('|');
            }
            out.put((int) row.getValues(0).getInteger(), b.toString());
        }
        return out;
    }

    static Map<Integer, String> pgRows(PostgresServer pg, String table, String columns) throws SQLException {
        Map<Integer, String> out = new TreeMap<>();
        try (Connection c = pg.connect(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT id, " + columns + " FROM ks." + table)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder b = new StringBuilder();
                for (int i = 2; i <= n; i++) {
                    String v = rs.getString(i);
                    b.append(v == null ? "null" : v).append('|');
                }
                out.put(rs.getInt(1), b.toString());
            }
        }
        return out;
    }

    /** Waits until PostgreSQL's ks.t holds {@code expected} (by id, the columns' text), saying the apply's state if not. */
    private static void awaitPgRows(TestNodes.Wire w, PostgresServer pg, String columns, Map<Integer, String> expected,
            String what) {
        TestNodes.await(() -> {
            try {
                return pgRows(pg, "t", columns).equals(expected);
            } catch (SQLException e) {
                return false; // PostgreSQL is restarting
            }
        }, Duration.ofSeconds(90), () -> "PostgreSQL to hold " + what + ": "
                + w.exec("SELECT status, error_number, error_message FROM system_views.apply").getRowsList());
    }

    static long pgLong(PostgresServer pg, String query) throws SQLException {
        try (Connection c = pg.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(query)) {
            return rs.next() ? rs.getLong(1) : -1;
        }
    }

    /** Waits until the apply has committed this many transactions at the destination (its progress row says so). */
    static void awaitApplied(PostgresServer pg, long transactions, Duration timeout) {
        TestNodes.await(() -> {
            try {
                return pgLong(pg, "SELECT applied_transactions + error_transactions FROM tributary.apply_progress "
                        + "WHERE apply_name = 'app'") >= transactions;
            } catch (SQLException e) {
                return false; // PostgreSQL is restarting
            }
        }, timeout, "the apply to commit " + transactions + " transactions in PostgreSQL");
    }

    /**
     * A seeded workload of transactions (BEGIN BATCH) of 1–20 row changes over three tables:
     * inserts of new keys, re-inserts of deleted keys, updates and deletes, no key twice in one
     * transaction. It tracks the live keys itself so that each statement is what it says.
     */
    static final class Workload {
        final Random random;
        final List<java.util.Set<Integer>> live = List.of(new java.util.TreeSet<>(), new java.util.TreeSet<>(),
                new java.util.TreeSet<>());
        final List<java.util.Set<Integer>> deleted = List.of(new java.util.TreeSet<>(), new java.util.TreeSet<>(),
                new java.util.TreeSet<>());
        int nextId;
        long transactions;

        Workload(long seed) {
            random = new Random(seed);
        }

        String next() {
            StringBuilder b = new StringBuilder("BEGIN BATCH ");
            java.util.Set<String> touched = new java.util.HashSet<>();
            int n = 1 + random.nextInt(20);
            for (int i = 0; i < n; i++) {
                int t = random.nextInt(3);
                java.util.Set<Integer> l = live.get(t);
                java.util.Set<Integer> d = deleted.get(t);
                int kind = random.nextInt(10);
                Integer id;
                if (kind < 4 || l.isEmpty()) {
                    id = !d.isEmpty() && random.nextBoolean() ? d.iterator().next() : nextId++;
                    if (!touched.add(t + "/" + id)) {
                        continue;
                    }
                    d.remove(id);
                    l.add(id);
                    b.append("INSERT INTO ks.t").append(t).append(" (id, v, note) VALUES (").append(id).append(", ")
                            .append(random.nextInt(1000)).append(", 'n").append(random.nextInt(100)).append("'); ");
                } else {
                    id = new ArrayList<>(l).get(random.nextInt(l.size()));
                    if (!touched.add(t + "/" + id)) {
                        continue;
                    }
                    if (kind < 8) {
                        b.append("UPDATE ks.t").append(t).append(" SET v = ").append(random.nextInt(1000)).append(" WHERE id = ")
                                .append(id).append("; ");
                    } else {
                        l.remove(id);
                        d.add(id);
                        b.append("DELETE FROM ks.t").append(t).append(" WHERE id = ").append(id).append("; ");
                    }
                }
            }
            transactions++;
            return b.append("APPLY BATCH").toString();
        }
    }

    private static final String[] TABLES = {"t0 (id int PRIMARY KEY, v int, note text)",
            "t1 (id int PRIMARY KEY, v int, note text)", "t2 (id int PRIMARY KEY, v int, note text)"};

    private static void assertSame(TestNodes.Wire w, PostgresServer pg) throws SQLException {
        for (int t = 0; t < 3; t++) {
            assertEquals(sourceRows(w, "t" + t, "v, note"), pgRows(pg, "t" + t, "v, note"), "table t" + t);
        }
    }

    @Test
    @DisplayName("CAP-LCR-4 CAP-INST-2: a crash matrix — the node SIGKILLed, PostgreSQL SIGKILLed, the apply stopped, one and four "
            + "apply servers — and each source transaction is applied once, whole, a row's changes in commit order")
    void crashMatrix() throws Exception {
        long seed = Long.getLong("apply.seed", System.nanoTime());
        System.out.println("ApplyPostgresIT.crashMatrix seed " + seed);
        Workload load = new Workload(seed);
        Path data = tmp.resolve("node");
        try (PostgresServer pg = PostgresServer.start(tmp.resolve("pg"))) {
            NodeProcess node = NodeProcess.start(data);
            try {
                try (TestNodes.Wire w = new TestNodes.Wire(node.endpoint())) {
                    replicate(w, pg, TABLES);
                }
                for (int round = 0; round < 8; round++) {
                    try (TestNodes.Wire w = new TestNodes.Wire(node.endpoint())) {
                        for (int i = 0; i < 250; i++) {
                            w.exec(load.next());
                        }
                        switch (round % 3) {
                            case 0 -> {
                                // the apply is behind the writes: kill PostgreSQL under it, then bring it back
                                pg.kill();
                                pg.restart();
                            }
                            case 1 -> {
                                w.exec("CALL dbms_apply_adm.stop_apply(apply_name => 'app')");
                                // four apply servers from here on, then one again, then four: the progress carries over
                                w.exec("CALL dbms_apply_adm.set_parameter(apply_name => 'app', parameter => 'parallelism', "
                                        + "value => '" + (round == 4 ? 1 : 4) + "')");
                                w.exec("CALL dbms_apply_adm.start_apply(apply_name => 'app')");
                            }
                            default -> {
                            }
                        }
                    }
                    // SIGKILL the node while its apply works through the backlog; it starts again by itself
                    node.kill();
                    node = NodeProcess.start(data);
                }
                try (TestNodes.Wire w = new TestNodes.Wire(node.endpoint())) {
                    awaitApplied(pg, load.transactions, Duration.ofSeconds(180));
                    assertSame(w, pg);
                    assertEquals(load.transactions, pgLong(pg, "SELECT applied_transactions FROM tributary.apply_progress "
                            + "WHERE apply_name = 'app'"), "each transaction applied once, seed " + seed);
                    assertEquals(0, pgLong(pg, "SELECT count(*) FROM tributary.apply_error"), "no errors, seed " + seed);
                    assertEquals("ENABLED", w.scalar("SELECT status FROM system_views.apply WHERE apply_name = 'app'"));
                }
            } finally {
                node.close();
            }
        }
    }

    @Test
    @DisplayName("CAP-LCR-4: a reader of the destination never sees half a source transaction (transfers keep the sum), with "
            + "four apply servers")
    void atomicity() throws Exception {
        try (PostgresServer pg = PostgresServer.start(tmp.resolve("pg"));
                TributaryNode node = TestNodes.startOperating(tmp.resolve("node")); TestNodes.Wire w = new TestNodes.Wire(node)) {
            replicate(w, pg, "accounts (id int PRIMARY KEY, balance bigint)");
            // transfers between other accounts commit at once, each whole
            w.exec("CALL dbms_apply_adm.set_parameter(apply_name => 'app', parameter => 'parallelism', value => '4')");
            int accounts = 20;
            long[] balance = new long[accounts];
            StringBuilder init = new StringBuilder("BEGIN BATCH ");
            for (int i = 0; i < accounts; i++) {
                balance[i] = 1000;
                init.append("INSERT INTO ks.accounts (id, balance) VALUES (").append(i).append(", 1000); ");
            }
            w.exec(init.append("APPLY BATCH").toString());
            AtomicBoolean stop = new AtomicBoolean();
            Map<Long, Boolean> sums = new ConcurrentHashMap<>();
            AtomicLong reads = new AtomicLong();
            Thread reader = new Thread(() -> {
                try (Connection c = pg.connect(); Statement s = c.createStatement()) {
                    c.setAutoCommit(true);
                    while (!stop.get()) {
                        try (ResultSet rs = s.executeQuery("SELECT coalesce(sum(balance), 0) FROM ks.accounts")) {
                            rs.next();
                            sums.put(rs.getLong(1), true);
                            reads.incrementAndGet();
                        }
                    }
                } catch (SQLException e) {
                    sums.put(-1L, true);
                }
            });
            reader.start();
            Random r = new Random(7);
            int transfers = 400;
            for (int i = 0; i < transfers; i++) {
                int from = r.nextInt(accounts);
                int to = (from + 1 + r.nextInt(accounts - 1)) % accounts;
                long amount = 1 + r.nextInt(50);
                balance[from] -= amount;
                balance[to] += amount;
                w.exec("BEGIN BATCH UPDATE ks.accounts SET balance = " + balance[from] + " WHERE id = " + from
                        + "; UPDATE ks.accounts SET balance = " + balance[to] + " WHERE id = " + to + "; APPLY BATCH");
            }
            awaitApplied(pg, transfers + 1, Duration.ofSeconds(120));
            stop.set(true);
            reader.join();
            assertTrue(reads.get() > 0);
            sums.keySet().forEach(sum -> assertTrue(sum == 0 || sum == accounts * 1000L, "a reader saw the sum " + sum));
            assertEquals(sourceRows(w, "accounts", "balance"), pgRows(pg, "accounts", "balance"));
        }
    }

    @Test
    @DisplayName("CAP-INST-2: conflicts under each handler (OVERWRITE, DISCARD, MAXIMUM, MINIMUM), a missing row, the error queue, "
            + "execute_error and delete_error")
    void conflicts() throws Exception {
        try (PostgresServer pg = PostgresServer.start(tmp.resolve("pg"));
                TributaryNode node = TestNodes.startOperating(tmp.resolve("node")); TestNodes.Wire w = new TestNodes.Wire(node);
                Connection c = pg.connect(); Statement s = c.createStatement()) {
            c.setAutoCommit(true);
            replicate(w, pg, "c (id int PRIMARY KEY, v int, ts bigint)");
            StringBuilder init = new StringBuilder("BEGIN BATCH ");
            for (int i = 1; i <= 6; i++) {
                init.append("INSERT INTO ks.c (id, v, ts) VALUES (").append(i).append(", 1, 100); ");
            }
            w.exec(init.append("APPLY BATCH").toString());
            awaitApplied(pg, 1, Duration.ofSeconds(60));

            // no handler: the transaction goes to the error queue and the apply stops (disable_on_error defaults to Y)
            s.execute("UPDATE ks.c SET v = 99 WHERE id = 1");
            w.exec("UPDATE ks.c SET v = 2 WHERE id = 1");
            TestNodes.await(() -> "ABORTED".equals(w.scalar("SELECT status FROM system_views.apply WHERE apply_name = 'app'")),
                    Duration.ofSeconds(60), "the apply to stop at the conflict");
            assertEquals(26786L, w.scalar("SELECT error_number FROM system_views.apply WHERE apply_name = 'app'"));
            ExecuteResponse errors = w.exec("SELECT local_transaction_id, error_number, message_count, error_message "
                    + "FROM system_views.apply_error");
            assertEquals(1, errors.getRowsCount());
            assertTrue(errors.getRows(0).getValues(3).getText().contains("[v]"), errors.getRows(0).getValues(3).getText());
            String failed = errors.getRows(0).getValues(0).getText();
            assertEquals(99, pgLong(pg, "SELECT v FROM ks.c WHERE id = 1"), "nothing of the failed transaction applied");

            // OVERWRITE, then run the error transaction again: it applies and leaves the error queue
            w.exec("CALL dbms_apply_adm.set_update_conflict_handler(object_name => 'ks.c', method_name => 'OVERWRITE', "
                    + "column_list => 'v')");
            w.exec("CALL dbms_apply_adm.execute_error(local_transaction_id => '" + failed + "')");
            assertEquals(2, pgLong(pg, "SELECT v FROM ks.c WHERE id = 1"));
            assertEquals(0, w.exec("SELECT * FROM system_views.apply_error").getRowsCount());
            w.exec("CALL dbms_apply_adm.set_parameter(apply_name => 'app', parameter => 'disable_on_error', value => 'N')");
            w.exec("CALL dbms_apply_adm.start_apply(apply_name => 'app')");

            // DISCARD keeps the destination's value
            w.exec("CALL dbms_apply_adm.set_update_conflict_handler(object_name => 'ks.c', method_name => 'DISCARD', "
                    + "column_list => 'v')");
            s.execute("UPDATE ks.c SET v = 50 WHERE id = 2");
            w.exec("UPDATE ks.c SET v = 3 WHERE id = 2");
            awaitApplied(pg, 3, Duration.ofSeconds(60));
            assertEquals(50, pgLong(pg, "SELECT v FROM ks.c WHERE id = 2"), "DISCARD");

            // a column is in one column list: v leaves DISCARD's before MAXIMUM on (v, ts) takes it
            w.exec("CALL dbms_apply_adm.set_update_conflict_handler(object_name => 'ks.c', method_name => NULL, "
                    + "column_list => 'v')");
            w.exec("CALL dbms_apply_adm.set_update_conflict_handler(object_name => 'ks.c', method_name => 'MAXIMUM', "
                    + "resolution_column => 'ts', column_list => 'v,ts')");
            s.execute("UPDATE ks.c SET ts = 500 WHERE id = 3");
            w.exec("UPDATE ks.c SET v = 7, ts = 200 WHERE id = 3");
            s.execute("UPDATE ks.c SET ts = 500 WHERE id = 4");
            w.exec("UPDATE ks.c SET v = 8, ts = 900 WHERE id = 4");
            // a missing row is an error whatever the handler; with disable_on_error N the apply goes on
            s.execute("DELETE FROM ks.c WHERE id = 5");
            w.exec("UPDATE ks.c SET v = 9 WHERE id = 5");
            w.exec("DELETE FROM ks.c WHERE id = 6");
            awaitApplied(pg, 7, Duration.ofSeconds(60));
            assertEquals(1, pgLong(pg, "SELECT v FROM ks.c WHERE id = 3"), "MAXIMUM: ts 200 < 500 loses");
            assertEquals(8, pgLong(pg, "SELECT v FROM ks.c WHERE id = 4"), "MAXIMUM: ts 900 > 500 wins");
            assertEquals(-1, pgLong(pg, "SELECT v FROM ks.c WHERE id = 6"), "the delete applied");
            ExecuteResponse missing = w.exec("SELECT local_transaction_id, error_number FROM system_views.apply_error");
            assertEquals(1, missing.getRowsCount());
            assertEquals(26787, missing.getRows(0).getValues(1).getInteger());
            assertEquals("ENABLED", w.scalar("SELECT status FROM system_views.apply WHERE apply_name = 'app'"));
            w.exec("CALL dbms_apply_adm.delete_error(local_transaction_id => '" + missing.getRows(0).getValues(0).getText() + "')");
            assertEquals(0, w.exec("SELECT * FROM system_views.apply_error").getRowsCount());

            // MINIMUM: the lower resolution value wins, whichever columns differ
            w.exec("CALL dbms_apply_adm.set_update_conflict_handler(object_name => 'ks.c', method_name => 'MINIMUM', "
                    + "resolution_column => 'ts', column_list => 'v,ts')");
            s.execute("UPDATE ks.c SET ts = 500 WHERE id = 2");
            w.exec("UPDATE ks.c SET v = 10, ts = 300 WHERE id = 2");
            awaitApplied(pg, 8, Duration.ofSeconds(60));
            assertEquals(10, pgLong(pg, "SELECT v FROM ks.c WHERE id = 2"), "MINIMUM: ts 300 < 500 wins");
            ExecuteResponse columns = w.exec("SELECT method_name, column_name FROM system_views.apply_conflict_columns");
            assertEquals(2, columns.getRowsCount(), columns.toString());
            assertEquals("MINIMUM", columns.getRows(0).getValues(0).getText());
        }
    }

    @Test
    @DisplayName("CAP-INST-2 CAP-SCN-4: instantiate_table copies a snapshot as of one SCN while writers run, creating the table "
            + "in PostgreSQL, and the stream takes over from that SCN: no row missing, none twice, no old value out of date")
    void snapshotHandoff() throws Exception {
        try (PostgresServer pg = PostgresServer.start(tmp.resolve("pg"));
                TributaryNode node = TestNodes.startOperating(tmp.resolve("node")); TestNodes.Wire w = new TestNodes.Wire(node)) {
            w.exec(KS);
            w.exec("CREATE TABLE ks.h (id int PRIMARY KEY, v int, note text)");
            w.execInBatches(3000, i -> "INSERT INTO ks.h (id, v, note) VALUES (" + i + ", 0, 'seed')");
            w.exec("CALL dbms_streams_adm.add_table_rules(table_name => 'ks.h', streams_type => 'capture', streams_name => 'cap', "
                    + "queue_name => 'q')");
            w.exec("CALL dbms_capture_adm.start_capture(capture_name => 'cap')");
            w.exec("CREATE DATABASE LINK pg CONNECT TO " + pg.user() + " IDENTIFIED BY '" + pg.password() + "' USING '"
                    + pg.jdbcUrl() + "'");
            w.exec("CALL dbms_apply_adm.create_apply(queue_name => 'q', apply_name => 'app', apply_database_link => 'pg')");

            // each writer owns the ids i with i % 3 == its number: inserts new ones, updates and deletes its own
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong writes = new AtomicLong();
            List<Thread> writers = new ArrayList<>();
            List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
            for (int n = 0; n < 3; n++) {
                int writer = n;
                Thread t = new Thread(() -> {
                    Random r = new Random(writer);
                    try (TestNodes.Wire ww = new TestNodes.Wire(node)) {
                        int next = 3000 + writer;
                        for (int i = 0; !stop.get() || i < 200; i++) {
                            int own = r.nextInt(1000) * 3 + writer;
                            switch (r.nextInt(3)) {
                                case 0 -> {
                                    ww.exec("INSERT INTO ks.h (id, v, note) VALUES (" + next + ", " + i + ", 'w" + writer + "')");
                                    next += 3;
                                }
                                case 1 -> ww.exec("UPDATE ks.h SET v = " + i + ", note = 'u" + writer + "' WHERE id = " + own);
                                default -> ww.exec("BEGIN BATCH DELETE FROM ks.h WHERE id = " + own + "; INSERT INTO ks.h (id, v, note) "
                                        + "VALUES (" + (own + 30_000) + ", " + i + ", 'm" + writer + "'); APPLY BATCH");
                            }
                            writes.incrementAndGet();
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }, "writer-" + n);
                t.start();
                writers.add(t);
            }
            TestNodes.await(() -> writes.get() >= 150, Duration.ofSeconds(60), "the writers to get going");
            ExecuteResponse done = w.exec("CALL dbms_streams_adm.instantiate_table(table_name => 'ks.h', apply_name => 'app')");
            long scn = done.getRows(0).getValues(0).getInteger();
            long copied = done.getRows(0).getValues(1).getInteger();
            long writesAtCopy = writes.get();
            TestNodes.await(() -> writes.get() >= writesAtCopy + 300, Duration.ofSeconds(60), "writes after the copy");
            w.exec("CALL dbms_apply_adm.start_apply(apply_name => 'app')");
            stop.set(true);
            for (Thread t : writers) {
                t.join();
            }
            assertEquals(List.of(), failures);
            assertTrue(copied >= 3000, "the copy holds the seeded rows, got " + copied);
            assertEquals(scn, w.scalar("SELECT instantiation_scn FROM system_views.apply_instantiated_objects"));
            TestNodes.await(() -> {
                try {
                    return sourceRows(w, "h", "v, note").equals(pgRows(pg, "h", "v, note"));
                } catch (SQLException e) {
                    return false;
                }
            }, Duration.ofSeconds(120), "PostgreSQL to hold what the source holds");
            assertEquals(0, pgLong(pg, "SELECT count(*) FROM tributary.apply_error"), "no row twice (ROW_EXISTS), none "
                    + "missing (ROW_MISSING), no old value out of date (conflict)");
            assertEquals("ENABLED", w.scalar("SELECT status FROM system_views.apply WHERE apply_name = 'app'"));
            assertTrue(pgLong(pg, "SELECT applied_transactions FROM tributary.apply_progress WHERE apply_name = 'app'") > 0,
                    "the stream applied the writes after the copy");
        }
    }
    @Test
    @DisplayName("CAP-DDL-2 CAP-LCR-5: TRUNCATE is captured as a DDL LCR (TRUNCATE TABLE) and the apply empties the PostgreSQL "
            + "table at that point of the stream: rows before it go, rows after it stay")
    void truncateIsApplied() throws Exception {
        try (PostgresServer pg = PostgresServer.start(tmp.resolve("pg"));
                TributaryNode node = TestNodes.startOperating(tmp.resolve("node")); TestNodes.Wire w = new TestNodes.Wire(node)) {
            replicate(w, pg, true, "t (id int PRIMARY KEY, v int)");

            w.execInBatches(50, i -> "INSERT INTO ks.t (id, v) VALUES (" + i + ", " + i + ")");
            w.exec("TRUNCATE ks.t");
            assertEquals(0, w.exec("SELECT * FROM ks.t").getRowsCount(), "the source is empty");
            w.exec("INSERT INTO ks.t (id, v) VALUES (100, 1)");
            w.exec("INSERT INTO ks.t (id, v) VALUES (101, 2)");
            awaitPgRows(w, pg, "v", Map.of(100, "1|", 101, "2|"), "only the rows written after the truncate");
            assertEquals(sourceRows(w, "t", "v"), pgRows(pg, "t", "v"));
            assertEquals(0, pgLong(pg, "SELECT count(*) FROM tributary.apply_error"));

            List<String> ddl = w.queueLcrs("q").stream().filter(l -> l.contains("\"lcr\":\"DDL\"")).toList();
            assertEquals(1, ddl.size(), "one DDL LCR: " + ddl);
            assertTrue(ddl.get(0).contains("\"command_type\":\"TRUNCATE TABLE\"") && ddl.get(0).contains("\"ddl_text\":\"TRUNCATE ks.t\"")
                    && ddl.get(0).contains("\"object_name\":\"t\""), ddl.get(0));
        }
    }

    @Test
    @DisplayName("CAP-APPLY-1 CAP-DDL-2: a DDL LCR PostgreSQL has no form for is ignored and recorded (apply_ignored_ddl and the log), "
            + "not an error: the apply goes on, and the DDL it can apply (ADD column) it applies")
    void unappliableDdlIsIgnored() throws Exception {
        try (PostgresServer pg = PostgresServer.start(tmp.resolve("pg"));
                TributaryNode node = TestNodes.startOperating(tmp.resolve("node")); TestNodes.Wire w = new TestNodes.Wire(node)) {
            replicate(w, pg, true, "t (id int PRIMARY KEY, v int)");

            w.exec("INSERT INTO ks.t (id, v) VALUES (1, 1)");
            w.exec("ALTER TABLE ks.t WITH comment = 'kept by hand'");
            w.exec("ALTER TABLE ks.t ADD note text");
            w.exec("INSERT INTO ks.t (id, v, note) VALUES (2, 2, 'after')");
            awaitPgRows(w, pg, "v, note", Map.of(1, "1|null|", 2, "2|after|"), "both rows and the new column");
            assertEquals("ENABLED", w.scalar("SELECT status FROM system_views.apply WHERE apply_name = 'app'"));
            assertEquals(0, w.exec("SELECT * FROM system_views.apply_error").getRowsCount(), "not an error");
            ExecuteResponse ignored = w.exec("SELECT apply_name, command_type, ddl_text, reason FROM system_views.apply_ignored_ddl");
            assertEquals(1, ignored.getRowsCount(), ignored.toString());
            assertEquals("ALTER TABLE ks.t WITH comment = 'kept by hand'", ignored.getRows(0).getValues(2).getText());
            assertTrue(ignored.getRows(0).getValues(3).getText().contains("ALTER TABLE ADD and DROP of columns only"),
                    ignored.getRows(0).getValues(3).getText());
            assertEquals(4, pgLong(pg, "SELECT applied_transactions FROM tributary.apply_progress WHERE apply_name = 'app'"),
                    "the ignored DDL's transaction counts as applied: the apply went past it");
        }
    }
}
