package dev.tributary.node.apply;

import com.google.common.collect.Iterators;
import dev.tributary.capture.ProcessStatus;
import dev.tributary.capture.apply.ApplyErrorException;
import dev.tributary.capture.apply.ApplyPolicy;
import dev.tributary.capture.apply.ApplySource;
import dev.tributary.capture.apply.ApplyWorker;
import dev.tributary.capture.apply.ConflictHandler;
import dev.tributary.capture.apply.ConflictMethod;
import dev.tributary.capture.apply.DestinationUnavailableException;
import dev.tributary.capture.apply.IgnoredDdl;
import dev.tributary.capture.apply.Instantiations;
import dev.tributary.capture.apply.TransactionKeys;
import dev.tributary.dictionary.io.BinaryReader;
import dev.tributary.dictionary.io.BinaryWriter;
import dev.tributary.dictionary.io.CorruptRecordException;
import dev.tributary.node.capture.CaptureProcesses;
import dev.tributary.node.capture.RocksDbCdcLog;
import dev.tributary.node.coord.TransportSettings;
import dev.tributary.node.errors.ErrorCode;
import dev.tributary.node.errors.InvalidRequestException;
import dev.tributary.node.processes.ProcessRegistry;
import dev.tributary.node.progress.RunningOperations;
import dev.tributary.node.storage.Keys;
import dev.tributary.node.storage.NodeStore;
import dev.tributary.node.transport.LinkCalls;
import io.grpc.Channel;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The apply processes of an instance (Oracle's apply, docs/REFERENCE.md {@code dbms_apply_adm}):
 * each reads one of this instance's queues in commit order and applies whole transactions to the
 * destination its database link names. Definitions, instantiation SCNs and update conflict
 * handlers are kept in {@code meta} ({@code apply/<name>}, {@code applyinst/...},
 * {@code applyconf/...}), so with replication they move with the instance and its queue, and
 * ENABLED applies start again wherever the instance runs. Each running apply is an
 * {@link ApplyWorker} on its own thread.
 */
public final class ApplyProcesses implements AutoCloseable {
    private static final String DEFINITION = "apply/";
    private static final String TABLE_SCN = "applyinst/t/";
    private static final String SCHEMA_SCN = "applyinst/s/";
    private static final String HANDLER = "applyconf/";
    /** {@code applyddl/<apply>/} + SCN + transaction id: the DDL LCRs an apply ignored. */
    private static final String IGNORED_DDL = "applyddl/";
    private static final Logger LOG = LoggerFactory.getLogger(ApplyProcesses.class);
    private static final long STOP_WAIT_MILLIS = 10_000;
    /** Each apply server holds a destination connection: a bound that a PostgreSQL's max_connections takes. */
    static final int MAX_PARALLELISM = 32;

    private final NodeStore store;
    private final RocksDbCdcLog log;
    private final CaptureProcesses captures;
    private final Function<String, Optional<TransportSettings.Link>> links;
    private final Snapshots snapshots;
    private final LinkCalls calls;
    /** The primary keys of source tables, for the apply servers' dependencies. */
    private final TransactionKeys.KeyColumns keyColumns;
    /** This node's own CQL service as a trusted caller, for applies into this cluster. */
    private final Supplier<Channel> self;
    /**
     * Definitions and running workers; a worker's thread leaves the running map without the lock
     * that {@link #halt} holds while it waits for the thread.
     */
    private final ProcessRegistry<ApplyDefinition, ApplyWorker> processes;
    /** Instantiation SCNs by link ("" for this cluster), then by {@link Instantiations} key. */
    private final Map<String, Map<String, Long>> tableScns = new TreeMap<>();
    private final Map<String, Map<String, Long>> schemaScns = new TreeMap<>();
    private final Map<String, ConflictHandler> handlers = new TreeMap<>();
    /** Each link's policy, rebuilt on every change: workers read it for each transaction without the lock. */
    private volatile Map<String, ApplyPolicy> policies = Map.of();
    /** Notified on every append to a queue: a waiting apply reads again. */
    private final Object appended = new Object();

    /** One row of DBA_APPLY_INSTANTIATED_OBJECTS (a table) or _SCHEMAS (object name null). */
    public record Instantiated(String sourceDatabase, String owner, String name, long scn, String databaseLink) {
    }

    /** Times each apply aborted since this instance started (its metrics' tributary_apply_aborts_total). */
    private final Map<String, AtomicLong> aborts = new ConcurrentHashMap<>();

    /** How many times apply {@code name} aborted since this instance started. */
    public long aborts(String name) {
        AtomicLong n = aborts.get(name);
        return n == null ? 0 : n.get();
    }

    /** Takes a table's snapshot for instantiate_table: {@link TableSnapshot#take} on this node's store. */
    @FunctionalInterface
    public interface Snapshots {
        TableSnapshot take(String owner, String table);
    }

    /** Where instantiate_table's copy shows how far it is (system_views.operations and the log). */
    private final RunningOperations operations;

    public ApplyProcesses(NodeStore store, RocksDbCdcLog log, CaptureProcesses captures,
            Function<String, Optional<TransportSettings.Link>> links, LinkCalls calls,
            Snapshots snapshots, TransactionKeys.KeyColumns keyColumns, Supplier<Channel> self,
            RunningOperations operations) {
        this.self = self;
        this.operations = operations;
        this.keyColumns = keyColumns;
        this.calls = calls;
        this.snapshots = snapshots;
        this.store = store;
        this.log = log;
        this.captures = captures;
        this.links = links;
        // names are kept lowercase, as create_apply folds them
        this.processes = new ProcessRegistry<>(store, DEFINITION, ApplyDefinition::decode,
                (stored, asked) -> stored.equals(asked.toLowerCase(Locale.ROOT)), (worker, thread) -> {
                    worker.stop();
                    thread.join(STOP_WAIT_MILLIS);
                    if (thread.isAlive()) {
                        thread.interrupt();
                        thread.join();
                    }
                });
        store.scanMeta(TABLE_SCN, (k, v) -> scnEntry(tableScns, k, v));
        store.scanMeta(SCHEMA_SCN, (k, v) -> scnEntry(schemaScns, k, v));
        store.scanMeta(HANDLER, (k, v) -> handlers.put(k, decodeHandler(v)));
        refreshPolicies();
        log.addAppendListener((logId, stream) -> {
            if (logId >= CaptureProcesses.QUEUE_ID_BASE) {
                synchronized (appended) {
                    appended.notifyAll();
                }
            }
        });
    }

    private static void scnEntry(Map<String, Map<String, Long>> into, String key, byte[] v) {
        int slash = key.indexOf('/');
        into.computeIfAbsent(key.substring(0, slash), l -> new TreeMap<>()).put(key.substring(slash + 1), Keys.scnOf(v));
    }

    /** Starts the ENABLED applies: at node start, or where the instance moved to. */
    public synchronized void startEnabled() {
        for (ApplyDefinition d : processes.enabledNotRunning()) {
            launch(d);
        }
    }

    /**
     * Keeps a DDL LCR an apply ignored, with the reason, and logs it (the seed's trace file): the
     * operator reads them in {@code system_views.apply_ignored_ddl}. Keyed by apply, SCN and
     * transaction, so an LCR reported again (its transaction tried again) is kept once.
     */
    void recordIgnored(IgnoredDdl d) {
        LOG.warn("apply {} ignored a DDL LCR its destination cannot apply (SCN {}, transaction {}): {} -- {}", d.apply(), d.scn(),
                d.transactionId(), d.ddlText(), d.reason());
        byte[] key = Keys.meta(IGNORED_DDL + d.apply() + "/" + String.format("%020d", d.scn()) + "/" + d.transactionId());
        byte[] value = new BinaryWriter(128).u8(1).string(d.apply()).string(d.sourceDatabase())
                .i64(d.scn()).string(d.transactionId()).string(d.commandType()).string(d.objectOwner()).string(d.objectName())
                .string(d.ddlText()).string(d.reason()).toByteArray();
        store.put(NodeStore.Family.META, key, value, true);
    }

    /** The DDL LCRs the applies ignored, by apply and SCN. */
    public List<IgnoredDdl> ignoredDdl() {
        List<IgnoredDdl> out = new ArrayList<>();
        store.scanMeta(IGNORED_DDL, (k, v) -> {
            BinaryReader r = new BinaryReader(v);
            if (r.u8() != 1) {
                throw new CorruptRecordException("unknown ignored DDL record format");
            }
            out.add(new IgnoredDdl(r.string(), r.string(), r.i64(), r.string(), r.string(),
                    r.string(), r.string(), r.string(), r.string()));
        });
        return out;
    }

    /** Each apply process with its worker while it runs here (null when it does not). */
    public synchronized List<ProcessRegistry.Listed<ApplyDefinition, ApplyWorker>> applies() {
        return processes.list();
    }

    public synchronized ApplyDefinition create(String name, String queueName, boolean applyCaptured, String link, String user) {
        String key = name.toLowerCase(Locale.ROOT);
        if (processes.find(key).isPresent()) {
            throw new InvalidRequestException(ErrorCode.ALREADY_EXISTS, "apply process " + key + " already exists");
        }
        if (captures.queueId(queueName) == null) {
            throw new InvalidRequestException(ErrorCode.NOT_FOUND, "create_apply: queue " + queueName + " does not exist on "
                    + "this instance; an apply runs where its queue is (dbms_streams_adm.set_up_queue)");
        }
        if (!applyCaptured) {
            throw new InvalidRequestException("create_apply: apply_captured => false applies messages users enqueue, which "
                    + "Tributary's queues do not hold; an apply process applies captured LCRs (apply_captured => true)");
        }
        String linkName = null;
        if (link != null) {
            TransportSettings.Link l = links.apply(link).orElseThrow(() -> new InvalidRequestException(ErrorCode.NOT_FOUND,
                    "create_apply: database link " + link + " does not exist (CREATE DATABASE LINK)"));
            if (l.jdbc() && !l.target().startsWith("jdbc:postgresql:")) {
                throw new InvalidRequestException("create_apply: database link " + l.name() + " reaches " + l.target()
                        + "; of JDBC databases an apply process applies to PostgreSQL (a jdbc:postgresql: link)");
            }
            linkName = l.name();
        }
        ApplyDefinition d = new ApplyDefinition(key, captures.queueName(queueName).orElse(queueName), true, linkName, user,
                ProcessStatus.DISABLED, 0, null, Map.of());
        save(d);
        return d;
    }

    private ApplyDefinition require(String name) {
        return processes.find(name).orElseThrow(() -> new InvalidRequestException(ErrorCode.NOT_FOUND,
                "apply process " + name + " does not exist"));
    }

    private void save(ApplyDefinition d) {
        processes.save(d);
    }

    public synchronized void start(String name) {
        ApplyDefinition d = require(name);
        if (processes.isRunning(d.name())) {
            return;
        }
        d = d.withStatus(ProcessStatus.ENABLED);
        save(d);
        launch(d);
    }

    public synchronized void stop(String name) {
        ApplyDefinition d = require(name);
        halt(d.name());
        save(d.withStatus(ProcessStatus.DISABLED));
    }

    public synchronized void drop(String name) {
        ApplyDefinition d = require(name);
        halt(d.name());
        store.delete(NodeStore.Family.META, processes.key(d.name()), true);
        byte[] ignored = Keys.meta(IGNORED_DDL + d.name() + "/");
        store.deleteRange(NodeStore.Family.META, ignored, Keys.prefixEnd(ignored), true);
        processes.forget(d.name());
    }

    public synchronized void setParameter(String name, String parameter, String value) {
        ApplyDefinition d = require(name);
        String p = parameter.toLowerCase(Locale.ROOT);
        String v = value.trim().toUpperCase(Locale.ROOT);
        switch (p) {
            case "parallelism" -> {
                if (!v.matches("[0-9]{1,2}") || Integer.parseInt(v) < 1 || Integer.parseInt(v) > MAX_PARALLELISM) {
                    throw new InvalidRequestException("set_parameter: parallelism must be a whole number from 1 to "
                            + MAX_PARALLELISM + ", got '" + value + "'");
                }
                if (Integer.parseInt(v) > 1 && (d.databaseLink() == null
                        || links.apply(d.databaseLink()).map(l -> !l.jdbc()).orElse(false))) {
                    throw new InvalidRequestException("set_parameter: apply " + d.name() + " applies to "
                            + (d.databaseLink() == null ? "this cluster" : "the Tributary cluster of database link "
                            + d.databaseLink()) + ", one transaction at a time: a CQL batch cannot be "
                            + "conditional, so transactions applied beside each other could not be recorded exactly once "
                            + "(parallelism above 1 is for PostgreSQL destinations)");
                }
            }
            case "disable_on_error" -> {
                if (!v.equals("Y") && !v.equals("N")) {
                    throw new InvalidRequestException("set_parameter: disable_on_error is 'Y' or 'N', got '" + value + "'");
                }
            }
            case "commit_serialization" -> {
                if (!v.equals("FULL") && !v.equals("DEPENDENT_TRANSACTIONS")) {
                    throw new InvalidRequestException("set_parameter: commit_serialization is 'FULL' or "
                            + "'DEPENDENT_TRANSACTIONS', got '" + value + "'");
                }
            }
            default -> throw new InvalidRequestException("set_parameter: unknown apply parameter '" + parameter
                    + "'; the parameters are " + ApplyDefinition.DEFAULT_PARAMETERS.keySet());
        }
        d = d.withParameter(p, v);
        save(d);
        if (processes.isRunning(d.name())) {
            halt(d.name());
            launch(d);
        }
    }

    /**
     * Sets (or with a null SCN removes) the instantiation SCN of a table or, when {@code table}
     * is null, of a schema, for the destination a link names ("" for this cluster).
     */
    public synchronized void setInstantiationScn(String sourceDatabase, String owner, String table, Long scn, String link) {
        String l = link == null ? "" : link.toLowerCase(Locale.ROOT);
        String source = sourceDatabase == null ? captures.sourceDatabase() : sourceDatabase;
        if (scn != null && source.equalsIgnoreCase(captures.sourceDatabase())) {
            Long prepared = preparedScn(owner, table);
            if (prepared != null && scn < prepared) {
                // CAP-SCN-4: what committed before the prepare SCN may not be in the queue
                throw new InvalidRequestException("set_" + (table == null ? "schema" : "table") + "_instantiation_scn: "
                        + "instantiation SCN " + scn + " of " + owner + (table == null ? "" : "." + table)
                        + " is below its prepare SCN " + prepared + "; changes before the prepare SCN cannot be applied");
            }
        }
        String key = table == null ? Instantiations.schemaKey(source, owner) : Instantiations.tableKey(source, owner, table);
        Map<String, Map<String, Long>> map = table == null ? schemaScns : tableScns;
        byte[] metaKey = Keys.meta((table == null ? SCHEMA_SCN : TABLE_SCN) + l + "/" + key);
        if (scn == null) {
            store.delete(NodeStore.Family.META, metaKey, true);
            map.getOrDefault(l, new TreeMap<>()).remove(key);
        } else {
            store.put(NodeStore.Family.META, metaKey, Keys.scn(scn), true);
            map.computeIfAbsent(l, x -> new TreeMap<>()).put(key, scn);
        }
        refreshPolicies();
    }

    /** What instantiate_table did: the SCN the copy is as of, and the rows it wrote. */
    public record Instantiation(long scn, long rows) {
    }

    /**
     * dbms_streams_adm.instantiate_table: copies a consistent snapshot of a table, as of one SCN,
     * to an apply's destination (creating the table there when missing) and sets the table's
     * instantiation SCN to that SCN. The apply is held while it runs: nothing of the table that
     * commits after the SCN reaches the destination before the copy, and nothing before it after.
     */
    public synchronized Instantiation instantiateTable(String owner, String table, String applyName) {
        ApplyDefinition d = require(applyName);
        if (preparedScn(owner, table) == null) {
            throw new InvalidRequestException("instantiate_table: " + owner + "." + table + " is not prepared for "
                    + "instantiation: no capture rule covers it (dbms_streams_adm.add_table_rules or add_schema_rules), so "
                    + "its changes after the copy would not reach the queue");
        }
        if (d.databaseLink() == null) {
            throw new InvalidRequestException("instantiate_table: apply " + d.name() + " applies into this cluster, which "
                    + "holds the table already: there is nothing to copy it to");
        }
        boolean wasRunning = processes.isRunning(d.name());
        halt(d.name());
        try (TableSnapshot snap = snapshots.take(owner, table); Destination dest = connect(d);
                RunningOperations.Operation op = operations.start("instantiate_table",
                        owner + "." + table + " to apply " + d.name(), "rows", snap.countRows())) {
            long rows = dest.copyTable(owner, table, snap.columns(), counted(snap.rows(), op));
            setInstantiationScn(null, owner, table, snap.scn(), d.databaseLink());
            op.succeeded();
            return new Instantiation(snap.scn(), rows);
        } catch (DestinationUnavailableException | ApplyErrorException e) {
            throw new InvalidRequestException(ErrorCode.UNAVAILABLE, "instantiate_table: " + owner + "." + table
                    + " was not copied to the destination of apply " + d.name() + ": " + e.getMessage());
        } finally {
            if (wasRunning) {
                launch(d);
            }
        }
    }

    /** The rows as they are handed to the destination, each one counted as done when it is taken. */
    private static <T> Iterator<T> counted(Iterator<T> rows, RunningOperations.Operation op) {
        return Iterators.transform(rows, row -> {
            op.advance(1);
            return row;
        });
    }

    /**
     * The prepare SCN that covers a table (or with a null table, a schema): the lowest of its own,
     * its schema's and the global one; null when it was never prepared.
     */
    private Long preparedScn(String owner, String table) {
        Long min = null;
        for (Map.Entry<String, Long> e : captures.prepared().entrySet()) {
            String o = e.getKey();
            if ((table != null && o.equals(owner + "." + table)) || o.equals(owner + ".*") || o.equals("*")) {
                min = min == null ? e.getValue() : Math.min(min, e.getValue());
            }
        }
        return min;
    }

    public synchronized List<Instantiated> instantiated() {
        List<Instantiated> out = new ArrayList<>();
        for (boolean tables : new boolean[] {true, false}) {
            (tables ? tableScns : schemaScns).forEach((link, byKey) -> byKey.forEach((key, scn) -> {
                int colon = key.indexOf(':');
                String object = key.substring(colon + 1);
                int dot = object.indexOf('.');
                out.add(new Instantiated(key.substring(0, colon), dot < 0 ? object : object.substring(0, dot),
                        dot < 0 ? null : object.substring(dot + 1), scn, link.isEmpty() ? null : link));
            }));
        }
        return out;
    }

    /** Sets, or with a null method removes, the update conflict handler of a table for a column list. */
    public synchronized void setUpdateConflictHandler(String owner, String table, ConflictMethod method, String resolutionColumn,
            List<String> columns) {
        List<String> cols = columns.stream().map(c -> c.trim().toLowerCase(Locale.ROOT)).sorted().toList();
        String key = owner + "." + table + "/" + String.join(",", cols);
        byte[] metaKey = Keys.meta(HANDLER + key);
        if (method == null) {
            store.delete(NodeStore.Family.META, metaKey, true);
            handlers.remove(key);
        } else {
            for (Map.Entry<String, ConflictHandler> other : handlers.entrySet()) {
                if (other.getKey().startsWith(owner + "." + table + "/") && !other.getKey().equals(key)) {
                    for (String col : cols) {
                        if (other.getValue().columns().contains(col)) {
                            throw new InvalidRequestException("set_update_conflict_handler: column " + col + " of " + owner + "."
                                    + table + " is in the column list " + other.getValue().columns() + " of another handler; "
                                    + "a column is in one list (remove that handler with method_name => NULL first)");
                        }
                    }
                }
            }
            ConflictHandler h;
            try {
                h = new ConflictHandler(owner, table, method, resolutionColumn, cols);
            } catch (IllegalArgumentException e) {
                throw new InvalidRequestException("set_update_conflict_handler: " + e.getMessage());
            }
            BinaryWriter w = new BinaryWriter(64).u8(h.method().ordinal()).string(h.resolutionColumn());
            w.varint(cols.size());
            cols.forEach(w::string);
            store.put(NodeStore.Family.META, metaKey, w.toByteArray(), true);
            handlers.put(key, h);
        }
        refreshPolicies();
    }

    private static ConflictHandler decodeHandler(byte[] v) {
        BinaryReader r = new BinaryReader(v);
        ConflictMethod m = ConflictMethod.values()[r.u8()];
        String resolution = r.string();
        List<String> cols = new ArrayList<>();
        for (int i = r.count(); i > 0; i--) {
            cols.add(r.string());
        }
        return new ConflictHandler(null, null, m, resolution, cols);
    }

    public synchronized List<ConflictHandler> conflictHandlers() {
        List<ConflictHandler> out = new ArrayList<>();
        handlers.forEach((key, h) -> {
            String object = key.substring(0, key.indexOf('/'));
            int dot = object.indexOf('.');
            out.add(new ConflictHandler(object.substring(0, dot), object.substring(dot + 1), h.method(), h.resolutionColumn(),
                    h.columns()));
        });
        return out;
    }

    private void refreshPolicies() {
        Map<String, List<ConflictHandler>> byTable = new TreeMap<>();
        for (ConflictHandler h : conflictHandlers()) {
            byTable.computeIfAbsent(h.objectName(), k -> new ArrayList<>()).add(h);
        }
        Map<String, ApplyPolicy> next = new TreeMap<>();
        Set<String> linked = new TreeSet<>(tableScns.keySet());
        linked.addAll(schemaScns.keySet());
        linked.add("");
        for (String l : linked) {
            next.put(l, new ApplyPolicy(new Instantiations(tableScns.getOrDefault(l, Map.of()),
                    schemaScns.getOrDefault(l, Map.of())), byTable));
        }
        policies = Map.copyOf(next);
    }

    private ApplyPolicy policyOf(ApplyDefinition d) {
        Map<String, ApplyPolicy> p = policies;
        return p.getOrDefault(d.databaseLink() == null ? "" : d.databaseLink(), p.get(""));
    }

    private TransportSettings.Link link(ApplyDefinition d) {
        return links.apply(d.databaseLink()).orElseThrow(() -> new DestinationUnavailableException(
                "database link " + d.databaseLink() + " of apply " + d.name() + " does not exist", null));
    }

    /**
     * A connection to an apply's destination, PostgreSQL or a Tributary cluster as its link
     * says, or this cluster without one; the caller closes it.
     */
    private Destination connect(ApplyDefinition d) {
        if (d.databaseLink() == null) {
            return TributaryDestination.local(self.get(), d.applyUser());
        }
        TransportSettings.Link l = link(d);
        return l.jdbc() ? PostgresDestination.connect(l.target(), l.user(), l.password(), this::recordIgnored)
                : TributaryDestination.connect(calls, l);
    }

    private void launch(ApplyDefinition d) {
        Long queueId = captures.queueId(d.queueName());
        if (queueId == null) {
            save(d.aborted(ApplyErrorException.DESTINATION_ERROR, "queue " + d.queueName() + " does not exist"));
            aborts.computeIfAbsent(d.name(), k -> new AtomicLong()).incrementAndGet();
            return;
        }
        String queue = d.queueName();
        ApplySource source = new QueueApplySource(log, queueId, () -> captures.caughtUpScn(queue, Long.MAX_VALUE), appended);
        AtomicInteger serverNumber = new AtomicInteger();
        ExecutorService servers = Executors.newFixedThreadPool(d.parallelism(), r -> {
            Thread s = new Thread(r, "apply-" + d.name() + "-server-" + serverNumber.incrementAndGet());
            s.setDaemon(true);
            return s;
        });
        ApplyWorker w = new ApplyWorker(d.name(), source, () -> connect(d), () -> policyOf(d),
                tx -> TransactionKeys.of(tx, keyColumns), servers,
                new ApplyWorker.Options(d.disableOnError(), 500, 100, Thread::sleep, d.parallelism(), d.fullSerialization()));
        Thread t = new Thread(() -> {
            try {
                w.run();
            } finally {
                servers.shutdownNow();
                exited(d.name(), w);
            }
        }, "apply-" + d.name() + "-coordinator");
        t.setDaemon(true);
        processes.launched(d.name(), w, t, d.parallelism());
        t.start();
    }

    private void exited(String name, ApplyWorker w) {
        if (!processes.removeIfCurrent(name, w)) {
            return; // halted on purpose: halt took it out first
        }
        RuntimeException f = w.failure();
        if (f != null) {
            synchronized (this) {
                ApplyDefinition d = processes.find(name).orElse(null);
                if (d != null) {
                    int number = f instanceof ApplyErrorException e ? e.errorNumber() : ApplyErrorException.DESTINATION_ERROR;
                    save(d.aborted(number, String.valueOf(f.getMessage())));
                    aborts.computeIfAbsent(name, k -> new AtomicLong()).incrementAndGet();
                }
            }
        }
    }

    private void halt(String name) {
        processes.halt(name);
    }

    /** The error queues of every apply, read from their destinations. */
    public List<ErrorTransaction> errors() {
        List<ErrorTransaction> out = new ArrayList<>();
        for (ApplyDefinition d : definitions()) {
            try (Destination dest = openForErrors(d)) {
                out.addAll(dest.errors(d.name()));
            }
        }
        return out;
    }

    private synchronized List<ApplyDefinition> definitions() {
        return processes.definitions();
    }

    private Destination openForErrors(ApplyDefinition d) {
        try {
            return connect(d);
        } catch (DestinationUnavailableException e) {
            throw new InvalidRequestException(ErrorCode.UNAVAILABLE, "the error queue of apply " + d.name() + " is in its "
                    + "destination, which cannot be reached: " + e.getMessage());
        }
    }

    /** What execute_error and delete_error do to one error transaction; false when the apply's queue does not hold it. */
    @FunctionalInterface
    private interface ErrorAction {
        boolean run(ApplyDefinition d, Destination dest, String localTransactionId);
    }

    /** Runs the action on the error transaction, whichever apply's queue holds it. */
    private void onError(String localTransactionId, ErrorAction action) {
        for (ApplyDefinition d : definitions()) {
            try (Destination dest = openForErrors(d)) {
                if (action.run(d, dest, localTransactionId)) {
                    return;
                }
            }
        }
        throw noSuchError(localTransactionId);
    }

    /** Runs the action on each of an apply's error transactions in commit order; how many it took. */
    private int onAllErrors(String apply, ErrorAction action) {
        ApplyDefinition d = definition(apply);
        int n = 0;
        try (Destination dest = openForErrors(d)) {
            for (ErrorTransaction e : dest.errors(d.name())) {
                if (action.run(d, dest, e.localTransactionId())) {
                    n++;
                }
            }
        }
        return n;
    }

    /** dbms_apply_adm.execute_error: runs one error transaction again, whichever apply it belongs to. */
    public void executeError(String localTransactionId) {
        onError(localTransactionId, this::runError);
    }

    /** dbms_apply_adm.execute_all_errors: the apply's error transactions in commit order, stopping at one that fails again. */
    public int executeAllErrors(String apply) {
        return onAllErrors(apply, this::runError);
    }

    private boolean runError(ApplyDefinition d, Destination dest, String localTransactionId) {
        try {
            return dest.executeError(d.name(), localTransactionId, policyOf(d));
        } catch (ApplyErrorException e) {
            throw new InvalidRequestException("execute_error: transaction " + localTransactionId + " of apply " + d.name()
                    + " failed again and stays in the error queue: ORA-" + e.errorNumber() + ": " + e.getMessage());
        } catch (DestinationUnavailableException e) {
            throw new InvalidRequestException(ErrorCode.UNAVAILABLE, "execute_error: " + e.getMessage());
        }
    }

    public void deleteError(String localTransactionId) {
        onError(localTransactionId, (d, dest, id) -> dest.deleteError(d.name(), id));
    }

    public int deleteAllErrors(String apply) {
        return onAllErrors(apply, (d, dest, id) -> dest.deleteError(d.name(), id));
    }

    private synchronized ApplyDefinition definition(String apply) {
        return require(apply);
    }

    private static InvalidRequestException noSuchError(String localTransactionId) {
        return new InvalidRequestException(ErrorCode.NOT_FOUND, "no apply's error queue holds transaction " + localTransactionId);
    }

    @Override
    public synchronized void close() {
        processes.close();
    }
}
