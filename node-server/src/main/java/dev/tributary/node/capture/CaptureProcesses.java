package dev.tributary.node.capture;

import dev.tributary.capture.CaptureState;
import dev.tributary.capture.CaptureWorker;
import dev.tributary.capture.CdcLogFormatter;
import dev.tributary.capture.RuleCapture;
import dev.tributary.dictionary.MultiversionDictionary;
import dev.tributary.node.errors.ErrorCode;
import dev.tributary.node.errors.InvalidRequestException;
import dev.tributary.node.storage.Keys;
import dev.tributary.node.storage.NodeStore;
import dev.tributary.rules.CatalogCodec;
import dev.tributary.rules.CompiledRuleSets;
import dev.tributary.rules.QualifiedName;
import dev.tributary.rules.RuleCatalog;
import dev.tributary.rules.StreamsClient;
import dev.tributary.rules.transform.TransformationRegistry;
import dev.tributary.rules.transform.TransformationRunner;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.rocksdb.RocksIterator;

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
    /** Queue log ids live far above table object numbers, so the two never meet in cdc_log. */
    private static final long QUEUE_ID_BASE = 1L << 62;

    private final NodeStore store;
    private final RocksDbRedoLog redo;
    private final RocksDbCdcLog log;
    private final MultiversionDictionary dictionary;
    private final CdcLogFormatter formatter;
    private final String sourceDatabase;
    private final TransformationRunner transformations =
            new TransformationRunner(TransformationRegistry.load(CaptureProcesses.class.getClassLoader()));
    private final Map<String, Long> queues = new LinkedHashMap<>();
    private final Map<String, CaptureDefinition> captures = new LinkedHashMap<>();
    private final Map<String, Running> running = new LinkedHashMap<>();
    private final RuleCatalog catalog;

    private record Running(CaptureWorker worker, Thread thread) {
    }

    public CaptureProcesses(NodeStore store, RocksDbRedoLog redo, RocksDbCdcLog log, MultiversionDictionary dictionary,
            CdcLogFormatter formatter, String sourceDatabase) {
        this.store = store;
        this.redo = redo;
        this.log = log;
        this.dictionary = dictionary;
        this.formatter = formatter;
        this.sourceDatabase = sourceDatabase;
        byte[] cat = store.get(NodeStore.Family.META, CATALOG_KEY);
        String db = sourceDatabase.toUpperCase(Locale.ROOT);
        this.catalog = cat == null ? new RuleCatalog(db, "TRIBUTARY") : RuleCatalog.restore(CatalogCodec.decode(cat), db, "TRIBUTARY");
        scan(QUEUE, (name, v) -> queues.put(name, ByteBuffer.wrap(v).getLong()));
        scan(CAPTURE, (name, v) -> captures.put(name, CaptureDefinition.decode(v)));
    }

    private void scan(String prefix, java.util.function.BiConsumer<String, byte[]> f) {
        byte[] p = Keys.meta(prefix);
        try (RocksIterator it = store.iterator(NodeStore.Family.META)) {
            for (it.seek(p); it.isValid() && Keys.hasPrefix(it.key(), p); it.next()) {
                f.accept(new String(it.key(), p.length, it.key().length - p.length, StandardCharsets.UTF_8), it.value());
            }
        }
    }

    /** Starts every capture that was enabled when the node stopped (persistent status). */
    public synchronized void startEnabled() {
        for (CaptureDefinition d : captures.values()) {
            if (d.status() == CaptureDefinition.Status.ENABLED) {
                launch(d);
            }
        }
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
        return captures.values().stream().filter(c -> c.name().equalsIgnoreCase(name)).findFirst();
    }

    public synchronized List<CaptureDefinition> captures() {
        List<CaptureDefinition> out = new ArrayList<>();
        for (CaptureDefinition d : captures.values()) {
            out.add(withRuntimeStatus(d));
        }
        return out;
    }

    private CaptureDefinition withRuntimeStatus(CaptureDefinition d) {
        Running r = running.get(d.name());
        if (r != null && r.worker().state() == CaptureState.ABORTED && d.status() != CaptureDefinition.Status.ABORTED) {
            CaptureDefinition aborted = d.aborted(902, r.worker().error());
            save(aborted);
            return aborted;
        }
        return d;
    }

    /** Creates a DISABLED capture bound to an existing queue. */
    public synchronized CaptureDefinition create(String name, String queueName, String positive, String negative,
            String user, long firstScn, long startScn) {
        if (capture(name).isPresent()) {
            throw new InvalidRequestException(ErrorCode.ALREADY_EXISTS, "capture process " + name + " already exists");
        }
        String queue = queueName(queueName).orElseThrow(() -> new InvalidRequestException(ErrorCode.NOT_FOUND,
                "queue " + queueName + " does not exist (dbms_streams_adm.set_up_queue creates it)"));
        int number = captures.values().stream().mapToInt(CaptureDefinition::captureNumber).max().orElse(0) + 1;
        if (number > 999) {
            throw new InvalidRequestException("no capture process number is left (c001 to c999 are taken)");
        }
        CaptureDefinition d = new CaptureDefinition(name, queue, positive, negative, user, CaptureDefinition.Status.DISABLED,
                firstScn, startScn, number, 0, null);
        save(d);
        return d;
    }

    private CaptureDefinition require(String name) {
        return capture(name).orElseThrow(() -> new InvalidRequestException(ErrorCode.NOT_FOUND,
                "capture process " + name + " does not exist"));
    }

    private void save(CaptureDefinition d) {
        captures.put(d.name(), d);
        store.put(NodeStore.Family.META, Keys.meta(CAPTURE + d.name()), d.encode(), true);
    }

    public synchronized void updateRuleSets(String name, String positive, String negative) {
        save(require(name).withRuleSets(positive, negative));
    }

    public synchronized void start(String name) {
        CaptureDefinition d = withRuntimeStatus(require(name));
        Running r = running.get(d.name());
        if (r != null && r.worker().state() != CaptureState.ABORTED) {
            return; // already running
        }
        if (r != null) {
            running.remove(d.name());
        }
        d = d.withStatus(CaptureDefinition.Status.ENABLED);
        save(d);
        launch(d);
    }

    public synchronized void stop(String name) {
        CaptureDefinition d = require(name);
        halt(d.name());
        save(d.withStatus(CaptureDefinition.Status.DISABLED));
    }

    public synchronized void drop(String name) {
        CaptureDefinition d = require(name);
        halt(d.name());
        captures.remove(d.name());
        try (org.rocksdb.WriteBatch b = new org.rocksdb.WriteBatch()) {
            b.delete(store.handle(NodeStore.Family.META), Keys.meta(CAPTURE + d.name()));
            b.delete(store.handle(NodeStore.Family.META), Keys.meta("ckpt/" + checkpointName(d.name())));
            store.write(b, true);
        } catch (org.rocksdb.RocksDBException e) {
            throw dev.tributary.node.errors.StorageException.from("drop capture", e);
        }
    }

    private static String checkpointName(String capture) {
        return "capture:" + capture;
    }

    private void launch(CaptureDefinition d) {
        long queueId = queues.get(d.queueName());
        RuleCapture capturer = new RuleCapture(queueId, sourceDatabase, dictionary, formatter, rules(d.name()),
                transformations, d.startScn());
        CaptureWorker worker = new CaptureWorker(checkpointName(d.name()), redo, log, capturer);
        if (log.checkpoint(checkpointName(d.name())) == 0 && d.firstScn() > 0) {
            // scanning starts at the first SCN: nothing below it can be captured
            log.append(checkpointName(d.name()), List.of(), d.firstScn() - 1);
        }
        Thread t = new Thread(worker, "tributary-capture-" + d.processName());
        t.setDaemon(true);
        t.start();
        running.put(d.name(), new Running(worker, t));
    }

    private void halt(String name) {
        Running r = running.remove(name);
        if (r != null) {
            r.worker().stop();
            try {
                r.thread().join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
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
                    CaptureDefinition d = captures.get(capture);
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

    public synchronized Collection<StreamsClient> clients() {
        List<StreamsClient> out = new ArrayList<>();
        for (CaptureDefinition d : captures.values()) {
            out.add(client(d));
        }
        return out;
    }

    /** The running worker of a capture, if it runs. */
    public synchronized Optional<CaptureWorker> worker(String name) {
        return capture(name).map(d -> running.get(d.name())).map(Running::worker);
    }

    public long checkpointOf(String name) {
        return log.checkpoint(checkpointName(name));
    }

    @Override
    public synchronized void close() {
        for (String name : new ArrayList<>(running.keySet())) {
            halt(name);
        }
    }
}
