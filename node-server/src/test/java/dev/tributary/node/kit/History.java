package dev.tributary.node.kit;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Jepsen's history, written small: every client write of a unique key is recorded when it is
 * invoked and when it completes, with its outcome — {@link Outcome#OK} (acknowledged),
 * {@link Outcome#FAIL} (definitely not applied: the server refused it before it could take effect,
 * or it never left the client) or {@link Outcome#INFO} (unknown: it may or may not have been
 * applied, e.g. a timeout or a connection lost after the request was sent). A write still pending
 * when the history is checked counts as unknown.
 *
 * <p>The checks compare key sets, never counts, so a missing key can never be offset by an extra
 * one: every acknowledged key is present, no refused key is present, no key nobody wrote is
 * present, and unknown outcomes stay under a bound the test states. {@link DeliveryChecker} adds
 * what a consumer was handed. Thread-safe: writer threads record while a checker reads.
 */
public final class History {
    /** How a write ended, in Jepsen's words. */
    public enum Outcome {
        /** Acknowledged: must be visible. */
        OK,
        /** Definitely not applied: must never be visible. */
        FAIL,
        /** Unknown: may be visible, at most once. */
        INFO
    }

    /** One operation: which writer ({@code process}), its key, when it was invoked and completed, how it ended and why. */
    public record Op(int process, int key, long invokedNanos, long completedNanos, Outcome outcome, String error) {
    }

    /**
     * The gRPC codes a node answers only for a request it refused before applying anything
     * (ErrorMapping: a bad statement, an unknown object, no CDC stream for the time, a value too
     * large, the disk full — a RocksDB batch is atomic, so a failed one left nothing — and the
     * security refusals). UNAVAILABLE, DEADLINE_EXCEEDED, CANCELLED, INTERNAL, UNKNOWN and the rest
     * may come after the write took effect.
     */
    private static final Set<Status.Code> DEFINITE = EnumSet.of(Status.Code.INVALID_ARGUMENT, Status.Code.NOT_FOUND,
            Status.Code.ALREADY_EXISTS, Status.Code.FAILED_PRECONDITION, Status.Code.RESOURCE_EXHAUSTED,
            Status.Code.UNAUTHENTICATED, Status.Code.PERMISSION_DENIED);

    /** The SDK's reason codes (the {@code tributary-error-code} trailer) that mean the same. */
    private static final Set<String> DEFINITE_REASONS = Set.of("SYNTAX_ERROR", "INVALID_REQUEST", "NOT_FOUND",
            "ALREADY_EXISTS", "NO_CDC_STREAM", "FENCED", "WRITE_TIMESTAMP_OUT_OF_RANGE", "VALUE_TOO_LARGE", "DISK_FULL",
            "UNAUTHENTICATED", "PERMISSION_DENIED", "INVALID_ARGUMENT", "FAILED_PRECONDITION", "RESOURCE_EXHAUSTED");

    private final Map<Integer, long[]> pending = new ConcurrentHashMap<>();
    private final List<Op> ops = Collections.synchronizedList(new ArrayList<>());
    private final Set<Integer> ok = ConcurrentHashMap.newKeySet();
    private final Set<Integer> fail = ConcurrentHashMap.newKeySet();
    private final Set<Integer> info = ConcurrentHashMap.newKeySet();

    /** Records that writer {@code process} is about to send the write of {@code key}. */
    public void invoke(int process, int key) {
        if (pending.putIfAbsent(key, new long[] {process, System.nanoTime()}) != null || ok.contains(key)
                || fail.contains(key) || info.contains(key)) {
            throw new IllegalStateException("key " + key + " written twice: a history needs unique keys");
        }
    }

    /** Records that the write of {@code key} was acknowledged. */
    public void ok(int key) {
        complete(key, Outcome.OK, null);
        ok.add(key);
    }

    /** Records that the write of {@code key} failed with {@code e}; returns how {@link #classify} judged it. */
    public Outcome failed(int key, Throwable e) {
        Outcome o = classify(e);
        complete(key, o, e.toString());
        (o == Outcome.FAIL ? fail : info).add(key);
        return o;
    }

    private void complete(int key, Outcome outcome, String error) {
        long[] p = pending.remove(key);
        if (p == null) {
            throw new IllegalStateException("key " + key + " completed but never invoked");
        }
        ops.add(new Op((int) p[0], key, p[1], System.nanoTime(), outcome, error));
    }

    /**
     * Whether a failure definitely left nothing applied. Through the raw wire: a status in
     * {@link #DEFINITE}, a status the node marked not applied (the {@code tributary-not-applied}
     * trailer of a check made before the commit, such as a replication factor the node cannot
     * meet yet), or UNAVAILABLE because the connection was refused (the request never left).
     * Through the SDK: its reason code; the SDK retries a write only after an UNAVAILABLE, with the
     * same idempotency key, so a node that applied the first attempt answers the retry as applied
     * rather than refusing it.
     */
    public static Outcome classify(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof dev.tributary.client.errors.TributaryException te) {
                return DEFINITE_REASONS.contains(te.code()) ? Outcome.FAIL : Outcome.INFO;
            }
            if (t instanceof StatusRuntimeException sre) {
                String reason = sre.getTrailers() == null ? null
                        : sre.getTrailers().get(dev.tributary.node.net.ErrorMapping.ERROR_CODE);
                if (reason != null) {
                    return DEFINITE_REASONS.contains(reason)
                            || "true".equals(sre.getTrailers().get(dev.tributary.node.net.ErrorMapping.NOT_APPLIED))
                            ? Outcome.FAIL : Outcome.INFO;
                }
                if (DEFINITE.contains(sre.getStatus().getCode())) {
                    return Outcome.FAIL;
                }
                return sre.getStatus().getCode() == Status.Code.UNAVAILABLE && connectionRefused(sre) ? Outcome.FAIL
                        : Outcome.INFO;
            }
        }
        return Outcome.INFO;
    }

    private static boolean connectionRefused(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.net.ConnectException) {
                return true;
            }
        }
        return false;
    }

    /** Acknowledged keys (a live view). */
    public Set<Integer> ok() {
        return Collections.unmodifiableSet(ok);
    }

    /** Keys definitely refused (a live view). */
    public Set<Integer> refused() {
        return Collections.unmodifiableSet(fail);
    }

    /** Keys whose outcome is unknown: failed ambiguously, or still pending (a copy). */
    public Set<Integer> unknown() {
        Set<Integer> out = new TreeSet<>(info);
        out.addAll(pending.keySet());
        return out;
    }

    /** Keys of writer {@code process} whose outcome is unknown: failed ambiguously, or still pending (a copy). */
    public Set<Integer> unknown(int process) {
        Set<Integer> out = new TreeSet<>();
        for (Op o : ops()) {
            if (o.process() == process && o.outcome() == Outcome.INFO) {
                out.add(o.key());
            }
        }
        pending.forEach((k, p) -> {
            if (p[0] == process) {
                out.add(k);
            }
        });
        return out;
    }

    /** Every completed operation, in completion order (a copy). */
    public List<Op> ops() {
        synchronized (ops) {
            return new ArrayList<>(ops);
        }
    }

    /** Whether {@code key} was ever invoked. */
    public boolean written(int key) {
        return ok.contains(key) || fail.contains(key) || info.contains(key) || pending.containsKey(key);
    }

    /**
     * What is wrong with a read of the keys visible (e.g. {@code SELECT pk} of the whole table, or
     * one replica's): acknowledged keys missing, refused keys present, keys nobody wrote. Keys
     * outside the history ({@code ignore}, e.g. a test's marker row) are skipped.
     */
    public List<String> readProblems(String what, Collection<Integer> visible, Set<Integer> ignore) {
        List<String> out = new ArrayList<>();
        Set<Integer> seen = new TreeSet<>(visible);
        TreeSet<Integer> missing = new TreeSet<>(ok);
        missing.removeAll(seen);
        if (!missing.isEmpty()) {
            out.add(what + ": " + missing.size() + " acknowledged writes missing, e.g. " + first(missing));
        }
        TreeSet<Integer> refusedSeen = new TreeSet<>(fail);
        refusedSeen.retainAll(seen);
        if (!refusedSeen.isEmpty()) {
            out.add(what + ": " + refusedSeen.size() + " definitely refused writes visible, e.g. " + first(refusedSeen)
                    + " (" + whyFailed(refusedSeen.first()) + ")");
        }
        TreeSet<Integer> phantom = new TreeSet<>();
        for (int k : seen) {
            if (!written(k) && !ignore.contains(k)) {
                phantom.add(k);
            }
        }
        if (!phantom.isEmpty()) {
            out.add(what + ": " + phantom.size() + " keys no write produced, e.g. " + first(phantom));
        }
        if (visible.size() != seen.size()) {
            out.add(what + ": " + (visible.size() - seen.size()) + " keys read more than once");
        }
        return out;
    }

    /** Fails with {@link #readProblems}. */
    public void verifyRead(String what, Collection<Integer> visible, Set<Integer> ignore) {
        List<String> p = readProblems(what, visible, ignore);
        if (!p.isEmpty()) {
            throw new AssertionError(String.join("\n", p) + "\n" + summary());
        }
    }

    /** Fails when more than {@code bound} writes ended (or stayed) unknown: a fault must not make every outcome a guess. */
    public void verifyUnknownAtMost(int bound) {
        Set<Integer> u = unknown();
        if (u.size() > bound) {
            throw new AssertionError(u.size() + " writes of unknown outcome, more than the " + bound + " allowed, e.g. "
                    + first(new TreeSet<>(u)) + " (" + whyFailed(u.iterator().next()) + ")\n" + summary());
        }
    }

    /** Why {@code key}'s write failed, from the history. */
    public String whyFailed(int key) {
        synchronized (ops) {
            for (Op o : ops) {
                if (o.key() == key) {
                    return o.outcome() + " after " + (o.completedNanos() - o.invokedNanos()) / 1_000_000 + " ms: " + o.error();
                }
            }
        }
        return pending.containsKey(key) ? "still pending" : "never written";
    }

    /** One line of counts, for the test's output. */
    public String summary() {
        return "history: " + ok.size() + " ok, " + fail.size() + " refused, " + info.size() + " unknown, " + pending.size()
                + " pending";
    }

    /** The int keys a query returns through the SDK (e.g. {@code SELECT pk FROM ks.t}), repeats kept. */
    public static List<Integer> keys(dev.tributary.client.TributaryClient client, String query) {
        List<Integer> out = new ArrayList<>();
        for (dev.tributary.client.Row r : client.execute(query)) {
            out.add(r.getInt(0));
        }
        return out;
    }

    /**
     * The {@code pk} of every row of {@code table} (an int partition key {@code pk}), repeats kept,
     * read {@code partitionsPerRead} partitions at a time: a node answers at most 100,000 rows a
     * query, which a long run's table passes.
     */
    public static List<Integer> partitionKeysOfRows(dev.tributary.client.TributaryClient client, String table,
            int partitionsPerRead) {
        List<Integer> partitions = keys(client, "SELECT DISTINCT pk FROM " + table);
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < partitions.size(); i += partitionsPerRead) {
            String in = partitions.subList(i, Math.min(partitions.size(), i + partitionsPerRead)).stream()
                    .map(String::valueOf).collect(java.util.stream.Collectors.joining(", "));
            out.addAll(keys(client, "SELECT pk FROM " + table + " WHERE pk IN (" + in + ")"));
        }
        return out;
    }

    /** The int keys a query returns through the raw wire, repeats kept. */
    public static List<Integer> keys(dev.tributary.node.TestNodes.Wire w, String query) {
        List<Integer> out = new ArrayList<>();
        for (dev.tributary.protocol.v1.Row r : w.exec(query).getRowsList()) {
            out.add((int) r.getValues(0).getInteger());
        }
        return out;
    }

    private static List<Integer> first(TreeSet<Integer> s) {
        return s.stream().limit(20).toList();
    }
}
