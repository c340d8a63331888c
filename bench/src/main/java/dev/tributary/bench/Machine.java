package dev.tributary.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The machine a run measured: processors, memory (from {@code /proc/meminfo}, 0 where it cannot
 * be read), Java version and VM, maximum heap. Immutable.
 */
public record Machine(int processors, long memTotalMb, String java, String vm, long maxHeapMb) {
    public static Machine current() {
        long mem = 0;
        try {
            OptionalLong kb = ProcStatus.parseField(Files.readString(Path.of("/proc/meminfo")), "MemTotal:");
            mem = kb.isPresent() ? kb.getAsLong() / 1024 : 0;
        } catch (IOException e) {
            mem = 0;
        }
        return new Machine(Runtime.getRuntime().availableProcessors(), mem, System.getProperty("java.version"),
                System.getProperty("java.vm.name"), Runtime.getRuntime().maxMemory() / (1024 * 1024));
    }

    Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("nproc", processors);
        m.put("mem_total_mb", memTotalMb);
        m.put("java", java);
        m.put("vm", vm);
        m.put("max_heap_mb", maxHeapMb);
        return m;
    }

    @Override
    public String toString() {
        return processors + " cores, " + memTotalMb + " MB RAM, Java " + java + " (" + vm + "), max heap " + maxHeapMb + " MB";
    }
}
