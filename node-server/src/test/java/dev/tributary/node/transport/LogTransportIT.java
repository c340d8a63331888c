package dev.tributary.node.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.client.Row;
import dev.tributary.client.TributaryClient;
import dev.tributary.client.errors.InvalidQueryException;
import dev.tributary.client.errors.NotFoundException;
import dev.tributary.node.TestNodes;
import dev.tributary.node.TributaryNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Log transport between two clusters on one machine: database links, archive destinations, shipped logs. */
@Timeout(120)
class LogTransportIT {
    /** archived_log rows of one source database: "thread/sequence first_change-next_change". */
    private static List<String> logs(TributaryClient c, String source) {
        return c.execute("SELECT source_database, thread_number, sequence_number, first_change, next_change, standby_dest "
                + "FROM system_views.archived_log").all().stream().filter(r -> source.equals(r.getString("source_database")))
                .map(LogTransportIT::describe).collect(Collectors.toList());
    }

    private static String describe(Row r) {
        return r.getInt("thread_number") + "/" + r.getLong("sequence_number") + " " + r.getLong("first_change") + "-"
                + r.getLong("next_change");
    }

    @Test
    @DisplayName("CAP-DS-1: each archived redo log of the source reaches the destination named by log_archive_dest_N "
            + "through a database link, listed there in archived_log with its source database and thread")
    void shipsArchivedLogs(@TempDir Path dir) throws Exception {
        try (TributaryNode src = TestNodes.startCluster(dir.resolve("src"), "src");
                TributaryNode dst = TestNodes.startCluster(dir.resolve("dst"), "dst");
                TributaryClient s = TributaryClient.builder().endpoints(src.endpoint()).build();
                TributaryClient d = TributaryClient.builder().endpoints(dst.endpoint()).build()) {
            s.execute("CREATE DATABASE LINK dst USING '" + dst.endpoint() + "'");
            s.execute("ALTER SYSTEM SET log_archive_dest_2 = 'SERVICE=dst'");
            s.execute("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1}");
            s.execute("CREATE TABLE ks.t (pk int PRIMARY KEY, v text)");
            for (int i = 0; i < 50; i++) {
                s.execute("INSERT INTO ks.t (pk, v) VALUES (?, ?)", i, "v" + i);
            }
            s.execute("ALTER SYSTEM SWITCH LOGFILE");
            List<String> archived = logs(s, "SRC");
            assertTrue(!archived.isEmpty(), "the switch archived the current log");
            TestNodes.await(() -> logs(d, "SRC").containsAll(archived), Duration.ofSeconds(30),
                    () -> "the destination to hold " + archived + "; it holds " + logs(d, "SRC"));
            assertTrue(d.execute("SELECT source_database, standby_dest FROM system_views.archived_log").all().stream()
                    .filter(r -> r.getString("source_database").equals("SRC"))
                    .allMatch(r -> r.getString("standby_dest").equals("YES")), "received, not archived here");
            // later logs follow
            s.execute("INSERT INTO ks.t (pk, v) VALUES (100, 'later')");
            s.execute("ALTER SYSTEM SWITCH LOGFILE");
            List<String> more = logs(s, "SRC");
            assertTrue(more.size() > archived.size());
            TestNodes.await(() -> logs(d, "SRC").containsAll(more), Duration.ofSeconds(30), "the later log too");
        }
    }

