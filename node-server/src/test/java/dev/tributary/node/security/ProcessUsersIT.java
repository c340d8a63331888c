package dev.tributary.node.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.client.TributaryClient;
import dev.tributary.client.errors.InvalidQueryException;
import dev.tributary.client.errors.PermissionDeniedException;
import dev.tributary.node.TestNodes;
import dev.tributary.node.TributaryNode;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The users capture and apply processes run as, on a node with the password authenticator: a
 * process starts only when its user may read what its queue holds.
 */
@Timeout(120)
class ProcessUsersIT {
    private static TributaryClient client(TributaryNode node, String role, String password) {
        return TributaryClient.builder().endpoints(node.endpoint()).requestTimeout(Duration.ofSeconds(20))
                .failoverWindow(Duration.ZERO).credentials(role, password).build();
    }

    @Test
    @DisplayName("CAP-PRIV-1 CAP-ARCH-1: capture_user and apply_user need SELECT on what the queue's rules capture: start_capture and "
            + "start_apply are refused, naming the GRANT, until they hold it; a user that is no role is refused")
    void processUsersNeedTheirQueuesPrivileges(@TempDir Path dir) throws Exception {
        try (TributaryNode node = TestNodes.startOperating(dir, TestNodes.concat(TestNodes.passwordAuthenticator(dir),
                "--zookeeper", "embedded:" + TestNodes.freePort()));
                TributaryClient admin = client(node, "cassandra", TestNodes.SUPERUSER_PASSWORD)) {
            admin.execute("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            admin.execute("CREATE TABLE ks.t (id int PRIMARY KEY, v int)");
            admin.execute("CREATE ROLE capper WITH PASSWORD = 'capper-pw-1' AND LOGIN = true");
            admin.execute("CREATE ROLE applier WITH PASSWORD = 'applier-pw-1' AND LOGIN = true");
            admin.execute("CALL dbms_streams_adm.set_up_queue(queue_name => 'q')");
            admin.execute("CALL dbms_capture_adm.create_capture(queue_name => 'q', capture_name => 'cap', capture_user => 'capper')");
            admin.execute("CALL dbms_streams_adm.add_table_rules(table_name => 'ks.t', streams_type => 'capture', "
                    + "streams_name => 'cap', queue_name => 'q')");

            PermissionDeniedException denied = assertThrows(PermissionDeniedException.class,
                    () -> admin.execute("CALL dbms_capture_adm.start_capture(capture_name => 'cap')"));
            assertTrue(denied.getMessage().contains("capture_user capper has no SELECT on <table ks.t>")
                    && denied.getMessage().contains("GRANT SELECT ON TABLE ks.t TO capper"), denied.getMessage());
            assertEquals("DISABLED", admin.execute("SELECT status FROM system_views.capture WHERE capture_name = 'cap'").one()
                    .getString(0), "not started");
            admin.execute("GRANT SELECT ON KEYSPACE ks TO capper");
            admin.execute("CALL dbms_capture_adm.start_capture(capture_name => 'cap')");
            assertEquals("ENABLED", admin.execute("SELECT status FROM system_views.capture WHERE capture_name = 'cap'").one()
                    .getString(0));

            admin.execute("CALL dbms_apply_adm.create_apply(queue_name => 'q', apply_name => 'ap', apply_user => 'applier')");
            PermissionDeniedException applyDenied = assertThrows(PermissionDeniedException.class,
                    () -> admin.execute("CALL dbms_apply_adm.start_apply(apply_name => 'ap')"));
            assertTrue(applyDenied.getMessage().contains("apply_user applier has no SELECT on <table ks.t>"),
                    applyDenied.getMessage());
            admin.execute("GRANT SELECT ON TABLE ks.t TO applier");
            admin.execute("CALL dbms_apply_adm.start_apply(apply_name => 'ap')");
            assertEquals("ENABLED", admin.execute("SELECT status FROM system_views.apply WHERE apply_name = 'ap'").one()
                    .getString(0));
            admin.execute("CALL dbms_apply_adm.stop_apply(apply_name => 'ap')");

            admin.execute("CALL dbms_streams_adm.set_up_queue(queue_name => 'q2')");
            admin.execute("CALL dbms_capture_adm.create_capture(queue_name => 'q2', capture_name => 'ghostly', "
                    + "capture_user => 'ghost')");
            InvalidQueryException ghost = assertThrows(InvalidQueryException.class,
                    () -> admin.execute("CALL dbms_capture_adm.start_capture(capture_name => 'ghostly')"));
            assertTrue(ghost.getMessage().contains("capture_user ghost is not a role"), ghost.getMessage());
        }
    }
}
