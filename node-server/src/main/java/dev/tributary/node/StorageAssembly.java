package dev.tributary.node;

import dev.tributary.dictionary.MultiversionDictionary;
import dev.tributary.generations.VnodeTokens;
import dev.tributary.node.capture.RocksDbRedoLog;
import dev.tributary.node.errors.ErrorCode;
import dev.tributary.node.errors.TributaryException;
import dev.tributary.node.exec.SchemaService;
import dev.tributary.node.storage.Keys;
import dev.tributary.node.storage.NodeStore;
import dev.tributary.node.time.HybridLogicalClock;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.UUID;
import java.util.random.RandomGenerator;

/**
 * The node's storage: its RocksDB store (opened here, or a replica group's that the group owns),
 * the identity and vnode tokens kept in it, the data dictionary rebuilt from it, the redo thread
 * and the hybrid logical clock, which starts past every SCN the store holds. Closes the store it
 * opened.
 */
final class StorageAssembly {
    final NodeStore store;
    final UUID hostId;
    final List<Long> tokens;
    final MultiversionDictionary dictionary;
    final HybridLogicalClock clock;
    final RocksDbRedoLog redo;

    /**
     * @param replicatedStore a replica group's store the node runs on, or null: the node opens its own
     */
    StorageAssembly(StartedParts parts, NodeContext node, NodeStore replicatedStore) {
        NodeConfig config = node.config();
        if (replicatedStore != null) {
            store = replicatedStore;
        } else {
            store = parts.add(NodeStore.open(config.dataDir().resolve("rocksdb"), null,
                    new NodeStore.Limits(config.maxDiskBytes(), config.memtableBytes())));
        }
        hostId = identity(store, node.random());
        byte[] left = store.get(NodeStore.Family.META, Keys.meta(NodeOperations.DECOMMISSIONED));
        if (left != null) {
            throw new TributaryException(ErrorCode.INVALID_REQUEST, "node " + hostId + " was decommissioned at "
                    + new String(left, StandardCharsets.UTF_8) + "; start it with an empty --data-dir to join the cluster again");
        }
        tokens = tokens(store, config.numTokens(), node.random());
        dictionary = SchemaService.load(store);
        clock = new HybridLogicalClock(node.wallMillis());
        redo = new RocksDbRedoLog(store);
        // SCNs keep increasing across restarts even if the wall clock went back
        clock.observe(Math.max(redo.lastScn(), dictionary.latest().scn()));
    }

    private static UUID identity(NodeStore store, RandomGenerator random) {
        byte[] key = Keys.meta("node/host_id");
        byte[] v = store.get(NodeStore.Family.META, key);
        if (v != null) {
            return UUID.fromString(new String(v, StandardCharsets.UTF_8));
        }
        UUID id = new UUID(random.nextLong() & ~0xF000L | 0x4000L, random.nextLong() & 0x3FFFFFFFFFFFFFFFL | 0x8000000000000000L);
        store.put(NodeStore.Family.META, key, id.toString().getBytes(StandardCharsets.UTF_8), true);
        return id;
    }

    /** The node's vnode tokens: picked once, then kept in its store so a restart keeps them. */
    private static List<Long> tokens(NodeStore store, int numTokens, RandomGenerator random) {
        byte[] key = Keys.meta("node/tokens");
        byte[] v = store.get(NodeStore.Family.META, key);
        if (v != null) {
            ByteBuffer b = ByteBuffer.wrap(v);
            List<Long> out = new ArrayList<>();
            while (b.hasRemaining()) {
                out.add(b.getLong());
            }
            return out;
        }
        List<Long> picked = VnodeTokens.pick(numTokens, random, new HashSet<>());
        ByteBuffer b = ByteBuffer.allocate(8 * picked.size());
        picked.forEach(b::putLong);
        store.put(NodeStore.Family.META, key, b.array(), true);
        return picked;
    }
}
