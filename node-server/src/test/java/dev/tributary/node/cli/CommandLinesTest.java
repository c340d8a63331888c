package dev.tributary.node.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Timeout(10)
class CommandLinesTest {
    /** A small option table with one option of each shared kind. */
    @Command(name = "tributary demo", synopsisHeading = "usage: ")
    static final class Demo {
        @Option(names = "--wait", paramLabel = "DURATION", defaultValue = "3s", description = "how long")
        Duration wait;
        @Option(names = "--buffer", paramLabel = "SIZE", defaultValue = "64KiB", converter = SizeConverter.class,
                description = "how much")
        long buffer;
        @Option(names = "--count", paramLabel = "N", defaultValue = "1", description = "how many")
        int count;
        @Option(names = "--json", arity = "0..1", fallbackValue = "true", converter = FlagConverter.class, description = "as JSON")
        boolean json;
        @Option(names = "--password", paramLabel = "P", description = "a secret")
        String password;
    }

    private static Demo parse(String... args) {
        Demo d = new Demo();
        CommandLines.parse(CommandLines.of(d), List.of(args));
        return d;
    }

    private static String error(String... args) {
        return assertThrows(IllegalArgumentException.class, () -> parse(args)).getMessage();
    }

    @Test
    @DisplayName("defaults and both --name VALUE and --name=VALUE; the last of a repeated option wins")
    void parses() {
        Demo d = parse();
        assertEquals(Duration.ofSeconds(3), d.wait);
        assertEquals(65_536, d.buffer);
        assertFalse(d.json);
        d = parse("--wait", "1.5s", "--buffer=1MiB", "--count", "2", "--count", "3", "--json");
        assertEquals(Duration.ofMillis(1500), d.wait);
        assertEquals(1L << 20, d.buffer);
        assertEquals(3, d.count);
        assertTrue(d.json);
        assertFalse(parse("--json=false").json);
        assertEquals("@file", parse("--password", "@file").password, "no @file expansion");
    }

    @Test
    @DisplayName("every error names the option and what it wanted, and never echoes a value after an unknown option's =")
    void errorsNameTheOption() {
        assertEquals("--wait wants a duration such as 500ms, 3s or 1m, got 'soon'", error("--wait", "soon"));
        assertEquals("--buffer wants a size such as 65536, 64KiB, 16MiB or 1GB, got 'big'", error("--buffer=big"));
        assertEquals("--count wants a whole number, got 'two'", error("--count", "two"));
        assertEquals("--json takes no value (or =true/=false), got 'yes'", error("--json=yes"));
        assertEquals("--wait needs a value", error("--wait"));
        assertEquals("unknown option '--pasword'", error("--pasword=s3cret"));
        assertEquals("unexpected argument 'stray'", error("stray"));
    }

    @Test
    @DisplayName("help is generated from the table, options written --name VALUE, flags bare")
    void help() {
        String help = CommandLines.usage(CommandLines.of(new Demo()));
        assertTrue(help.startsWith("usage: tributary demo"), help);
        assertTrue(help.contains("--wait DURATION") && help.contains("--buffer SIZE") && help.contains("--password P"), help);
        assertTrue(help.contains("how long") && help.contains("how much"), help);
        assertFalse(help.contains("--json=") || help.contains("--json <"), help);
    }
}
