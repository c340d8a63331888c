package dev.tributary.node.capture;

import dev.tributary.dictionary.DictionaryCodec;
import dev.tributary.dictionary.DictionaryVersion;
import dev.tributary.dictionary.io.BinaryReader;
import dev.tributary.dictionary.io.BinaryWriter;
import dev.tributary.dictionary.logminer.LogMinerDictionary;
import dev.tributary.node.storage.Keys;
import dev.tributary.node.storage.NodeStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import dev.tributary.node.storage.StoreIterator;

/**
 * The node's LogMiner dictionaries, durable in {@code meta}: a header per dictionary
 * ({@code lmd/<id>}: its build SCN and the SCN it was purged below) and its versions
 * ({@code lmdv/<id>/<scn>}). It is each dictionary's {@link LogMinerDictionary.Journal}.
 * Thread-safe (synchronized).
 */
public final class LogMinerDictionaries implements LogMinerDictionary.Journal {
    private static final String HEADER = "lmd/";
    private static final String VERSION = "lmdv/";

    private final NodeStore store;
    private final Map<Long, LogMinerDictionary> dictionaries = new TreeMap<>();

    public LogMinerDictionaries(NodeStore store) {
        this.store = store;
        byte[] p = Keys.meta(HEADER);
        try (StoreIterator it = store.iterator(NodeStore.Family.META)) {
            for (it.seek(p); it.isValid() && Keys.hasPrefix(it.key(), p); it.next()) {
                long id = Keys.metaSuffix(it.key(), p.length);
                BinaryReader r = new BinaryReader(it.value());
                long buildScn = r.i64();
                long purgedBelow = r.i64();
                dictionaries.put(id, LogMinerDictionary.restore(id, buildScn, versions(id), purgedBelow, this));
            }
        }
    }

    private static byte[] versionPrefix(long id) {
        return Keys.meta(VERSION + id + "/");
    }

    private List<DictionaryVersion> versions(long id) {
        List<DictionaryVersion> out = new ArrayList<>();
        byte[] p = versionPrefix(id);
        try (StoreIterator it = store.iterator(NodeStore.Family.META)) {
            for (it.seek(p); it.isValid() && Keys.hasPrefix(it.key(), p); it.next()) {
                out.add(DictionaryCodec.decodeVersion(it.value()));
            }
        }
        return out;
    }

    private void header(long id, long buildScn, long purgedBelow) {
        store.put(NodeStore.Family.META, Keys.meta(HEADER, id), new BinaryWriter(16).i64(buildScn).i64(purgedBelow).toByteArray(),
                true);
    }

    /** A new dictionary, to be populated from the build at {@code buildScn}. */
    public synchronized LogMinerDictionary create(long buildScn) {
        long id = dictionaries.isEmpty() ? 1 : ((TreeMap<Long, LogMinerDictionary>) dictionaries).lastKey() + 1;
        header(id, buildScn, Long.MIN_VALUE);
        LogMinerDictionary d = LogMinerDictionary.create(id, buildScn, this);
        dictionaries.put(id, d);
        return d;
    }

    public synchronized LogMinerDictionary get(long id) {
        LogMinerDictionary d = dictionaries.get(id);
        if (d == null) {
            throw new IllegalStateException("LogMiner dictionary " + id + " does not exist");
        }
        return d;
    }

    /** Every dictionary, by id. */
    public synchronized List<LogMinerDictionary> all() {
        return List.copyOf(dictionaries.values());
    }

    /** Drops a dictionary no capture uses any more. */
    public synchronized void drop(long id) {
        dictionaries.remove(id);
        store.deleteRange(NodeStore.Family.META, Keys.meta(HEADER, id), Keys.meta(HEADER, id + 1), true);
        byte[] p = versionPrefix(id);
        store.deleteRange(NodeStore.Family.META, p, Keys.prefixEnd(p), true);
    }

    @Override
    public void versionAdded(long id, DictionaryVersion v) {
        store.put(NodeStore.Family.META, Keys.meta(VERSION + id + "/", v.scn()), DictionaryCodec.encode(v), true);
    }

    @Override
    public void purged(long id, long belowScn) {
        LogMinerDictionary d = dictionaries.get(id);
        // the version in force at belowScn stays; the ones before it go
        long keepFrom = d.versions().asOf(belowScn).scn();
        header(id, d.buildScn(), belowScn);
        byte[] p = versionPrefix(id);
        store.deleteRange(NodeStore.Family.META, p, Keys.meta(VERSION + id + "/", keepFrom), true);
    }
}
