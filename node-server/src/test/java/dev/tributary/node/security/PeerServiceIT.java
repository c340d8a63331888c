package dev.tributary.node.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tributary.node.TestNodes;
import dev.tributary.node.TributaryNode;
import dev.tributary.protocol.v1.PeerServiceGrpc;
import dev.tributary.protocol.v1.ReadRedoRequest;
import dev.tributary.protocol.v1.RowBatch;
import dev.tributary.protocol.v1.StoredRowEntry;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The peer service (it moves and deletes rows, and reads the redo) answers the cluster's nodes only. */
@Timeout(60)
class PeerServiceIT {
    @Test
    @DisplayName("a client without the cluster's peer secret is refused UNAUTHENTICATED by every peer RPC, and nothing "
            + "is deleted; the nodes themselves use it (ClusterCaptureIT, ClusterJoinIT)")
    void clientsAreRefused(@TempDir Path dir) throws Exception {
        try (TributaryNode n = TestNodes.startOperating(dir.resolve("n1"), "--zookeeper", "embedded:" + TestNodes.freePort())) {
            try (TestNodes.Wire w = new TestNodes.Wire(n)) {
                w.exec("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1}");
                w.exec("CREATE TABLE ks.t (pk int PRIMARY KEY, v int)");
                w.exec("INSERT INTO ks.t (pk, v) VALUES (1, 1)");
            }
            ManagedChannel ch = ManagedChannelBuilder.forTarget(n.endpoint()).usePlaintext().build();
            try {
                PeerServiceGrpc.PeerServiceBlockingStub stub = PeerServiceGrpc.newBlockingStub(ch);
                StatusRuntimeException redo = assertThrows(StatusRuntimeException.class, () -> stub.readRedo(
                        ReadRedoRequest.newBuilder().setHostId(n.hostId().toString()).setAfterScn(0).setMaxEntries(10).build()));
                assertEquals(Status.Code.UNAUTHENTICATED, redo.getStatus().getCode(), redo.getStatus().toString());
                StatusRuntimeException release = assertThrows(StatusRuntimeException.class, () -> stub.releaseRows(
                        RowBatch.newBuilder().addRows(StoredRowEntry.newBuilder()).build()));
                assertEquals(Status.Code.UNAUTHENTICATED, release.getStatus().getCode());
            } finally {
                ch.shutdownNow();
            }
            try (TestNodes.Wire w = new TestNodes.Wire(n)) {
                assertEquals(1L, w.exec("SELECT count(*) FROM ks.t").getRows(0).getValues(0).getInteger());
            }
        }
    }
}
