package dev.tributary.node.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.client.TributaryClient;
import dev.tributary.node.TestNodes;
import dev.tributary.node.TributaryNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Issue 19 item 4: with --zookeeper-auth-file the cluster's znodes are the node user's alone. */
@Timeout(120)
class ZooKeeperAclIT {
    private static CuratorFramework client(String connect, String digest) {
        CuratorFrameworkFactory.Builder b = CuratorFrameworkFactory.builder().connectString(connect)
                .retryPolicy(new RetryOneTime(100));
        if (digest != null) {
            b.authorization("digest", digest.getBytes(StandardCharsets.UTF_8));
        }
        CuratorFramework c = b.build();
        c.start();
        return c;
    }

    /** Visits every znode under {@code path}, noting those whose ACL lets the world (anyone) change them. */
    private static int walk(CuratorFramework c, String path, List<String> worldWritable) throws Exception {
        int writeLike = org.apache.zookeeper.ZooDefs.Perms.WRITE | org.apache.zookeeper.ZooDefs.Perms.CREATE
                | org.apache.zookeeper.ZooDefs.Perms.DELETE | org.apache.zookeeper.ZooDefs.Perms.ADMIN;
        for (org.apache.zookeeper.data.ACL acl : c.getACL().forPath(path)) {
            if (acl.getId().getScheme().equals("world") && (acl.getPerms() & writeLike) != 0) {
                worldWritable.add(path + " " + acl);
            }
        }
        int n = 1;
        for (String child : c.getChildren().forPath(path)) {
            n += walk(c, path + "/" + child, worldWritable);
        }
        return n;
    }

    @Test
    @DisplayName("RELIABILITY X4: an anonymous ZooKeeper client can neither read nor change the cluster's znodes (NoAuth); the nodes, "
            + "authenticated by digest, work; a wrong password reads nothing either; no znode of the cluster grants world write")
    void clusterZnodesAreTheNodesAlone(@TempDir Path dir) throws Exception {
        Path auth = dir.resolve("zk-auth");
        Files.writeString(auth, "tributary:s3cret-canary\n");
        int zk = TestNodes.freePort();
        try (TributaryNode n = TestNodes.startOperating(dir.resolve("n1"), "--zookeeper", "embedded:" + zk,
                "--zookeeper-auth-file", auth.toString(), "--cluster", "acl");
                TributaryClient c = TributaryClient.builder().endpoints(n.endpoint()).build()) {
            c.execute("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1}");
            c.execute("CREATE TABLE ks.t (pk int PRIMARY KEY, v int) WITH cdc = {'enabled': true}");
            c.execute("INSERT INTO ks.t (pk, v) VALUES (1, 1)");

            String connect = "127.0.0.1:" + zk;
            String root = "/tributary/acl";
            try (CuratorFramework anonymous = client(connect, null); CuratorFramework wrong = client(connect, "tributary:guess");
                    CuratorFramework node = client(connect, "tributary:s3cret-canary")) {
                List<String> children = node.getChildren().forPath(root);
                assertTrue(children.contains("generations") && children.contains("schema"), "the node user reads: " + children);
                for (CuratorFramework stranger : List.of(anonymous, wrong)) {
                    assertThrows(KeeperException.NoAuthException.class, () -> stranger.getChildren().forPath(root));
                    assertThrows(KeeperException.NoAuthException.class, () -> stranger.getData().forPath(root + "/generations"));
                    assertThrows(KeeperException.NoAuthException.class, () -> stranger.create().forPath(root + "/schema/evil"));
                    assertThrows(KeeperException.NoAuthException.class, () -> stranger.delete().forPath(root + "/generations"));
                }
                assertFalse(node.getChildren().forPath(root + "/generations").isEmpty(), "nothing was changed");
                // RELIABILITY X4: not only the znodes probed above — none in the whole tree lets anyone else write
                List<String> worldWritable = new java.util.ArrayList<>();
                int walked = walk(node, root, worldWritable);
                assertEquals(List.of(), worldWritable, "znodes granting world write");
                assertTrue(walked > 10, "walked the tree: " + walked + " znodes");
            }
            c.execute("INSERT INTO ks.t (pk, v) VALUES (2, 2)");
            assertEquals(2L, c.execute("SELECT count(*) FROM ks.t").one().getLong(0));
        }
    }

