package dev.tributary.node;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.client.Admin;
import dev.tributary.client.BatchBuilder;
import dev.tributary.client.ChangeRecord;
import dev.tributary.client.PreparedStatement;
import dev.tributary.client.ResultSet;
import dev.tributary.client.Row;
import dev.tributary.client.Session;
import dev.tributary.client.StreamsRuleOptions;
import dev.tributary.client.TributaryClient;
import dev.tributary.client.errors.InvalidQueryException;
import dev.tributary.client.errors.NotFoundException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The capture seed's scenarios through the Java SDK only (TributaryClient, Session, Admin,
 * ChangeReader) against a real node. Each test has its own keyspace, captures and queues, so they
 * share one node without seeing each other's changes.
 */
@Timeout(180)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SdkScenariosIT {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Pattern EMPLOYEE_ID = Pattern.compile("\"employee_id\":(\\d+)");

    TributaryNode node;
    TributaryClient client;

    @BeforeAll
    void start(@TempDir Path dir) {
        node = TestNodes.startOperating(dir);
        client = TributaryClient.builder().endpoints(node.endpoint()).requestTimeout(Duration.ofSeconds(30)).build();
    }

    @AfterAll
    void stop() {
        if (client != null) {
            client.close();
        }
        if (node != null) {
            node.close();
        }
    }

    private void createKeyspace(String ks) {
        client.execute("CREATE KEYSPACE " + ks + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
    }

    /** Polls until {@code done} holds for what {@code read} returns, and returns that. */
    private static <T> T awaitValue(Supplier<T> read, Predicate<T> done, String what) {
        List<T> last = new ArrayList<>(1);
        last.add(null);
        TestNodes.await(() -> {
            last.set(0, read.get());
            return done.test(last.get(0));
        }, WAIT, what);
        return last.get(0);
    }

    /** Waits until the capture has read the redo up to {@code scn}: its LCRs up to there are enqueued. */
    private void awaitCaptured(String capture, long scn) {
        assertTrue(scn > 0, "a write reports its commit SCN");
        awaitValue(() -> client.execute("SELECT captured_scn FROM system_views.capture WHERE capture_name = '" + capture + "'"),
                rs -> rs.size() == 1 && !rs.one().isNull("captured_scn") && rs.one().getLong("captured_scn") >= scn,
                "capture " + capture + " to pass SCN " + scn);
    }

    /** The JSON form of every LCR in a queue. */
    private List<String> queue(String name) {
        List<String> out = new ArrayList<>();
        for (Row r : client.execute("SELECT lcr FROM system_queues." + name)) {
            out.add(r.getString("lcr"));
        }
        return out;
    }

    /** The row LCRs of a CDC table's log (the log also holds the DDL LCR of its CREATE TABLE). */
    private List<ChangeRecord> rowChanges(String table) {
        return client.changes().read(table, null, 100).stream().filter(ChangeRecord::isRow).toList();
    }

    private String status(String capture) {
        return client.execute("SELECT status FROM system_views.capture WHERE capture_name = '" + capture + "'").one().getString("status");
    }

    private static String hex(ByteBuffer b) {
        if (b == null) {
            return null;
        }
        StringBuilder sb = new StringBuilder("0x");
        ByteBuffer d = b.duplicate();
        while (d.hasRemaining()) {
            sb.append(String.format("%02x", d.get()));
        }
        return sb.toString();
    }

    @Test
    @DisplayName("CAP-R-5 CAP-R-2 CAP-LCR-1: through Admin.addSubsetRules, one 50-row UPDATE enqueues LCRs for exactly its department-50 rows")
    void subsetRuleKeepsOnlyDepartment50() {
        createKeyspace("hr");
        client.execute("CREATE TABLE hr.employees (employee_id int PRIMARY KEY, department_id int, salary int, name text)");
        PreparedStatement insert = client.prepare(
                "INSERT INTO hr.employees (employee_id, department_id, salary, name) VALUES (?, ?, ?, ?)");
        BatchBuilder load = client.batch();
        for (int i = 1; i <= 100; i++) {
            // departments 10, 20, ..., 100; employee i is in department (i % 10 + 1) * 10
            load.add(insert.bind(i, (i % 10 + 1) * 10, 1000, "e" + i));
        }
        load.execute();
        assertEquals(10, client.execute("SELECT employee_id FROM hr.employees WHERE department_id = 50 ALLOW FILTERING").size());

        Admin admin = client.admin();
        admin.setUpQueue("streams_queue");
        List<String> rules = admin.addSubsetRules("hr.employees", "department_id = 50", "capture_hr", "streams_queue");
        assertEquals(3, rules.size(), "an insert, an update and a delete subset rule: " + rules);
        assertEquals(3, Set.copyOf(rules).size(), rules.toString());
        assertEquals("DISABLED", status("capture_hr"), "CAP-PARAM-1: a new capture is disabled");
        admin.startCapture("capture_hr");
        assertEquals("ENABLED", status("capture_hr"));

        String ids = IntStream.rangeClosed(1, 50).mapToObj(Integer::toString).collect(Collectors.joining(", "));
        ResultSet update = client.execute("UPDATE hr.employees SET salary = 2000 WHERE employee_id IN (" + ids + ")");
        awaitCaptured("capture_hr", update.commitScn());

        List<String> lcrs = queue("streams_queue");
        Set<Integer> employees = new TreeSet<>();
        for (String lcr : lcrs) {
            assertTrue(lcr.contains("\"command_type\":\"UPDATE\""), lcr);
            assertTrue(lcr.contains("\"object_name\":\"employees\""), lcr);
            assertTrue(lcr.contains("\"department_id\":50"), lcr);
            assertTrue(lcr.contains("\"salary\":2000"), lcr);
            assertTrue(lcr.contains("\"transaction_id\":\"" + update.transactionId() + "\""), lcr);
            Matcher m = EMPLOYEE_ID.matcher(lcr);
            Set<Integer> inThisLcr = new TreeSet<>();
            while (m.find()) {
                inThisLcr.add(Integer.parseInt(m.group(1)));
            }
            assertEquals(1, inThisLcr.size(), "one LCR per changed row: " + lcr);
            employees.addAll(inThisLcr);
        }
        // among employees 1..50, those with i % 10 == 4 are in department 50; the initial load ran
        // before the capture existed and is not captured
        assertEquals(Set.of(4, 14, 24, 34, 44), employees, lcrs.toString());
        assertEquals(5, lcrs.size(), lcrs.toString());
    }

    @Test
    @DisplayName("CAP-R-1 CAP-R-2 CAP-CRE-1: a negative schema rule (inclusion_rule false) discards what a positive table rule selects")
    void negativeSchemaRuleBeatsPositiveTableRule() {
        createKeyspace("neg");
        client.execute("CREATE TABLE neg.jobs (job_id int PRIMARY KEY, title text)");
        Admin admin = client.admin();
        List<String> positive = admin.addTableRules("neg.jobs", "capture_neg", "neg_queue", true);
        assertEquals(1, positive.size(), "one DML rule: " + positive);
        admin.startCapture("capture_neg");
        long clerk = client.execute("INSERT INTO neg.jobs (job_id, title) VALUES (?, ?)", 1, "clerk").commitScn();
        awaitCaptured("capture_neg", clerk);
        assertEquals(1, queue("neg_queue").stream().filter(l -> l.contains("clerk")).count(), queue("neg_queue").toString());

        List<String> negative = admin.addSchemaRules("neg", "capture_neg", "neg_queue", false);
        assertEquals(1, negative.size(), negative.toString());
        Row cap = client.execute("SELECT rule_set_name, negative_rule_set_name FROM system_views.capture "
                + "WHERE capture_name = 'capture_neg'").one();
        assertNotNull(cap.getString("negative_rule_set_name"), "CAP-CRE-1: inclusion_rule false makes a negative rule set");
        assertNotEquals(cap.getString("rule_set_name"), cap.getString("negative_rule_set_name"));
        long manager = client.execute("INSERT INTO neg.jobs (job_id, title) VALUES (?, ?)", 2, "manager").commitScn();
        awaitCaptured("capture_neg", manager);
        List<String> lcrs = queue("neg_queue");
        assertTrue(lcrs.stream().noneMatch(l -> l.contains("manager")), lcrs.toString());
        assertEquals(1, lcrs.size(), lcrs.toString());

        // the positive rule still selects the table: without the negative rule, changes are captured again
        admin.removeStreamsRule("capture_neg", negative.get(0), false);
        long director = client.execute("INSERT INTO neg.jobs (job_id, title) VALUES (?, ?)", 3, "director").commitScn();
        awaitCaptured("capture_neg", director);
        List<String> after = queue("neg_queue");
        assertEquals(1, after.stream().filter(l -> l.contains("director")).count(), after.toString());
        assertEquals(2, after.size(), after.toString());
    }

    @Test
    @DisplayName("CAP-R-3 CAP-LCR-2: a session tag keeps writes from include_tagged_lcr = false rules; with true the LCR carries the tag")
    void sessionTag() {
        createKeyspace("tags");
        client.execute("CREATE TABLE tags.t (id int PRIMARY KEY, v text) WITH cdc = {'enabled': true}");
        Admin admin = client.admin();
        admin.addTableRules("tags.t", "cap_untagged", "q_untagged", true);
        admin.addTableRules("tags.t", "cap_tagged", "q_tagged", StreamsRuleOptions.DEFAULTS.withIncludeTaggedLcr(true));
        admin.startCapture("cap_untagged");
        admin.startCapture("cap_tagged");

        Session session = client.newSession();
        session.setTag(new byte[] {0x1d});
        session.execute("INSERT INTO tags.t (id, v) VALUES (1, 'tagged-local')");
        session.setTag(null);
        // dbms_streams.set_tag on the server: the answer's session carries the tag into later writes
        session.admin().setTag(new byte[] {0x1d});
        assertArrayEquals(new byte[] {0x1d}, session.getTag());
        assertArrayEquals(new byte[] {0x1d}, session.admin().getTag());
        session.execute("INSERT INTO tags.t (id, v) VALUES (2, 'tagged-call')");
        session.admin().setTag(null);
        assertNull(session.getTag());
        assertNull(session.admin().getTag());
        long last = session.execute("INSERT INTO tags.t (id, v) VALUES (3, 'untagged')").commitScn();
        awaitCaptured("cap_untagged", last);
        awaitCaptured("cap_tagged", last);

        List<String> untagged = queue("q_untagged");
        assertEquals(1, untagged.size(), untagged.toString());
        assertTrue(untagged.get(0).contains("\"v\":\"untagged\""), untagged.toString());
        assertTrue(untagged.get(0).contains("\"tag\":null"), untagged.toString());

        List<String> tagged = queue("q_tagged");
        assertEquals(3, tagged.size(), tagged.toString());
        for (String v : List.of("tagged-local", "tagged-call")) {
            String lcr = tagged.stream().filter(l -> l.contains("\"v\":\"" + v + "\"")).findFirst().orElseThrow(() ->
                    new AssertionError("no LCR for " + v + " in " + tagged));
            assertTrue(lcr.contains("\"tag\":\"0x1d\""), lcr);
        }
        assertTrue(tagged.stream().filter(l -> l.contains("\"v\":\"untagged\"")).allMatch(l -> l.contains("\"tag\":null")),
                tagged.toString());

        // the table's CDC log, read through ChangeReader, has the same tags
        List<ChangeRecord> changes = awaitValue(() -> rowChanges("tags.t"), l -> l.size() >= 3,
                "3 row LCRs in the CDC log of tags.t");
        assertEquals(3, changes.size(), changes.toString());
        for (ChangeRecord c : changes) {
            String v = (String) c.newValues().get("v");
            assertEquals(v.startsWith("tagged") ? "0x1d" : null, hex(c.tag()), c.toString());
        }
    }

    @Test
    @DisplayName("CAP-T-1 CAP-LCR-1: prepared statements bind values of several types; a batch is one transaction for all its LCRs")
    void preparedStatementsAndABatch() {
        createKeyspace("ks");
        client.execute("CREATE TABLE ks.t (pk int, ck int, name text, amount bigint, ratio double, flag boolean, data blob, "
                + "at timestamp, id uuid, day date, labels set<text>, PRIMARY KEY (pk, ck)) WITH cdc = {'enabled': true}");
        PreparedStatement insert = client.prepare("INSERT INTO ks.t (pk, ck, name, amount, ratio, flag, data, at, id, day, labels) "
                + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        assertEquals(11, insert.bindMarkers().size());
        Instant at = Instant.parse("2020-03-25T12:44:43.006Z");
        UUID id = UUID.fromString("5b6962dd-3f90-4c93-8f61-eabfa4a803e2");
        LocalDate day = LocalDate.of(2021, 2, 3);
        ResultSet single = client.execute(insert.bind(1, 1, "one", 1L << 40, 0.25, true, new byte[] {1, 2, 3}, at, id, day,
                Set.of("a", "b")));

        PreparedStatement select = client.prepare("SELECT name, amount, ratio, flag, data, at, id, day, labels FROM ks.t "
                + "WHERE pk = ? AND ck = ?");
        Row row = client.execute(select.bind(1, 1)).one();
        assertNotNull(row, "the prepared insert wrote the row");
        assertEquals("one", row.getString("name"));
        assertEquals(1L << 40, row.getLong("amount"));
        assertEquals(0.25, row.getDouble("ratio"));
        assertTrue(row.getBoolean("flag"));
        assertEquals(ByteBuffer.wrap(new byte[] {1, 2, 3}), row.getBytes("data"));
        assertEquals(at, row.getInstant("at"));
        assertEquals(id, row.getUuid("id"));
        assertEquals(day, row.getLocalDate("day"));
        assertEquals(Set.of("a", "b"), row.getSet("labels", String.class));

        PreparedStatement rename = client.prepare("UPDATE ks.t SET name = ? WHERE pk = ? AND ck = ?");
        // prepared statements and texts with values mixed; each statement changes a different row
        ResultSet batch = client.batch()
                .add(insert.bind(2, 1, "two", 2L, 0.5, false, ByteBuffer.wrap(new byte[] {4}), at, id, day, Set.of("c")))
                .add(insert.bind(3, 1, "three", null, null, null, null, null, null, null, null))
                .add(rename.bind("uno", 1, 1))
                .add("INSERT INTO ks.t (pk, ck, name, amount) VALUES (?, ?, ?, ?)", 4, 1, "four", 4L)
                .execute();
        assertNotNull(batch.transactionId(), "a batch reports its transaction id");
        assertNotEquals(single.transactionId(), batch.transactionId());
        assertEquals("uno", client.execute(select.bind(1, 1)).one().getString("name"));
        assertEquals(4L, client.execute(select.bind(4, 1)).one().getLong("amount"));

        List<ChangeRecord> changes = awaitValue(() -> rowChanges("ks.t"), l -> l.size() >= 5,
                "5 row LCRs in the CDC log of ks.t");
        assertEquals(5, changes.size(), changes.toString());
        List<ChangeRecord> ofBatch = changes.stream().filter(c -> batch.transactionId().equals(c.transactionId())).toList();
        assertEquals(4, ofBatch.size(), "every LCR of the batch has its transaction id: " + changes);
        assertEquals(1, ofBatch.stream().map(ChangeRecord::commitScn).distinct().count(), "one commit SCN: " + ofBatch);
        assertEquals(batch.commitScn(), ofBatch.get(0).commitScn());
        List<ChangeRecord> ofSingle = changes.stream().filter(c -> single.transactionId().equals(c.transactionId())).toList();
        assertEquals(1, ofSingle.size(), changes.toString());

        // the bound values arrive in the LCR with their types
        Map<String, Object> first = ofSingle.get(0).newValues();
        assertEquals("INSERT", ofSingle.get(0).commandType());
        assertEquals("one", first.get("name"));
        assertEquals(1L << 40, first.get("amount"));
        assertEquals(0.25, first.get("ratio"));
        assertEquals(true, first.get("flag"));
        assertEquals(ByteBuffer.wrap(new byte[] {1, 2, 3}), first.get("data"));
        assertEquals(at, first.get("at"));
        assertEquals(id, first.get("id"));
        assertEquals(day, first.get("day"));
        assertEquals(Set.of("a", "b"), first.get("labels"));
        assertEquals(List.of("INSERT", "INSERT", "INSERT", "UPDATE"),
                ofBatch.stream().map(ChangeRecord::commandType).sorted().toList(), ofBatch.toString());
    }

    @Test
    @DisplayName("Admin errors arrive as the SDK's typed exceptions and name the object")
    void adminErrorsAreTyped() {
        NotFoundException ghost = assertThrows(NotFoundException.class, () -> client.admin().startCapture("ghost"));
        assertTrue(ghost.getMessage().contains("ghost"), ghost.getMessage());
        NotFoundException proc = assertThrows(NotFoundException.class, () -> client.admin().call("dbms_capture_adm.no_such_procedure"));
        assertEquals("NOT_FOUND", proc.code());
        InvalidQueryException param = assertThrows(InvalidQueryException.class,
                () -> client.admin().call("dbms_capture_adm.start_capture", Map.of("capture", "c")));
        assertTrue(param.getMessage().contains("capture_name"), param.getMessage());
        assertEquals(0, client.execute("SELECT * FROM system_views.capture WHERE capture_name = 'ghost'").size());
    }

    @Test
    @DisplayName("CAP-SCN-5 CAP-Q-2 via the SDK: build, a capture from its first SCN, and a live subscription to its queue")
    void buildAndSubscribe() {
        createKeyspace("live");
        client.execute("CREATE TABLE live.t (id int PRIMARY KEY, v text)");
        Admin admin = client.admin();
        admin.setUpQueue("live_q");
        long first = admin.build();
        admin.createCapture("live_q", "live_cap", first, null);
        admin.addTableRules("live.t", "live_cap", "live_q", true);
        assertEquals(first, client.execute("SELECT start_scn FROM system_views.capture WHERE capture_name = 'live_cap'")
                .one().getLong("start_scn"));
        try (dev.tributary.client.LiveChanges live = client.changes().subscribeQueue("live_q")) {
            awaitValue(() -> client.execute("SELECT subscribers FROM system_views.buffered_queues WHERE queue_name = 'live_q'")
                    .one().getInt("subscribers"), n -> n == 1, "the subscription");
            admin.startCapture("live_cap");
            for (int i = 0; i < 5; i++) {
                client.execute("INSERT INTO live.t (id, v) VALUES (" + i + ", 'v" + i + "')");
            }
            List<Object> ids = new ArrayList<>();
            while (ids.size() < 5 && live.hasNext()) {
                ChangeRecord r = live.next();
                assertEquals("INSERT", r.commandType());
                ids.add(r.newValues().get("id"));
            }
            assertEquals(List.of(0, 1, 2, 3, 4), ids, "live, in commit order");
        }
        awaitValue(() -> client.execute("SELECT subscribers FROM system_views.buffered_queues WHERE queue_name = 'live_q'")
                .one().getInt("subscribers"), n -> n == 0, "closing ends the subscription");
    }
}
