package dev.tributary.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(10)
class ClusterFileTest {
    @TempDir
    Path dir;

    @Test
    void keepsTheFormatInterfaceMdShows() {
        ClusterFile c = new ClusterFile("127.0.0.1:2181", 7, "1s", 3, List.of("--tls-cert", "c.pem"),
                List.of(new ClusterFile.Node(1, "127.0.0.1:7000", 42, "/d/n1", "h1", "127.0.0.1:9042", "")));
        assertEquals("{\"zookeeper\": \"127.0.0.1:2181\", \"zookeeper_pid\": 7, \"ring_delay\": \"1s\", "
                + "\"replication_factor\": 3, \"node_options\": [\"--tls-cert\", \"c.pem\"], \"nodes\": [{\"id\": 1, "
                + "\"endpoint\": \"127.0.0.1:7000\", \"pid\": 42, \"data_dir\": \"/d/n1\", \"host_id\": \"h1\", "
                + "\"native_endpoint\": \"127.0.0.1:9042\", \"metrics_endpoint\": \"\"}]}\n", c.toJson());
    }

    @Test
    void readsBackEscapedText() throws IOException {
        // the hand-written reader it replaced kept "\n" and "\u00e9" as the letters n and u
        ClusterFile c = new ClusterFile("zk", 1, "1s", 1, List.of("a\"b\\c\nd", "\u00e9<&>"),
                List.of(new ClusterFile.Node(2, "e", 3, "C:\\data\\n\u00e92", "", "", "")));
        c.write(dir);
        assertEquals(c, ClusterFile.read(dir));
        Files.writeString(dir.resolve(ClusterFile.NAME), "{\"zookeeper\": \"zk\", \"zookeeper_pid\": 1, \"ring_delay\": "
                + "\"1s\", \"nodes\": [{\"id\": 1, \"endpoint\": \"e\", \"pid\": 2, \"data_dir\": \"d\\u00e9\\n\"}]}");
        assertEquals(new ClusterFile("zk", 1, "1s", 1, List.of(),
                List.of(new ClusterFile.Node(1, "e", 2, "d\u00e9\n", "", "", ""))), ClusterFile.read(dir));
    }

    @Test
    void refusesWhatIsNotAClusterFile() throws IOException {
        Files.writeString(dir.resolve(ClusterFile.NAME), "[1, 2]");
        assertThrows(IOException.class, () -> ClusterFile.read(dir));
        Files.writeString(dir.resolve(ClusterFile.NAME), "{\"zookeeper\": ");
        assertThrows(IOException.class, () -> ClusterFile.read(dir));
    }
}