    @Test
    @DisplayName("issue 29 item 8: znodes a cluster made before it was given --zookeeper-auth-file get its ACL when a node "
            + "starts with the file (an anonymous client then gets NoAuth, none grants world write); database link "
            + "passwords are sealed in ZooKeeper, and those an older node kept in clear are sealed at start (a sealed "
            + "link logging in: LogTransportIT)")
    void openClusterClosedAndLinkPasswordsSealed(@TempDir Path dir) throws Exception {
        Path auth = dir.resolve("zk-auth");
        Files.writeString(auth, "tributary:s3cret-canary\n");
        int zk = TestNodes.freePort();
        String connect = "127.0.0.1:" + zk;
        String root = "/tributary/late";
        String linkPassword = "link-canary-41d7";
        try (TributaryNode n = TestNodes.startOperating(dir.resolve("n1"), "--zookeeper", "embedded:" + zk, "--cluster", "late");
                TributaryClient c = TributaryClient.builder().endpoints(n.endpoint()).build()) {
            c.execute("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 1}");
            c.execute("CREATE TABLE ks.t (pk int PRIMARY KEY, v int) WITH cdc = {'enabled': true}");
            c.execute("INSERT INTO ks.t (pk, v) VALUES (1, 1)");
            c.execute("CREATE DATABASE LINK sealed CONNECT TO cassandra IDENTIFIED BY '" + linkPassword + "' USING '"
                    + n.endpoint() + "'");
            try (CuratorFramework anonymous = client(connect, null)) {
                String data = new String(anonymous.getData().forPath(root + "/dblinks/sealed"), StandardCharsets.UTF_8);
                assertFalse(data.contains(linkPassword), "a new link's password is sealed: " + data);
                assertTrue(data.startsWith(n.endpoint() + "\0cassandra\0sealed1:"), data);
                // as a node before sealing kept one
                anonymous.create().forPath(root + "/dblinks/legacy", (n.endpoint() + "\0cassandra\0" + linkPassword)
                        .getBytes(StandardCharsets.UTF_8));
                List<String> open = new java.util.ArrayList<>();
                walk(anonymous, root, open);
                assertFalse(open.isEmpty(), "without the file the cluster's znodes are open");
            }
        }
        try (TributaryNode n = TestNodes.startOperating(dir.resolve("n1"), "--zookeeper", "embedded:" + zk, "--cluster", "late",
                "--zookeeper-auth-file", auth.toString());
                TributaryClient c = TributaryClient.builder().endpoints(n.endpoint()).build()) {
            try (CuratorFramework anonymous = client(connect, null); CuratorFramework node = client(connect, "tributary:s3cret-canary")) {
                assertThrows(KeeperException.NoAuthException.class, () -> anonymous.getChildren().forPath(root));
                assertThrows(KeeperException.NoAuthException.class, () -> anonymous.getData().forPath(root + "/peer-secret"));
                assertThrows(KeeperException.NoAuthException.class, () -> anonymous.getData().forPath(root + "/dblinks/legacy"));
                assertThrows(KeeperException.NoAuthException.class, () -> anonymous.create().forPath(root + "/schema/evil"));
                List<String> worldWritable = new java.util.ArrayList<>();
                int walked = walk(node, root, worldWritable);
                assertEquals(List.of(), worldWritable, "znodes granting world write");
                assertTrue(walked > 10, "walked the tree: " + walked + " znodes");
                for (String link : List.of("sealed", "legacy")) {
                    String data = new String(node.getData().forPath(root + "/dblinks/" + link), StandardCharsets.UTF_8);
                    assertFalse(data.contains(linkPassword), link + ": " + data);
                    assertTrue(data.contains("\0sealed1:"), link + ": " + data);
                }
            }
            assertEquals(1, c.execute("SELECT v FROM ks.t WHERE pk = 1").one().getInt("v"), "the data is all there");
            c.execute("INSERT INTO ks.t (pk, v) VALUES (2, 2)");
            assertEquals(List.of("legacy|cassandra", "sealed|cassandra"), c.execute("SELECT * FROM system_views.db_links").all()
                    .stream().map(r -> r.getString("db_link") + "|" + r.getString("username")).sorted().toList());
        }
    }
}
