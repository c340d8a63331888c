package dev.tributary.client;

import static dev.tributary.client.TestNode.column;
import static dev.tributary.client.TestNode.error;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import dev.tributary.client.errors.AlreadyExistsException;
import dev.tributary.client.errors.InvalidQueryException;
import dev.tributary.client.errors.NotFoundException;
import dev.tributary.client.errors.RequestTimeoutException;
import dev.tributary.client.errors.UnavailableException;
import dev.tributary.protocol.v1.AdminArgument;
import dev.tributary.protocol.v1.AdminCallRequest;
import dev.tributary.protocol.v1.ExecuteRequest;
import dev.tributary.protocol.v1.ExecuteResponse;
import dev.tributary.protocol.v1.SessionState;
import dev.tributary.protocol.v1.Value;
import io.grpc.Status;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class AdminTest {
    private static final Value NULL = Value.getDefaultInstance();

    private TestNode node;
    private TributaryClient client;

    @BeforeEach
    void start() {
        node = TestNode.start("n1");
        client = TributaryClient.builder().channel("n1", node.channel()).username("alice").build();
    }

    @AfterEach
    void stop() {
        client.close();
        node.close();
    }

    private static Value text(String s) {
        return Value.newBuilder().setText(s).build();
    }

    private static Value bool(boolean b) {
        return Value.newBuilder().setBoolean(b).build();
    }

    private static Value integer(long l) {
        return Value.newBuilder().setInteger(l).build();
    }

    private static Value blob(byte[] bytes) {
        return Value.newBuilder().setBlob(ByteString.copyFrom(bytes)).build();
    }

    private static Value blob(int... bytes) {
        byte[] b = new byte[bytes.length];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) bytes[i];
        }
        return blob(b);
    }

    /** The request's arguments by name, in the order sent. */
    private static Map<String, Value> arguments(AdminCallRequest r) {
        Map<String, Value> out = new LinkedHashMap<>();
        for (AdminArgument a : r.getArgumentsList()) {
            out.put(a.getName(), a.getValue());
        }
        return out;
    }

    private AdminCallRequest lastCall() {
        List<AdminCallRequest> calls = node.requestsOf(AdminCallRequest.class);
        return calls.get(calls.size() - 1);
    }

    /** Answers like a node that made these rules. */
    private static ExecuteResponse ruleRows(AdminCallRequest r, String... names) {
        ExecuteResponse.Builder b = ExecuteResponse.newBuilder().setHasRows(true).setSession(r.getSession())
                .addColumns(column("rule_name", "text"));
        for (String n : names) {
            b.addRows(dev.tributary.protocol.v1.Row.newBuilder().addValues(text(n)));
        }
        return b.build();
    }

    @Test
    void callSendsTheProcedureTypedNamedArgumentsAndTheSession() {
        node.onExecute = r -> ExecuteResponse.newBuilder().setSession(r.getSession().toBuilder().setKeyspace("hr")).build();
        client.execute("USE hr");
        client.session().setTag(new byte[] {0x1d});
        ByteBuffer buffer = ByteBuffer.wrap(new byte[] {9, 8, 7});
        buffer.get();
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("a_text", "streams_queue");
        args.put("an_int", 7);
        args.put("a_long", 1L << 40);
        args.put("a_bool", false);
        args.put("a_byte_array", new byte[] {1, 2});
        args.put("a_buffer", buffer);
        args.put("a_null", null);

        client.admin().call("dbms_capture_adm.create_capture", args);

        AdminCallRequest r = lastCall();
        assertEquals("dbms_capture_adm.create_capture", r.getProcedure());
        assertEquals(List.of("a_text", "an_int", "a_long", "a_bool", "a_byte_array", "a_buffer", "a_null"),
                List.copyOf(arguments(r).keySet()), "in the map's order");
        assertEquals(text("streams_queue"), arguments(r).get("a_text"));
        assertEquals(integer(7), arguments(r).get("an_int"));
        assertEquals(integer(1L << 40), arguments(r).get("a_long"));
        assertEquals(bool(false), arguments(r).get("a_bool"));
        assertEquals(blob(1, 2), arguments(r).get("a_byte_array"));
        assertEquals(blob(8, 7), arguments(r).get("a_buffer"), "the buffer's remaining bytes");
        assertEquals(1, buffer.position(), "the caller's buffer is not moved");
        assertEquals(NULL, arguments(r).get("a_null"), "null is an unset value");
        SessionState s = r.getSession();
        assertEquals("hr", s.getKeyspace());
        assertTrue(s.getHasTag());
        assertEquals(ByteString.copyFrom(new byte[] {0x1d}), s.getTag());
        assertEquals("alice", s.getUsername());
        assertEquals(client.session().sessionId(), s.getSessionId());
    }

    @Test
    void eachSessionsAdminCarriesThatSession() {
        Session other = client.newSession();
        other.setTag(new byte[] {0x22});
        assertSame(client.session(), client.admin().session());
        assertSame(other, other.admin().session());
        client.admin().startCapture("c1");
        other.admin().startCapture("c2");
        List<AdminCallRequest> calls = node.requestsOf(AdminCallRequest.class);
        assertFalse(calls.get(0).getSession().getHasTag());
        assertEquals(client.session().sessionId(), calls.get(0).getSession().getSessionId());
        assertTrue(calls.get(1).getSession().getHasTag());
        assertEquals(ByteString.copyFrom(new byte[] {0x22}), calls.get(1).getSession().getTag());
        assertEquals(other.sessionId(), calls.get(1).getSession().getSessionId());
        assertNotEquals(calls.get(0).getSession().getSessionId(), calls.get(1).getSession().getSessionId());
    }

    @Test
    void anArgumentOfAnotherTypeIsRefusedByNameAndNothingIsSent() {
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("queue_name", "q");
        args.put("first_scn", 1.5d);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> client.admin().call("dbms_capture_adm.create_capture", args));
        assertTrue(e.getMessage().contains("'first_scn'"), e.getMessage());
        assertTrue(e.getMessage().contains("dbms_capture_adm.create_capture"), e.getMessage());
        assertTrue(e.getMessage().contains("java.lang.Double"), e.getMessage());

        IllegalArgumentException shortValue = assertThrows(IllegalArgumentException.class,
                () -> client.admin().call("dbms_capture_adm.create_capture", Map.of("start_scn", (short) 1)));
        assertTrue(shortValue.getMessage().contains("'start_scn'"), shortValue.getMessage());

        Map<String, Object> unnamed = new HashMap<>();
        unnamed.put(null, "x");
        assertThrows(IllegalArgumentException.class, () -> client.admin().call("dbms_streams_adm.set_up_queue", unnamed));
        assertThrows(IllegalArgumentException.class, () -> client.admin().call("dbms_streams_adm.set_up_queue", Map.of(" ", "x")));
        assertEquals(0, node.requestsOf(AdminCallRequest.class).size());
    }

    @Test
    void theProcedureMustBePackageDotProcedure() {
        for (String bad : List.of("start_capture", ".start_capture", "dbms_capture_adm.", "a.b.c", " ")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> client.admin().call(bad));
            assertTrue(e.getMessage().contains("package.procedure"), e.getMessage());
        }
        assertThrows(NullPointerException.class, () -> client.admin().call(null));
        assertEquals(0, node.requestsOf(AdminCallRequest.class).size());
    }

    @Test
    void subsetRulesSendTheSeedsParametersAndReturnTheRuleNames() {
        node.onAdmin = r -> ruleRows(r, "EMPLOYEES1", "EMPLOYEES2", "EMPLOYEES3");
        List<String> rules = client.admin().addSubsetRules("hr.employees", "department_id = 50", "capture_hr", "streams_queue");
        assertEquals(List.of("EMPLOYEES1", "EMPLOYEES2", "EMPLOYEES3"), rules);
        AdminCallRequest r = lastCall();
        assertEquals("dbms_streams_adm.add_subset_rules", r.getProcedure());
        Map<String, Value> expected = new LinkedHashMap<>();
        expected.put("table_name", text("hr.employees"));
        expected.put("dml_condition", text("department_id = 50"));
        expected.put("streams_type", text("capture"));
        expected.put("streams_name", text("capture_hr"));
        expected.put("queue_name", text("streams_queue"));
        expected.put("include_tagged_lcr", bool(false));
        assertEquals(expected, arguments(r));

        client.admin().addSubsetRules("hr.employees", "department_id = 50", "capture_hr", "streams_queue", true);
        assertEquals(bool(true), arguments(lastCall()).get("include_tagged_lcr"));
    }

    @Test
    void tableSchemaAndGlobalRulesSendTheirOptions() {
        node.onAdmin = r -> ruleRows(r, "R1");
        assertEquals(List.of("R1"), client.admin().addTableRules("hr.jobs", "cap", "q", false));
        Map<String, Value> table = arguments(lastCall());
        assertEquals("dbms_streams_adm.add_table_rules", lastCall().getProcedure());
        assertEquals(text("hr.jobs"), table.get("table_name"));
        assertEquals(text("capture"), table.get("streams_type"));
        assertEquals(text("cap"), table.get("streams_name"));
        assertEquals(text("q"), table.get("queue_name"));
        assertEquals(bool(false), table.get("inclusion_rule"));
        assertEquals(bool(true), table.get("include_dml"));
        assertEquals(bool(false), table.get("include_ddl"));
        assertEquals(bool(false), table.get("include_tagged_lcr"));
        assertFalse(table.containsKey("and_condition"));

        client.admin().addSchemaRules("hr", "cap", "q", StreamsRuleOptions.DEFAULTS.withIncludeTaggedLcr(true)
                .withIncludeDdl(true).withAndCondition(":lcr.get_command_type() != 'DELETE'"));
        Map<String, Value> schema = arguments(lastCall());
        assertEquals("dbms_streams_adm.add_schema_rules", lastCall().getProcedure());
        assertEquals(text("hr"), schema.get("schema_name"));
        assertEquals(bool(true), schema.get("include_tagged_lcr"));
        assertEquals(bool(true), schema.get("include_ddl"));
        assertEquals(bool(true), schema.get("inclusion_rule"));
        assertEquals(text(":lcr.get_command_type() != 'DELETE'"), schema.get("and_condition"));

        client.admin().addGlobalRules("cap_all", "all_q", true);
        Map<String, Value> global = arguments(lastCall());
        assertEquals("dbms_streams_adm.add_global_rules", lastCall().getProcedure());
        assertFalse(global.containsKey("table_name") || global.containsKey("schema_name"));
        assertEquals(text("cap_all"), global.get("streams_name"));

        assertThrows(NullPointerException.class, () -> client.admin().addTableRules(null, "cap", "q", true));
    }

    @Test
    void captureQueueAndRuleProceduresSendTheirParameters() {
        Admin admin = client.admin();
        admin.setUpQueue("streams_queue");
        admin.createCapture("streams_queue", "cap");
        admin.startCapture("cap");
        admin.stopCapture("cap");
        admin.dropCapture("cap");
        admin.removeStreamsRule("cap", null, false);
        admin.createRuleSet("rs");
        admin.createRule("r", ":dml.is_null_tag() = 'Y'");
        admin.addRule("r", "rs");
        admin.removeRule("r", "rs");
        admin.dropRule("r");
        admin.dropRuleSet("rs", true);
        List<AdminCallRequest> calls = node.requestsOf(AdminCallRequest.class);
        assertEquals(List.of("dbms_streams_adm.set_up_queue", "dbms_capture_adm.create_capture",
                "dbms_capture_adm.start_capture", "dbms_capture_adm.stop_capture", "dbms_capture_adm.drop_capture",
                "dbms_streams_adm.remove_rule", "dbms_rule_adm.create_rule_set", "dbms_rule_adm.create_rule",
                "dbms_rule_adm.add_rule", "dbms_rule_adm.remove_rule", "dbms_rule_adm.drop_rule", "dbms_rule_adm.drop_rule_set"),
                calls.stream().map(AdminCallRequest::getProcedure).toList());
        assertEquals(Map.of("queue_name", text("streams_queue")), arguments(calls.get(0)));
        assertEquals(Map.of("queue_name", text("streams_queue"), "capture_name", text("cap")), arguments(calls.get(1)));
        assertEquals(Map.of("capture_name", text("cap")), arguments(calls.get(2)));
        assertEquals(Map.of("capture_name", text("cap")), arguments(calls.get(3)));
        assertEquals(Map.of("capture_name", text("cap")), arguments(calls.get(4)));
        assertEquals(Map.of("rule_name", NULL, "streams_type", text("capture"), "streams_name", text("cap"),
                "inclusion_rule", bool(false)), arguments(calls.get(5)));
        assertEquals(Map.of("rule_set_name", text("rs")), arguments(calls.get(6)));
        assertEquals(Map.of("rule_name", text("r"), "condition", text(":dml.is_null_tag() = 'Y'")), arguments(calls.get(7)));
        assertEquals(Map.of("rule_name", text("r"), "rule_set_name", text("rs")), arguments(calls.get(8)));
        assertEquals(Map.of("rule_name", text("r"), "rule_set_name", text("rs")), arguments(calls.get(9)));
        assertEquals(Map.of("rule_name", text("r")), arguments(calls.get(10)));
        assertEquals(Map.of("rule_set_name", text("rs"), "delete_rules", bool(true)), arguments(calls.get(11)));
    }

    @Test
    void setTagTakesTheTagFromTheAnswerAndLaterStatementsCarryIt() {
        // a node that, like the real one, answers set_tag with the session carrying the new tag
        node.onAdmin = r -> {
            SessionState.Builder s = r.getSession().toBuilder();
            if (r.getProcedure().equals("dbms_streams.set_tag")) {
                Value tag = r.getArguments(0).getValue();
                s.setHasTag(tag.hasBlob()).setTag(tag.hasBlob() ? tag.getBlob() : ByteString.EMPTY);
                return ExecuteResponse.newBuilder().setSession(s).build();
            }
            Value tag = r.getSession().getHasTag() ? blob(r.getSession().getTag().toByteArray()) : NULL;
            return ExecuteResponse.newBuilder().setSession(s).setHasRows(true).addColumns(column("tag", "blob"))
                    .addRows(dev.tributary.protocol.v1.Row.newBuilder().addValues(tag)).build();
        };
        Session session = client.session();
        session.admin().setTag(new byte[] {0x1d});
        assertEquals(Map.of("tag", blob(0x1d)), arguments(lastCall()));
        assertFalse(lastCall().getSession().getHasTag(), "the call itself ran untagged");
        assertArrayEquals(new byte[] {0x1d}, session.getTag());
        assertArrayEquals(new byte[] {0x1d}, session.admin().getTag());
        assertEquals("dbms_streams.get_tag", lastCall().getProcedure());

        client.execute("INSERT INTO ks.t (k) VALUES (1)");
        ExecuteRequest write = node.requestsOf(ExecuteRequest.class).get(0);
        assertEquals(ByteString.copyFrom(new byte[] {0x1d}), write.getSession().getTag());

        session.admin().setTag(null);
        assertEquals(Map.of("tag", NULL), arguments(lastCall()));
        assertNull(session.getTag());
        assertNull(session.admin().getTag());
    }

    @Test
    void anAnswerWithoutSessionLeavesTheSessionAlone() {
        client.session().setTag(new byte[] {0x05});
        client.admin().startCapture("c");
        assertArrayEquals(new byte[] {0x05}, client.session().getTag());
    }

    @Test
    void serverErrorsArriveTyped() {
        node.onAdmin = r -> {
            throw error(Status.Code.NOT_FOUND, "NOT_FOUND", "capture process ghost does not exist");
        };
        NotFoundException missing = assertThrows(NotFoundException.class, () -> client.admin().startCapture("ghost"));
        assertEquals("NOT_FOUND", missing.code());
        assertEquals("capture process ghost does not exist", missing.getMessage());

        node.onAdmin = r -> {
            throw error(Status.Code.ALREADY_EXISTS, "ALREADY_EXISTS", "rule r already exists");
        };
        assertThrows(AlreadyExistsException.class, () -> client.admin().createRule("r", ":dml.is_null_tag() = 'Y'"));

        node.onAdmin = r -> {
            throw error(Status.Code.INVALID_ARGUMENT, "INVALID_REQUEST", "dbms_capture_adm.start_capture needs parameter capture_name");
        };
        InvalidQueryException bad = assertThrows(InvalidQueryException.class,
                () -> client.admin().call("dbms_capture_adm.start_capture", Map.of("capture", "c")));
        assertTrue(bad.getMessage().contains("capture_name"), bad.getMessage());
    }

    @Test
    void anUnavailableNodeIsSkippedAndOtherErrorsAreNot() {
        TestNode second = TestNode.start("n2");
        node.onAdmin = r -> {
            throw error(Status.Code.UNAVAILABLE, "UNAVAILABLE", "node is shutting down");
        };
        try (TributaryClient c = TributaryClient.builder()
                .channel("n1", node.channel()).channel("n2", second.channel()).build()) {
            c.admin().setUpQueue("q");
            assertEquals(1, node.requestsOf(AdminCallRequest.class).size());
            assertEquals(1, second.requestsOf(AdminCallRequest.class).size());
            assertEquals(node.requestsOf(AdminCallRequest.class).get(0), second.requestsOf(AdminCallRequest.class).get(0),
                    "the same request is sent to the next node");
            c.admin().setUpQueue("q2");
            assertEquals(1, node.requestsOf(AdminCallRequest.class).size(), "the node that answered is remembered");

            second.onAdmin = r -> {
                throw error(Status.Code.NOT_FOUND, "NOT_FOUND", "no capture x");
            };
            node.onAdmin = r -> ExecuteResponse.getDefaultInstance();
            assertThrows(NotFoundException.class, () -> c.admin().startCapture("x"));
            assertEquals(1, node.requestsOf(AdminCallRequest.class).size(), "a NOT_FOUND is the answer");
        } finally {
            second.close();
        }
    }

    @Test
    void whenNoNodeCanServeTheErrorNamesThemAll() {
        try (TributaryClient c = TributaryClient.builder()
                .channel("a:1", TestNode.deadChannel()).channel("b:2", TestNode.deadChannel()).build()) {
            UnavailableException e = assertThrows(UnavailableException.class, () -> c.admin().startCapture("c"));
            assertEquals(List.of("a:1", "b:2"), e.endpointsTried());
        }
    }

    @Test
    void aSlowCallTimesOut() {
        CountDownLatch release = new CountDownLatch(1);
        node.onAdmin = r -> {
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return ExecuteResponse.getDefaultInstance();
        };
        try (TributaryClient c = TributaryClient.builder().channel("n1", node.channel())
                .requestTimeout(Duration.ofMillis(200)).build()) {
            RequestTimeoutException e = assertThrows(RequestTimeoutException.class, () -> c.admin().startCapture("c"));
            assertEquals("DEADLINE_EXCEEDED", e.code());
            assertNull(e.idempotencyKey(), "admin calls carry no idempotency key");
        } finally {
            release.countDown();
        }
    }

    @Test
    void aClosedClientRefusesAdmin() {
        client.close();
        assertThrows(IllegalStateException.class, () -> client.admin());
    }
}
