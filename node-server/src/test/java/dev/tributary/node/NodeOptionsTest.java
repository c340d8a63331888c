package dev.tributary.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The node's option table: sizes in the shared grammar, the help it writes, and the builder it fills. */
@Timeout(30)
class NodeOptionsTest {
    @Test
    @DisplayName("byte options take plain bytes as before, or a size with its unit")
    void sizes() {
        NodeConfig c = NodeConfig.parse(new String[] {"--queue-buffer-bytes", "8MiB", "--redo-segment-bytes=1GB",
            "--memtable-bytes", "65536", "--max-disk-bytes", "10GiB", "--max-value-bytes", "1MiB"});
        assertEquals(8L << 20, c.queueBufferBytes());
        assertEquals(1_000_000_000L, c.redoSegmentBytes());
        assertEquals(65_536, c.memtableBytes());
        assertEquals(10L << 30, c.maxDiskBytes());
        assertEquals(1 << 20, c.maxValueBytes());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> NodeConfig.parse(new String[] {"--memtable-bytes", "lots"}));
        assertEquals("--memtable-bytes wants a size such as 65536, 64KiB, 16MiB or 1GB, got 'lots'", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> NodeConfig.parse(new String[] {"--max-value-bytes", "4GiB"}));
        assertTrue(e.getMessage().startsWith("--max-value-bytes must be between 1 and"), e.getMessage());
    }

    @Test
    @DisplayName("--help is written from the table: every option with its argument, meaning and default")
    void helpListsEveryOption() {
        String help = NodeOptions.usage();
        assertTrue(help.startsWith("usage: tributary node [options]"), help);
        for (String[] o : NodeConfig.OPTIONS) {
            assertTrue(help.contains("--" + o[0] + (o[1].isEmpty() ? "" : " " + o[1])), o[0] + " missing from\n" + help);
        }
        assertTrue(help.contains("Default: 60s") && help.contains("Default: ./data/node"), help);
        assertFalse(help.contains("--restricted <"), help);
        assertEquals(0, NodeMain.run(new String[] {"--help"}));
    }

    @Test
    @DisplayName("flags in a config file: restricted=true, force-logging=false; an unknown key or a second --config is refused")
    void configFileFlags(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("n.properties"), "restricted=true\nforce-logging=false\nmax-write-skew=5s\n");
        NodeConfig c = NodeConfig.parse(new String[] {"--config", file.toString()});
        assertTrue(c.restricted());
        assertFalse(c.forceLogging());
        assertEquals(Duration.ofSeconds(5), c.maxWriteSkew());
        assertFalse(NodeConfig.parse(new String[] {"--config", file.toString(), "--restricted=false"}).restricted(),
                "the command line wins");
        Path nested = Files.writeString(dir.resolve("nested.properties"), "config=" + file + "\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> NodeConfig.parse(new String[] {"--config", nested.toString()}));
        assertTrue(e.getMessage().contains("--config cannot be set in config file"), e.getMessage());
    }

    @Test
    @DisplayName("the builder starts from the table's defaults, derives without copying every component, and checks as the record does")
    void builder(@TempDir Path dir) {
        NodeConfig base = NodeConfig.parse(new String[] {"--ring-delay", "3s", "--native-listen", "127.0.0.1:19042"});
        assertEquals(NodeConfig.defaults(), NodeConfig.builder().build());
        NodeConfig guest = base.forGuestInstance(dir);
        assertEquals(dir, guest.dataDir());
        assertEquals(0, guest.listenPort());
        assertEquals(0, guest.nativePort());
        assertEquals(base.ringDelay(), guest.ringDelay());
        assertEquals(base.toBuilder().dataDir(dir).listenPort(0).nativePort(0).build(), guest);
        assertNotEquals(base, guest);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> base.toBuilder().numTokens(0).build());
        assertTrue(e.getMessage().contains("--num-tokens"), e.getMessage());
    }
}
