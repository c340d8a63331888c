package dev.tributary.node.processes;

import dev.tributary.node.storage.Keys;
import dev.tributary.node.storage.NodeStore;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiPredicate;
import java.util.function.Function;

/**
 * The Streams processes of one kind on an instance (its capture processes, or its apply
 * processes): their definitions, kept in the store's {@code meta} family under one prefix and in
 * memory in the order they were loaded and created, and the ones running here, each a worker on
 * a thread of its own. What differs between the kinds stays with their managers: how a name is
 * matched ({@link NameRule}), how a worker is stopped ({@link Stopper}), what a drop deletes
 * beside the definition, and how a worker is launched.
 *
 * <p>Thread-safe. No lock of the registry is held while a worker's thread is awaited, so that
 * thread may leave the running map ({@link #removeIfCurrent}) while its manager halts it.
 *
 * @param <D> the definition
 * @param <W> the worker that runs it
 */
public final class ProcessRegistry<D extends ProcessDefinition, W> implements AutoCloseable {
    private final NodeStore store;
    private final String prefix;
    private final NameRule names;
    private final Stopper<W> stopper;
    /** Guarded by itself. */
    private final Map<String, D> definitions = new LinkedHashMap<>();
    /** Atomic per call, and in launch order; iterated only while holding it. */
    private final Map<String, Running<W>> running = Collections.synchronizedMap(new LinkedHashMap<>());

    /** How a process is named in a procedure call matches the name it is stored under. */
    @FunctionalInterface
    public interface NameRule extends BiPredicate<String, String> {
        /** Whether {@code asked} names the process stored as {@code stored}. */
        @Override
        boolean test(String stored, String asked);
    }

    /**
     * Stops a worker and waits for its thread, as its kind allows; may block. Called without any
     * lock of the registry.
     */
    @FunctionalInterface
    public interface Stopper<W> {
        void stop(W worker, Thread thread) throws InterruptedException;
    }

    /** A process running here: its worker, its thread, and the parallelism it was launched with. */
    public record Running<W>(W worker, Thread thread, int parallelism) {
    }

    /** A process with its worker while it runs here, null when it does not: one row of its status table. */
    public record Listed<D, W>(D definition, W worker) {
    }

    /**
     * Loads the definitions stored under {@code prefix} (key order).
     *
     * @param prefix the {@code meta} prefix, the stored name follows it
     */
    public ProcessRegistry(NodeStore store, String prefix, Function<byte[], D> decode, NameRule names, Stopper<W> stopper) {
        this.store = store;
        this.prefix = prefix;
        this.names = names;
        this.stopper = stopper;
        store.scanMeta(prefix, (name, v) -> {
            D d = decode.apply(v);
            definitions.put(d.name(), d);
        });
    }

    /** The {@code meta} key of a process's definition, for a kind's drop that deletes more in one batch. */
    public byte[] key(String storedName) {
        return Keys.meta(prefix + storedName);
    }

    /** The process {@code name} names under the kind's name rule. */
    public Optional<D> find(String name) {
        synchronized (definitions) {
            D stored = definitions.get(name);
            if (stored != null && names.test(stored.name(), name)) {
                return Optional.of(stored); // the stored name itself: what a worker and the views ask by
            }
            return definitions.values().stream().filter(d -> names.test(d.name(), name)).findFirst();
        }
    }

    /** Every definition, in order. */
    public List<D> definitions() {
        synchronized (definitions) {
            return new ArrayList<>(definitions.values());
        }
    }

    /** Stores a new or changed definition (synced), then keeps it. */
    public void save(D d) {
        store.put(NodeStore.Family.META, key(d.name()), d.encode(), true);
        synchronized (definitions) {
            definitions.put(d.name(), d);
        }
    }

    /** Forgets a dropped process; its kind deleted what it stored. */
    public void forget(String storedName) {
        synchronized (definitions) {
            definitions.remove(storedName);
        }
    }

    /** The ENABLED processes that do not run here: what starts at node start or when a restriction ends. */
    public List<D> enabledNotRunning() {
        List<D> out = new ArrayList<>();
        for (D d : definitions()) {
            if (d.status().runs() && !running.containsKey(d.name())) {
                out.add(d);
            }
        }
        return out;
    }

    /** Each process with its worker if it runs here. */
    public List<Listed<D, W>> list() {
        List<Listed<D, W>> out = new ArrayList<>();
        for (D d : definitions()) {
            out.add(new Listed<>(d, worker(d.name()).orElse(null)));
        }
        return out;
    }

    public boolean isRunning(String storedName) {
        return running.containsKey(storedName);
    }

    /** The worker of a process running here. */
    public Optional<W> worker(String storedName) {
        return Optional.ofNullable(running.get(storedName)).map(Running::worker);
    }

    /** Records a launched worker, whose thread the caller starts. */
    public void launched(String storedName, W worker, Thread thread, int parallelism) {
        running.put(storedName, new Running<>(worker, thread, parallelism));
    }

    /** Whether {@code worker} is the one running for the process (not one halted or replaced since). */
    public boolean isCurrent(String storedName, W worker) {
        Running<W> r = running.get(storedName);
        return r != null && r.worker() == worker;
    }

    /**
     * For a worker's own thread as it ends: takes it out of the running map if it is still the
     * process's current worker; false when it was halted (or replaced) on purpose.
     */
    public boolean removeIfCurrent(String storedName, W worker) {
        synchronized (running) {
            if (!isCurrent(storedName, worker)) {
                return false;
            }
            running.remove(storedName);
            return true;
        }
    }

    /** Takes a worker that already ended out of the running map, without stopping it. */
    public void removeEnded(String storedName) {
        running.remove(storedName);
    }

    /** The parallelism of the workers running here, summed. */
    public int runningParallelism() {
        synchronized (running) {
            return running.values().stream().mapToInt(Running::parallelism).sum();
        }
    }

    /** Stops a running process's worker and waits for its thread, as the kind's {@link Stopper} does; no-op when it does not run. */
    public void halt(String storedName) {
        Running<W> r = running.remove(storedName);
        if (r == null) {
            return;
        }
        try {
            stopper.stop(r.worker(), r.thread());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Halts every running process, in launch order. */
    @Override
    public void close() {
        List<String> names;
        synchronized (running) {
            names = new ArrayList<>(running.keySet());
        }
        names.forEach(this::halt);
    }
}