    @Test
    @DisplayName("a link that CONNECTs TO a role ships to a destination that authenticates; without credentials the "
            + "destination's log transport answers UNAUTHENTICATED")
    void shipsToADestinationThatAuthenticates(@TempDir Path dir) throws Exception {
        try (TributaryNode src = TestNodes.startCluster(dir.resolve("src"), "src");
                TributaryNode dst = TestNodes.startOperating(dir.resolve("dst"), TestNodes.concat(
                        TestNodes.passwordAuthenticator(dir), "--zookeeper", "embedded:" + TestNodes.freePort(), "--cluster", "dst"));
                TributaryClient s = TributaryClient.builder().endpoints(src.endpoint()).build();
                TributaryClient d = TributaryClient.builder().endpoints(dst.endpoint()).credentials("cassandra", TestNodes.SUPERUSER_PASSWORD)
                        .build()) {
            d.execute("CREATE ROLE shipper WITH PASSWORD = 'ship-pw' AND LOGIN = true AND SUPERUSER = true");
            s.execute("CREATE DATABASE LINK dst CONNECT TO shipper IDENTIFIED BY 'ship-pw' USING '" + dst.endpoint() + "'");
            Row link = s.execute("SELECT db_link, username, host, link_type FROM system_views.db_links").one();
            assertEquals("dst|shipper|" + dst.endpoint() + "|TRIBUTARY", link.getString("db_link") + "|" + link.getString("username")
                    + "|" + link.getString("host") + "|" + link.getString("link_type"), "the role, never the password");
            s.execute("ALTER SYSTEM SET log_archive_dest_1 = 'SERVICE=dst'");
            s.execute("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1}");
            s.execute("ALTER SYSTEM SWITCH LOGFILE");
            List<String> archived = logs(s, "SRC");
            TestNodes.await(() -> logs(d, "SRC").containsAll(archived), Duration.ofSeconds(30),
                    () -> "the destination to hold " + archived + "; it holds " + logs(d, "SRC"));

            io.grpc.ManagedChannel ch = io.grpc.ManagedChannelBuilder.forTarget(dst.endpoint()).usePlaintext().build();
            try {
                io.grpc.StatusRuntimeException refused = assertThrows(io.grpc.StatusRuntimeException.class,
                        () -> dev.tributary.protocol.v1.LogTransportServiceGrpc.newBlockingStub(ch).received(
                                dev.tributary.protocol.v1.LogId.newBuilder().setSourceDatabase("SRC").setThread(1).setSequence(1)
                                        .build()));
                assertEquals(io.grpc.Status.Code.UNAUTHENTICATED, refused.getStatus().getCode());
            } finally {
                ch.shutdownNow();
            }
        }
    }

    @Test
    @DisplayName("bad link and destination settings are refused with what is wrong, and change nothing")
    void badSettings(@TempDir Path dir) throws Exception {
        try (TributaryNode src = TestNodes.startCluster(dir.resolve("src"), "src");
                TributaryClient s = TributaryClient.builder().endpoints(src.endpoint()).build()) {
            InvalidQueryException bad = assertThrows(InvalidQueryException.class,
                    () -> s.execute("CREATE DATABASE LINK x USING 'no port here'"));
            assertTrue(bad.getMessage().contains("neither HOST:PORT"), bad.getMessage());
            NotFoundException missing = assertThrows(NotFoundException.class,
                    () -> s.execute("ALTER SYSTEM SET log_archive_dest_1 = 'SERVICE=nowhere'"));
            assertTrue(missing.getMessage().contains("database link nowhere does not exist"), missing.getMessage());
            InvalidQueryException param = assertThrows(InvalidQueryException.class,
                    () -> s.execute("ALTER SYSTEM SET log_archive_dest_32 = 'SERVICE=x'"));
            assertTrue(param.getMessage().contains("log_archive_dest_1 to log_archive_dest_31"), param.getMessage());
            s.execute("CREATE DATABASE LINK pg USING 'jdbc:postgresql://127.0.0.1:1/db'");
            InvalidQueryException jdbc = assertThrows(InvalidQueryException.class,
                    () -> s.execute("ALTER SYSTEM SET log_archive_dest_1 = 'SERVICE=pg'"));
            assertTrue(jdbc.getMessage().contains("only be shipped to a Tributary cluster"), jdbc.getMessage());
            s.execute("CREATE DATABASE LINK other USING '127.0.0.1:1'");
            s.execute("ALTER SYSTEM SET log_archive_dest_1 = 'SERVICE=other'");
            InvalidQueryException inUse = assertThrows(InvalidQueryException.class, () -> s.execute("DROP DATABASE LINK other"));
            assertTrue(inUse.getMessage().contains("in use by log_archive_dest_1"), inUse.getMessage());
            s.execute("ALTER SYSTEM SET log_archive_dest_1 = ''");
            s.execute("DROP DATABASE LINK other");
            s.execute("DROP DATABASE LINK IF EXISTS other");
            assertThrows(NotFoundException.class, () -> s.execute("DROP DATABASE LINK other"));
            assertEquals(1L, s.execute("SELECT count(*) FROM system.local").one().getLong(0), "the node is up");
        }
    }
}
