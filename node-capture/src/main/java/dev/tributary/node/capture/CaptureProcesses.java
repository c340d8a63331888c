package dev.tributary.node.capture;

import dev.tributary.capture.BufferedQueues;
import dev.tributary.capture.CaptureScnRules;
import dev.tributary.capture.CaptureState;
import dev.tributary.capture.CaptureWorker;
import dev.tributary.capture.CdcLogFormatter;
import dev.tributary.capture.MergedRedo;
import dev.tributary.capture.ProcessStatus;
import dev.tributary.capture.RedoThread;
import dev.tributary.capture.RuleCapture;
import dev.tributary.capture.UnsupportedColumnTypeException;
import dev.tributary.dictionary.io.BinaryReader;
import dev.tributary.dictionary.io.BinaryWriter;
import dev.tributary.dictionary.logminer.LogMinerDictionary;
import dev.tributary.node.errors.ErrorCode;
import dev.tributary.node.errors.InvalidRequestException;
import dev.tributary.node.errors.StorageException;
import dev.tributary.node.processes.ProcessRegistry;
import dev.tributary.node.storage.Keys;
import dev.tributary.node.storage.NodeStore;
import dev.tributary.rules.CatalogCodec;
import dev.tributary.rules.CompiledRuleSets;
import dev.tributary.rules.QualifiedName;
import dev.tributary.rules.RuleCatalog;
import dev.tributary.rules.StreamsClient;
import dev.tributary.rules.StreamsRuleRow;
import dev.tributary.rules.TransformationRunner;
import dev.tributary.rules.transform.TransformationRegistry;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * The capture processes, queues and rules of a node (Oracle Streams' capture objects): their
 * definitions live in {@code meta} ({@code capture/}, {@code queue/}, {@code rules/catalog}),
 * and each enabled capture runs a {@link CaptureWorker} mining the redo thread with its rule sets
 * into its queue. A new capture is DISABLED until started; an enabled capture starts again when
 * the node restarts. Names compare case-insensitively. Thread-safe (synchronized).
 */
public final class CaptureProcesses implements AutoCloseable {
    private static final String CAPTURE = "capture/";
    private static final String QUEUE = "queue/";
    private static final byte[] CATALOG_KEY = Keys.meta("rules/catalog");
    /** Log ids of queues start here; below are the CDC logs of tables (their object numbers). */
    public static final long QUEUE_ID_BASE = 1L << 62;
    /** How often a capture waiting for redo asks the other nodes' threads for news. */
    private static final long REMOTE_POLL_MILLIS = 100;

    private final NodeStore store;
    private final RocksDbRedoLog redo;
    private final RocksDbCdcLog log;
    private final CdcLogFormatter formatter;
    private final String sourceDatabase;
    private final TransformationRunner transformations =
            new TransformationRunner(TransformationRegistry.load(CaptureProcesses.class.getClassLoader()));
    private final Map<String, Long> queues = new LinkedHashMap<>();
    /**
     * The definitions and the captures running here, each with the parallelism it was started
     * with (a new one takes effect at its next start).
     */
    private final ProcessRegistry<CaptureDefinition, CaptureWorker> processes;
    private final RuleCatalog catalog;
    private final LogMinerDictionaries dictionaries;
    private final DictionaryBuilder builder;
    private final BufferedQueues buffered;
    private final DownstreamSources downstream;
    private final Supplier<Map<String, RedoThread>> clusterThreads;
    private volatile boolean restricted;
    private long traceSeq;

    /**
     * @param dictionaries the LogMiner dictionaries captures decode with
     * @param builder      runs dictionary builds when a capture is created without a first SCN
     * @param buffered     the buffered queues captures enqueue through (flow control)
     * @param downstream   the other databases downstream captures mine
     * @param clusterThreads the redo threads of the cluster (every instance's), which a local capture merges
     */
    public CaptureProcesses(NodeStore store, RocksDbRedoLog redo, RocksDbCdcLog log, CdcLogFormatter formatter, String sourceDatabase, boolean restricted, LogMinerDictionaries dictionaries,
            DictionaryBuilder builder, BufferedQueues buffered, DownstreamSources downstream,
            Supplier<Map<String, RedoThread>> clusterThreads) {
        this.downstream = downstream;
        this.clusterThreads = clusterThreads;
        this.dictionaries = dictionaries;
        this.builder = builder;
        this.buffered = buffered;
        this.restricted = restricted;
        this.store = store;
        this.redo = redo;
        this.log = log;
        this.formatter = formatter;
        this.sourceDatabase = sourceDatabase;
        byte[] cat = store.get(NodeStore.Family.META, CATALOG_KEY);
        String db = sourceDatabase.toUpperCase(Locale.ROOT);
        this.catalog = cat == null ? new RuleCatalog(db, "TRIBUTARY") : RuleCatalog.restore(CatalogCodec.decode(cat), db, "TRIBUTARY");
        store.scanMeta(QUEUE, (name, v) -> queues.put(name, ByteBuffer.wrap(v).getLong()));
        this.processes = new ProcessRegistry<>(store, CAPTURE, CaptureDefinition::decode, String::equalsIgnoreCase,
                (worker, thread) -> {
                    worker.stop();
                    thread.join(10_000);
                });
    }

    /**
     * Starts every capture that is enabled and not running (persistent status). In a restricted
     * session nothing starts: the captures start when the restriction ends.
     */
    public synchronized void startEnabled() {
        if (restricted) {
            return;
        }
        for (CaptureDefinition d : processes.enabledNotRunning()) {
            launch(d);
        }
    }

    /**
     * Enables or disables restricted session at run time. Enabling leaves running captures
     * alone; disabling starts the enabled captures that were waiting.
     */
    public synchronized void setRestricted(boolean on) {
        restricted = on;
        if (!on) {
            startEnabled();
        }
    }

    public boolean restricted() {
        return restricted;
    }

    /** The source database name (the cluster's name), as LCRs carry it. */
    public String sourceDatabase() {
        return sourceDatabase;
    }

    /** The highest SCN in the redo thread. */
    public long currentScn() {
        return redo.lastScn();
    }

    public RuleCatalog catalog() {
        return catalog;
    }

    /** Stores the rule catalog; called after every rule procedure. */
    public synchronized void saveCatalog() {
        store.put(NodeStore.Family.META, CATALOG_KEY, CatalogCodec.encode(catalog.snapshot()), true);
    }

    // ------------------------------------------------------------------ queues

    public synchronized long setUpQueue(String name) {
        Long id = queueId(name);
        if (id != null) {
            return id;
        }
        long next = QUEUE_ID_BASE + queues.size() + 1;
        queues.put(name, next);
        store.put(NodeStore.Family.META, Keys.meta(QUEUE + name), ByteBuffer.allocate(8).putLong(next).array(), true);
        return next;
    }

    /** The queue's log id, or null. */
    public synchronized Long queueId(String name) {
        for (Map.Entry<String, Long> q : queues.entrySet()) {
            if (q.getKey().equalsIgnoreCase(name)) {
                return q.getValue();
            }
        }
        return null;
    }

    public synchronized Optional<String> queueName(String name) {
        return queues.keySet().stream().filter(q -> q.equalsIgnoreCase(name)).findFirst();
    }

    // ------------------------------------------------------------------ captures

    public synchronized Optional<CaptureDefinition> capture(String name) {
        return processes.find(name);
    }

    public synchronized List<CaptureDefinition> captures() {
        List<CaptureDefinition> out = new ArrayList<>();
        for (CaptureDefinition d : processes.definitions()) {
            out.add(withRuntimeStatus(d));
        }
        return out;
    }

    private CaptureDefinition withRuntimeStatus(CaptureDefinition d) {
        Optional<CaptureWorker> w = processes.worker(d.name());
        if (w.isPresent() && w.get().state() == CaptureState.ABORTED && d.status() != ProcessStatus.ABORTED) {
            return recordAbort(d, w.get());
        }
        return d;
    }

    /** Where a new capture's redo comes from: this database, or another one downstream. */
    public record Source(String database, boolean useDatabaseLink) {
        public static final Source LOCAL = new Source(null, false);
    }

    /**
     * Creates a DISABLED capture bound to an existing queue, its first and start SCN as
     * {@link CaptureScnRules#create} (a local capture) or {@link CaptureScnRules#createDownstream}
     * decides: a new LogMiner dictionary from the build at a given first SCN, a build run now
     * (at the source, through its database link, for a downstream capture), or the dictionary of
     * a capture of the same source that took a checkpoint, shared.
     *
     * @param source     the database it mines (its name, uppercase, or null for this one)
     * @param currentScn the current SCN of this database
     * @param user       the session's user and id, for the build's redo
     */
    public synchronized CaptureDefinition create(String name, String queueName, String positive, String negative,
            String user, Long firstScn, Long startScn, long currentScn, long sessionId, Source source) {
        if (capture(name).isPresent()) {
            throw new InvalidRequestException(ErrorCode.ALREADY_EXISTS, "capture process " + name + " already exists");
        }
        String queue = queueName(queueName).orElseThrow(() -> new InvalidRequestException(ErrorCode.NOT_FOUND,
                "queue " + queueName + " does not exist (dbms_streams_adm.set_up_queue creates it)"));
        int number = processes.definitions().stream().mapToInt(CaptureDefinition::captureNumber).max().orElse(0) + 1;
        if (number > 999) {
            throw new InvalidRequestException("no capture process number is left (c001 to c999 are taken)");
        }
        long first;
        long start;
        long dictionaryId;
        String db = source.database();
        Optional<DownstreamSources.SourceLink> link = Optional.empty();
        CaptureScnRules.Creation c;
        if (db == null) {
            c = CaptureScnRules.create(name, firstScn, startScn, currentScn, existing(null));
        } else {
            if (source.useDatabaseLink()) {
                link = Optional.of(downstream.link(db).orElseThrow(() -> new InvalidRequestException(ErrorCode.NOT_FOUND,
                        "create_capture " + name + ": use_database_link => true needs a database link named "
                                + db.toLowerCase(Locale.ROOT) + " to the source (CREATE DATABASE LINK "
                                + db.toLowerCase(Locale.ROOT) + " USING 'host:port')")));
            }
            OptionalLong sourceScn = firstScn == null && link.isPresent()
                    ? OptionalLong.of(link.get().currentScn()) : OptionalLong.empty();
            c = CaptureScnRules.createDownstream(name, db, firstScn, startScn, sourceScn, existing(db));
        }
        // after the SCN rules (whose errors say more about the SCNs given), before anything is built
        for (CaptureDefinition other : processes.definitions()) {
            if (Objects.equals(db, other.sourceDatabase()) && other.queueName().equals(queue)) {
                // CAP-DS-2, for local captures as for downstream ones: an apply reading the queue would get
                // every change of that source twice
                throw new InvalidRequestException("create_capture " + name + ": capture process " + other.name()
                        + " already enqueues the changes of " + (db == null ? sourceDatabase.toUpperCase(Locale.ROOT) : db)
                        + " into queue " + queue + "; two captures of one source must not feed one queue an apply may "
                        + "read. Use another queue");
            }
        }
        if (c instanceof CaptureScnRules.Creation.AtFirstScn at && db == null && !builder.redoIntactAfter(at.firstScn())) {
            // CAP-DS-9: the capture would have to mine redo that is gone
            throw new InvalidRequestException("create_capture " + name + ": the redo from first_scn " + at.firstScn()
                    + " on is no longer all there: logs holding it were purged (system_views.logmnr_purged_log); run "
                    + "dbms_capture_adm.build and give the SCN it returns");
        }
        if (c instanceof CaptureScnRules.Creation.AtFirstScn at) {
            first = at.firstScn();
            start = at.startScn();
            dictionaryId = dictionaries.create(first).id(); // populated from the build at its first start
        } else if (c instanceof CaptureScnRules.Creation.NewBuild nb) {
            first = link.isPresent() ? link.get().build() : builder.build(user, sessionId);
            start = nb.startScn(first);
            dictionaryId = dictionaries.create(first).id();
        } else {
            CaptureScnRules.Creation.Shared shared = (CaptureScnRules.Creation.Shared) c;
            first = shared.firstScn();
            start = shared.startScn();
            dictionaryId = shared.with().dictionaryId();
        }
        CaptureDefinition d = new CaptureDefinition(name, queue, positive, negative, user, ProcessStatus.DISABLED,
                first, start, number, 0, null, Set.of(), Map.of(), dictionaryId, db,
                source.useDatabaseLink());
        save(d);
        return d;
    }

    /** The captures of a source (null: this database) as the SCN rules see them: first SCN, dictionary, checkpoint. */
    private List<CaptureScnRules.Existing> existing(String source) {
        List<CaptureScnRules.Existing> out = new ArrayList<>();
        for (CaptureDefinition c : processes.definitions()) {
            if (!Objects.equals(c.sourceDatabase(), source)) {
                continue;
            }
            long ckpt = log.checkpoint(checkpointName(c.name()));
            // a checkpoint counts once the capture started, loaded its LogMiner dictionary and moved on
            out.add(new CaptureScnRules.Existing(c.name(), c.firstScn(), c.dictionaryId(),
                    dictionaries.get(c.dictionaryId()).loaded() && ckpt > 0, ckpt));
        }
        return out;
    }

    /** MAX_CHECKPOINT_SCN of a LogMiner dictionary: the furthest any capture using it has got. */
    private long maxCheckpoint(long dictionaryId) {
        return processes.definitions().stream().filter(c -> c.dictionaryId() == dictionaryId)
                .mapToLong(c -> log.checkpoint(checkpointName(c.name()))).max().orElse(0);
    }

    /**
     * The highest SCN no local capture will read again (the purge rule): this node's redo at or
     * below it is purgeable. Downstream captures read received logs, not this redo.
     */
    public synchronized long requiredScn() {
        return CaptureScnRules.requiredScn(existing(null));
    }

    /**
     * The purge rule for the redo received from another database: the highest SCN no downstream
     * capture of it will read again, or empty while it has none (one created later may need any
     * of its logs).
     */
    public synchronized OptionalLong requiredScnOf(String sourceDatabase) {
        List<CaptureScnRules.Existing> of = existing(sourceDatabase.toUpperCase(Locale.ROOT));
        return of.isEmpty() ? OptionalLong.empty() : OptionalLong.of(CaptureScnRules.requiredScn(of));
    }

    /** The SCN of the newest dictionary build still in the redo, or -1: its log is never purged. */
    public long newestBuild() {
        List<Long> builds = builder.builds();
        return builds.isEmpty() ? -1 : builds.get(builds.size() - 1);
    }

    /** dbms_capture_adm.build: writes the dictionary into the redo and returns the build's SCN. */
    public long build(String user, long sessionId) {
        return builder.build(user, sessionId);
    }

    private CaptureDefinition require(String name) {
        return capture(name).orElseThrow(() -> new InvalidRequestException(ErrorCode.NOT_FOUND,
                "capture process " + name + " does not exist"));
    }

    private void save(CaptureDefinition d) {
        processes.save(d);
    }

    /**
     * dbms_capture_adm.alter_capture: new rule sets, or first and start SCNs as
     * {@link CaptureScnRules#alter} allows. Takes effect at the capture's next start.
     */
    public synchronized CaptureDefinition alter(String name, String positive, String negative, boolean removeNegative,
            Long firstScn, Long startScn, Boolean useDatabaseLink) {
        CaptureDefinition d = require(name);
        if (useDatabaseLink != null && !d.downstream()) {
            throw new InvalidRequestException("alter_capture " + d.name() + ": use_database_link applies to a downstream "
                    + "capture; " + d.name() + " is a local capture");
        }
        CaptureScnRules.Scns scns = CaptureScnRules.alter(d.name(), new CaptureScnRules.Scns(d.firstScn(), d.startScn()),
                log.checkpoint(checkpointName(d.name())), firstScn, startScn);
        long first = scns.firstScn();
        long start = scns.startScn();
        CaptureDefinition next = d.altered(positive != null ? positive : d.positiveRuleSet(),
                removeNegative ? null : negative != null ? negative : d.negativeRuleSet(), first, start,
                useDatabaseLink != null ? useDatabaseLink : d.useDatabaseLink());
        save(next);
        if (first > d.firstScn()) {
            purgeDictionary(next.dictionaryId());
        }
        return next;
    }

    /**
     * Purges a LogMiner dictionary below the lowest first SCN of the captures that share it: no
     * capture will ever decode a change below its first SCN again.
     */
    private void purgeDictionary(long dictionaryId) {
        LogMinerDictionary lmd = dictionaries.get(dictionaryId);
        if (lmd.loaded()) {
            CaptureDefinition any = processes.definitions().stream().filter(c -> c.dictionaryId() == dictionaryId).findFirst().orElseThrow();
            CaptureScnRules.dictionaryPurgeBelow(dictionaryId, lmd.buildScn(), existing(any.sourceDatabase()))
                    .ifPresent(lmd::purgeBelow);
        }
    }

    /** The buffered queues captures enqueue through. */
    public BufferedQueues buffered() {
        return buffered;
    }

    /** The queues and their log ids, by name. */
    public synchronized Map<String, Long> queues() {
        return Map.copyOf(queues);
    }

    /** The node's LogMiner dictionaries. */
    public List<LogMinerDictionary> logMinerDictionaries() {
        return dictionaries.all();
    }


    /** Records that a table, schema ("ks.*") or everything ("*") was prepared for instantiation at an SCN. */
    public synchronized void prepare(String object, long scn) {
        store.put(NodeStore.Family.META, Keys.meta("prepared/" + object), ByteBuffer.allocate(8).putLong(scn).array(), true);
    }

    /**
     * Prepares the objects of a capture's new rules for instantiation: here for a local capture;
     * at the source through its database link for a downstream capture that has one. Without a
     * link that is the operator's to do at the source (CAP-DS-3).
     */
    public void prepareFor(CaptureDefinition d, String object, long prepareScn) {
        if (!d.downstream()) {
            prepare(object, prepareScn);
        } else if (d.useDatabaseLink()) {
            sourceLink(d).prepare(object);
        }
    }

    private DownstreamSources.SourceLink sourceLink(CaptureDefinition d) {
        return downstream.link(d.sourceDatabase()).orElseThrow(() -> new InvalidRequestException(ErrorCode.NOT_FOUND,
                "capture process " + d.name() + " uses a database link to " + d.sourceDatabase() + ", and there is no "
                        + "database link named " + d.sourceDatabase().toLowerCase(Locale.ROOT) + " any more"));
    }

    /** The prepared objects and their SCNs (prepared_tables). */
    public synchronized Map<String, Long> prepared() {
        Map<String, Long> out = new TreeMap<>();
        store.scanMeta("prepared/", (object, v) -> out.put(object, ByteBuffer.wrap(v).getLong()));
        return out;
    }

    public synchronized void updateRuleSets(String name, String positive, String negative) {
        save(require(name).withRuleSets(positive, negative));
    }

    public synchronized void start(String name) {
        CaptureDefinition d = withRuntimeStatus(require(name));
        Optional<CaptureWorker> w = processes.worker(d.name());
        if (w.isPresent() && w.get().state() != CaptureState.ABORTED) {
            return; // already running
        }
        if (w.isPresent()) {
            processes.removeEnded(d.name());
        }
        LogMinerDictionary lmd = dictionaries.get(d.dictionaryId());
        if (d.downstream()) {
            // the build may not have been shipped yet: the capture waits for it (WAITING FOR DICTIONARY REDO)
            if (!lmd.loaded() && downstream.passedWithoutBuild(d.sourceDatabase(), lmd.buildScn())) {
                throw new InvalidRequestException("capture process " + d.name() + " cannot start: the redo received from "
                        + d.sourceDatabase() + " has no dictionary build at its first SCN " + lmd.buildScn() + " (run "
                        + "dbms_capture_adm.build at " + d.sourceDatabase() + " and create the capture with the SCN it returns)");
            }
        } else if (!lmd.loaded() && !builder.exists(lmd.buildScn())) {
            throw new InvalidRequestException("capture process " + d.name() + " cannot start: there is no dictionary build at "
                    + "its first SCN " + lmd.buildScn() + " in the redo log (dbms_capture_adm.build returns a first SCN that "
                    + "has one; system_views.archived_log lists them with dictionary_begin = 'YES')");
        }
        if (!d.downstream() && !lmd.loaded() && !builder.redoIntactAfter(lmd.buildScn())) {
            throw new InvalidRequestException("capture process " + d.name() + " cannot start: redo after its first SCN "
                    + lmd.buildScn() + " has been purged (system_views.logmnr_purged_log), so DDL after the build cannot be "
                    + "mined; run dbms_capture_adm.build again and create the capture with the new first SCN");
        }
        d = d.withStatus(ProcessStatus.ENABLED);
        save(d);
        if (!restricted) {
            launch(d); // in a restricted session it starts when the restriction ends
        }
    }

    public synchronized void setParameter(String name, String parameter, String value) {
        CaptureDefinition d = require(name);
        String p = parameter.toLowerCase(Locale.ROOT);
        if (!CaptureDefinition.DEFAULT_PARAMETERS.containsKey(p)) {
            throw new InvalidRequestException("unknown capture parameter '" + parameter + "'; the parameters are "
                    + String.join(", ", new TreeSet<>(CaptureDefinition.DEFAULT_PARAMETERS.keySet())));
        }
        String v = value.trim().toUpperCase(Locale.ROOT);
        switch (p) {
            case "disable_on_limit" -> {
                if (!v.equals("Y") && !v.equals("N")) {
                    throw new InvalidRequestException("disable_on_limit must be Y or N, got '" + value + "'");
                }
            }
            case "parallelism" -> {
                if (!v.matches("[1-9][0-9]?")) {
                    throw new InvalidRequestException("parallelism must be a number from 1 to 99, got '" + value + "'");
                }
            }
            default -> {
                if (!v.equals("INFINITE") && !v.matches("[0-9]+")) {
                    throw new InvalidRequestException(p + " must be a number or INFINITE, got '" + value + "'");
                }
            }
        }
        save(d.withParameter(p, v));
    }

    public synchronized void includeExtraAttribute(String name, String attribute, boolean include) {
        CaptureDefinition d = require(name);
        String a = attribute.toLowerCase(Locale.ROOT);
        if (!CaptureDefinition.EXTRA_ATTRIBUTES.contains(a)) {
            throw new InvalidRequestException("unknown extra attribute '" + attribute + "'; the attributes are "
                    + String.join(", ", new TreeSet<>(CaptureDefinition.EXTRA_ATTRIBUTES)));
        }
        save(d.withExtraAttribute(a, include));
    }

    /** One entry of a capture's trace: what made it stop, with the LCR concerned. */
    public record TraceEntry(String capture, long sequence, int errorNumber, String message) {
    }

    public synchronized List<TraceEntry> trace() {
        List<TraceEntry> out = new ArrayList<>();
        store.scanMeta("trace/", (key, v) -> {
            int slash = key.lastIndexOf('/');
            BinaryTrace t = BinaryTrace.decode(v);
            out.add(new TraceEntry(key.substring(0, slash), Long.parseLong(key.substring(slash + 1)), t.number(), t.message()));
        });
        return out;
    }

    private record BinaryTrace(int number, String message) {
        byte[] encode() {
            return new BinaryWriter(64).i32(number).string(message).toByteArray();
        }

        static BinaryTrace decode(byte[] b) {
            BinaryReader r = new BinaryReader(b);
            return new BinaryTrace(r.i32(), r.string());
        }
    }

    private void writeTrace(String capture, int number, String message) {
        traceSeq = Math.max(traceSeq + 1, System.currentTimeMillis());
        store.put(NodeStore.Family.META, Keys.meta("trace/" + capture + "/" + String.format("%020d", traceSeq)),
                new BinaryTrace(number, message).encode(), true);
    }

    public synchronized void stop(String name) {
        CaptureDefinition d = require(name);
        halt(d.name());
        save(d.withStatus(ProcessStatus.DISABLED));
    }

    public synchronized void drop(String name) {
        CaptureDefinition d = require(name);
        halt(d.name());
        processes.forget(d.name());
        if (processes.definitions().stream().noneMatch(c -> c.dictionaryId() == d.dictionaryId())) {
            dictionaries.drop(d.dictionaryId());
        }
        try (WriteBatch b = new WriteBatch()) {
            b.delete(store.handle(NodeStore.Family.META), processes.key(d.name()));
            b.delete(store.handle(NodeStore.Family.META), Keys.meta("ckpt/" + checkpointName(d.name())));
            store.write(b, true);
        } catch (RocksDBException e) {
            throw StorageException.from("drop capture", e);
        }
    }

    private static String checkpointName(String capture) {
        return "capture:" + capture;
    }

    /** Marks a capture ABORTED with its error and writes the failing LCR to its trace. */
    private CaptureDefinition recordAbort(CaptureDefinition d, CaptureWorker w) {
        RuntimeException f = w.failure();
        int number = f instanceof UnsupportedColumnTypeException ? 902 : 600;
        String message = w.error();
        if (f instanceof UnsupportedColumnTypeException u && u.lcr() != null) {
            message = message + "; LCR: " + u.lcr().commandType() + " " + u.lcr().objectOwner() + "." + u.lcr().objectName()
                    + " scn " + u.lcr().scn() + " new values " + u.lcr().newValues() + " old values " + u.lcr().oldValues();
        }
        writeTrace(d.name(), number, message);
        CaptureDefinition aborted = d.aborted(number, w.error());
        save(aborted);
        return aborted;
    }

    /** After a worker ends: record an abort, or restart or disable a capture that reached a limit. */
    private synchronized void exited(String name, CaptureWorker w) {
        if (!processes.isCurrent(name, w)) {
            return; // stopped or dropped on purpose
        }
        CaptureDefinition d = processes.find(name).orElseThrow();
        if (w.state() == CaptureState.ABORTED) {
            if (d.status() != ProcessStatus.ABORTED) {
                recordAbort(d, w); // unless a view saw the abort first
            }
        } else if (w.limitReached()) {
            processes.removeEnded(name);
            sizeStreamsPool();
            if ("Y".equals(d.parameters().get("disable_on_limit"))) {
                save(d.withStatus(ProcessStatus.DISABLED));
            } else {
                launch(d); // restarts where it stopped: a new session, the same capture number
            }
        }
    }

    private void launch(CaptureDefinition d) {
        long queueId = queues.get(d.queueName());
        LogMinerDictionary lmd = dictionaries.get(d.dictionaryId());
        RuleCapture capturer = new RuleCapture(queueId, d.downstream() ? d.sourceDatabase() : sourceDatabase, lmd.versions(),
                d.downstream() ? formatter.forSource(d.sourceDatabase()) : formatter, rules(d.name()),
                transformations, d.startScn(), d.extraAttributes());
        long seconds = d.limit("time_limit");
        CaptureWorker.Options options = new CaptureWorker.Options(
                new CaptureWorker.Limits(d.limit("message_limit"), seconds < 0 ? -1 : seconds * 1000), Integer.parseInt(
                d.parameters().get("parallelism")), System::currentTimeMillis, lmd, buffered, CaptureWorker.StateListener.NONE);
        // a local capture reads every instance's redo thread, merged in SCN order, as a RAC capture does
        CaptureWorker worker = new CaptureWorker(checkpointName(d.name()), d.downstream() ? downstream.redo(d.sourceDatabase())
                : new MergedRedo(clusterThreads, redo, REMOTE_POLL_MILLIS), log, capturer, options);
        if (log.checkpoint(checkpointName(d.name())) == 0) {
            log.append(checkpointName(d.name()), List.of(), CaptureScnRules.initialCheckpoint(
                    new CaptureScnRules.Scns(d.firstScn(), d.startScn()), lmd.loaded(), lmd.buildScn(),
                    maxCheckpoint(d.dictionaryId())));
        }
        Thread t = new Thread(() -> {
            worker.run();
            if (!worker.stopRequested()) {
                exited(d.name(), worker); // stop_capture's own halt() holds the lock while it joins this thread
            }
        }, "tributary-capture-" + d.processName());
        t.setDaemon(true);
        t.start();
        processes.launched(d.name(), worker, t, Integer.parseInt(d.parameters().get("parallelism")));
        sizeStreamsPool();
    }

    private void halt(String name) {
        processes.halt(name);
        sizeStreamsPool();
    }

    /** CAP-MULTI-1: the buffered queues' pool grows with the parallelism of the captures running here. */
    private void sizeStreamsPool() {
        buffered.setTotalParallelism(processes.runningParallelism());
    }

    /** The capture's rule sets, recompiled only when the catalog changed. */
    private Supplier<CompiledRuleSets> rules(String capture) {
        return new Supplier<>() {
            private long version = -1;
            private String sets = "";
            private CompiledRuleSets compiled;

            @Override
            public CompiledRuleSets get() {
                synchronized (CaptureProcesses.this) {
                    CaptureDefinition d = processes.find(capture).orElseThrow();
                    String now = d.positiveRuleSet() + "/" + d.negativeRuleSet();
                    if (compiled == null || version != catalog.version() || !now.equals(sets)) {
                        version = catalog.version();
                        sets = now;
                        compiled = catalog.compile(client(d));
                    }
                    return compiled;
                }
            }
        };
    }

    public static StreamsClient client(CaptureDefinition d) {
        return StreamsClient.capture(d.name(), Optional.ofNullable(d.positiveRuleSet()).map(n -> QualifiedName.parse(n, "TRIBUTARY")),
                Optional.ofNullable(d.negativeRuleSet()).map(n -> QualifiedName.parse(n, "TRIBUTARY")));
    }

    /** The rows of streams_rules of every capture that enqueues into a queue (none when no capture does). */
    public synchronized List<StreamsRuleRow> queueRules(String queue) {
        List<StreamsClient> into = new ArrayList<>();
        for (CaptureDefinition d : processes.definitions()) {
            if (d.queueName().equalsIgnoreCase(queue)) {
                into.add(client(d));
            }
        }
        return catalog().streamsRuleRows(into);
    }

    public synchronized Collection<StreamsClient> clients() {
        List<StreamsClient> out = new ArrayList<>();
        for (CaptureDefinition d : processes.definitions()) {
            out.add(client(d));
        }
        return out;
    }

    /** The running worker of a capture, if it runs. */
    public synchronized Optional<CaptureWorker> worker(String name) {
        return capture(name).flatMap(d -> processes.worker(d.name()));
    }

    /**
     * The lowest caught-up SCN of the captures enqueuing into a queue (see
     * {@link CaptureWorker#caughtUpScn()}): a running capture's, else its checkpoint, which is
     * where it would resume; {@code none} when no capture feeds the queue.
     */
    public synchronized long caughtUpScn(String queueName, long none) {
        long min = Long.MAX_VALUE;
        for (CaptureDefinition d : processes.definitions()) {
            if (d.queueName().equalsIgnoreCase(queueName)) {
                Optional<CaptureWorker> w = processes.worker(d.name());
                min = Math.min(min, w.isPresent() ? w.get().caughtUpScn() : log.checkpoint(checkpointName(d.name())));
            }
        }
        return min == Long.MAX_VALUE ? none : min;
    }

    public long checkpointOf(String name) {
        return log.checkpoint(checkpointName(name));
    }

    @Override
    public synchronized void close() {
        processes.close();
        sizeStreamsPool();
    }
}
