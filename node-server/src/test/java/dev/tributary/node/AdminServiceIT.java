package dev.tributary.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tributary.node.net.ErrorMapping;
import dev.tributary.protocol.v1.AdminArgument;
import dev.tributary.protocol.v1.AdminCallRequest;
import dev.tributary.protocol.v1.AdminServiceGrpc;
import dev.tributary.protocol.v1.Value;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The gRPC Admin service runs the same procedures as CALL. */
@Timeout(120)
class AdminServiceIT {
    private static AdminArgument arg(String name, String text) {
        return AdminArgument.newBuilder().setName(name).setValue(Value.newBuilder().setText(text)).build();
    }

    @Test
    void rulesAndCapturesThroughTheAdminService(@TempDir Path dir) {
        try (TributaryNode node = TestNodes.startOperating(dir); TestNodes.Wire w = new TestNodes.Wire(node)) {
            AdminServiceGrpc.AdminServiceBlockingStub admin = AdminServiceGrpc.newBlockingStub(w.channel);
            w.exec("CREATE KEYSPACE hr WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            w.exec("CREATE TABLE hr.regions (id int PRIMARY KEY, name text)");
            var made = admin.call(AdminCallRequest.newBuilder().setProcedure("dbms_streams_adm.add_table_rules")
                    .addArguments(arg("table_name", "hr.regions")).addArguments(arg("streams_type", "capture"))
                    .addArguments(arg("streams_name", "admin_cap")).addArguments(arg("queue_name", "admin_q"))
                    .addArguments(AdminArgument.newBuilder().setName("include_ddl").setValue(Value.newBuilder().setBoolean(true)))
                    .build());
            assertEquals(2, made.getRowsCount(), "a DML and a DDL rule");
            assertEquals(2, w.exec("SELECT rule_name FROM system_views.streams_rules WHERE streams_name = 'admin_cap' ALLOW FILTERING")
                    .getRowsCount());
            StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> admin.call(AdminCallRequest.newBuilder()
                    .setProcedure("dbms_capture_adm.no_such_procedure").build()));
            assertEquals("NOT_FOUND", e.getTrailers().get(ErrorMapping.ERROR_CODE));
        }
    }
}
