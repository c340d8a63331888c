package dev.tributary.node.processes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tributary.capture.ProcessStatus;
import dev.tributary.node.storage.NodeStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The registry capture and apply processes share, on a real store. */
@Timeout(30)
class ProcessRegistryTest {
    private final List<String> stopped = new ArrayList<>();
    private NodeStore store;

    /** A process definition as small as the registry allows: a name and a status, stored as "STATUS name". */
    record Definition(String name, ProcessStatus status) implements ProcessDefinition {
        @Override
        public byte[] encode() {
            return (status + " " + name).getBytes(StandardCharsets.UTF_8);
        }

        static Definition decode(byte[] b) {
            String[] parts = new String(b, StandardCharsets.UTF_8).split(" ", 2);
            return new Definition(parts[1], ProcessStatus.valueOf(parts[0]));
        }
    }

    /** A worker that ends when stopped. */
    static final class Worker implements Runnable {
        final String name;
        final CountDownLatch stop = new CountDownLatch(1);

        Worker(String name) {
            this.name = name;
        }

        @Override
        public void run() {
            try {
                stop.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @BeforeEach
    void openStore(@TempDir Path dir) {
        store = NodeStore.open(dir);
    }

    @AfterEach
    void closeStore() {
        store.close();
    }

    private ProcessRegistry<Definition, Worker> registry(ProcessRegistry.NameRule names) {
        return new ProcessRegistry<>(store, "proc/", Definition::decode, names, (w, t) -> {
            stopped.add(w.name);
            w.stop.countDown();
            t.join();
        });
    }

    private static ProcessRegistry.NameRule lowercase() {
        return (stored, asked) -> stored.equals(asked.toLowerCase(Locale.ROOT));
    }

    private Thread launch(ProcessRegistry<Definition, Worker> r, String name, int parallelism) {
        Worker w = new Worker(name);
        Thread t = new Thread(w, "worker-" + name);
        r.launched(name, w, t, parallelism);
        t.start();
        return t;
    }

    @Test
    @DisplayName("definitions are stored under the prefix and load back in key order; each kind's name rule finds them")
    void definitionsPersistAndFollowTheNameRule() {
        ProcessRegistry<Definition, Worker> r = registry(String::equalsIgnoreCase);
        r.save(new Definition("Orders", ProcessStatus.DISABLED));
        r.save(new Definition("audit", ProcessStatus.ENABLED));
        r.save(new Definition("Orders", ProcessStatus.ENABLED)); // a change replaces, in place
        assertEquals(List.of("Orders", "audit"), r.definitions().stream().map(Definition::name).toList());
        assertEquals(Optional.of(new Definition("Orders", ProcessStatus.ENABLED)), r.find("ORDERS"));

        ProcessRegistry<Definition, Worker> reloaded = registry(lowercase());
        assertEquals(List.of(new Definition("Orders", ProcessStatus.ENABLED), new Definition("audit", ProcessStatus.ENABLED)),
                reloaded.definitions());
        assertEquals(Optional.empty(), reloaded.find("orders")); // lowercase folding finds no mixed-case name
        assertEquals("audit", reloaded.find("AUDIT").orElseThrow().name());

        reloaded.forget("audit");
        assertEquals(Optional.empty(), reloaded.find("audit"));
        assertEquals("proc/audit", new String(reloaded.key("audit"), StandardCharsets.UTF_8));
    }

    @Test
    @DisplayName("what starts is the enabled processes that do not run; the status rows carry the running worker")
    void enabledNotRunningAndListedRows() throws Exception {
        ProcessRegistry<Definition, Worker> r = registry(lowercase());
        r.save(new Definition("a", ProcessStatus.ENABLED));
        r.save(new Definition("b", ProcessStatus.ENABLED));
        r.save(new Definition("c", ProcessStatus.DISABLED));
        r.save(new Definition("d", ProcessStatus.ABORTED));
        launch(r, "a", 3);
        assertEquals(List.of("b"), r.enabledNotRunning().stream().map(Definition::name).toList());
        List<ProcessRegistry.Listed<Definition, Worker>> rows = r.list();
        assertEquals(4, rows.size());
        assertEquals("a", rows.get(0).worker().name);
        assertTrue(rows.subList(1, 4).stream().allMatch(row -> row.worker() == null));
        assertEquals(3, r.runningParallelism());
        r.close();
        assertEquals(0, r.runningParallelism());
    }

    @Test
    @DisplayName("a worker's thread that ends on its own leaves the running map once; one halted on purpose finds itself gone")
    void removeIfCurrentTellsAnEndFromAHalt() throws Exception {
        ProcessRegistry<Definition, Worker> r = registry(lowercase());
        launch(r, "a", 1);
        Worker first = r.worker("a").orElseThrow();
        assertTrue(r.isCurrent("a", first));
        assertTrue(r.removeIfCurrent("a", first));
        assertFalse(r.removeIfCurrent("a", first));
        assertFalse(r.isRunning("a"));
        first.stop.countDown();

        AtomicBoolean removedByItself = new AtomicBoolean(true);
        Worker second = new Worker("a");
        // the thread reports its end while halt waits for it: halt must hold no lock it needs
        Thread t = new Thread(() -> {
            second.run();
            removedByItself.set(r.removeIfCurrent("a", second));
        });
        r.launched("a", second, t, 1);
        t.start();
        r.halt("a");
        assertFalse(t.isAlive());
        assertFalse(removedByItself.get());
        assertEquals(List.of("a"), stopped);
    }

    @Test
    @DisplayName("close halts every running process in launch order; removeEnded forgets a worker without stopping it")
    void closeHaltsInLaunchOrder() throws Exception {
        ProcessRegistry<Definition, Worker> r = registry(lowercase());
        launch(r, "z", 1);
        launch(r, "m", 1);
        Thread ended = launch(r, "a", 1);
        Worker a = r.worker("a").orElseThrow();
        a.stop.countDown();
        ended.join();
        r.removeEnded("a");
        r.close();
        assertEquals(List.of("z", "m"), stopped);
        assertFalse(r.isRunning("z"));
    }
}
