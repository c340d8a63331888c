package dev.tributary.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * Memory figures of a process from Linux's {@code /proc/<pid>/status}: {@code VmHWM} (peak
 * resident set) and {@code VmRSS}. Stateless; where the file or the line is missing (not Linux,
 * the process ended) the value is empty rather than an error, since the run's other figures
 * still stand.
 */
public final class ProcStatus {
    private ProcStatus() {
    }

    /** The status file of this JVM. */
    public static Path self() {
        return Path.of("/proc/self/status");
    }

    public static Path of(long pid) {
        return Path.of("/proc/" + pid + "/status");
    }

    /** Peak RSS in kB. */
    public static OptionalLong peakRssKb(Path status) {
        return field(status, "VmHWM:");
    }

    /** Current RSS in kB. */
    public static OptionalLong rssKb(Path status) {
        return field(status, "VmRSS:");
    }

    static OptionalLong field(Path status, String name) {
        String text;
        try {
            text = Files.readString(status);
        } catch (IOException e) {
            return OptionalLong.empty();
        }
        return parseField(text, name);
    }

    /** The kB value of a {@code Name:   1234 kB} line. */
    static OptionalLong parseField(String statusText, String name) {
        for (String line : statusText.split("\n")) {
            if (line.startsWith(name)) {
                String rest = line.substring(name.length()).trim();
                int space = rest.indexOf(' ');
                try {
                    return OptionalLong.of(Long.parseLong(space < 0 ? rest : rest.substring(0, space)));
                } catch (NumberFormatException e) {
                    return OptionalLong.empty();
                }
            }
        }
        return OptionalLong.empty();
    }
}
