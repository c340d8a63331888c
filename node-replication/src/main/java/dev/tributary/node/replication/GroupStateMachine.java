package dev.tributary.node.replication;

import dev.tributary.node.storage.NodeStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.storage.FileInfo;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.SnapshotInfo;
import org.apache.ratis.statemachine.SnapshotRetentionPolicy;
import org.apache.ratis.statemachine.StateMachineStorage;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.statemachine.impl.FileListSnapshotInfo;
import org.apache.ratis.util.LifeCycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One replica of a replica group: the store a group's committed log entries are applied to.
 *
 * <p>An entry is a RocksDB {@code WriteBatch} the group's leader built (rows, redo, whatever its
 * transaction wrote); every replica applies it verbatim together with the entry's term and index
 * in one atomic write, so after a crash the store says exactly which entries it holds and Ratis
 * replays the rest from its log — no entry twice, none lost, no fsync per entry (the Raft log is
 * the durability point).
 *
 * <p>An entry of a commit group ({@link NodeStore#propose(long, java.util.List)}) is applied only on
 * top of the group it was built on, and otherwise skipped whole (only the applied index moves):
 * the proposer's round then fails as not applied. The last group applied is kept in the store
 * with the applied index, so a restart and a snapshot carry it.
 *
 * <p>A snapshot is a RocksDB checkpoint in the state machine directory
 * ({@code sm/snapshot.<term>_<index>/}); Ratis sends its files to a replica that is too far
 * behind (or new, or wiped), which {@link #reinitialize()} then opens in place of its store.
 */
final class GroupStateMachine extends BaseStateMachine {
    private static final Logger LOG = LoggerFactory.getLogger(GroupStateMachine.class);
    static final byte[] APPLIED_KEY = "raft/applied".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    /** Begins the reply to a proposal whose entry every replica skipped. */
    private static final String SKIPPED = "skipped: ";
    private static final Pattern SNAPSHOT_DIR = Pattern.compile("snapshot\\.(\\d+)_(\\d+)");

    private final Path storeDir;
    private final NodeStore.Replicator replicator;
    private final RaftHost.RoleListener roles;
    private final CheckpointStorage storage = new CheckpointStorage();
    private volatile NodeStore store;
    private final long snapshotEveryBytes;
    private final java.util.function.Consumer<Runnable> snapshotDue;
    /** Bytes applied since the last snapshot; the state machine's thread only (apply and snapshot). */
    private long bytesSinceSnapshot;
    /** A snapshot was asked for and the request is not done yet. */
    private volatile boolean snapshotAsked;

    /**
     * @param storeDir   where this replica's live store is (outside Ratis' directories)
     * @param replicator where the store's own writes go (proposals to the group), for when this
     *                   replica leads and an instance writes to it
     * @param roles      told when this replica becomes the ready leader or learns of another leader
     */
    /**
     * @param snapshotDue asks for a snapshot once {@code snapshotEveryBytes} were applied since the
     *                    last; it runs its argument when the request is done (taken or not)
     */
    GroupStateMachine(Path storeDir, NodeStore.Replicator replicator, RaftHost.RoleListener roles, long snapshotEveryBytes,
            java.util.function.Consumer<Runnable> snapshotDue) {
        this.storeDir = storeDir;
        this.replicator = replicator;
        this.roles = roles;
        this.snapshotEveryBytes = snapshotEveryBytes;
        this.snapshotDue = snapshotDue;
    }

    @Override
    public void notifyLeaderReady() {
        roles.leaderReady(getGroupId().getUuid().toString());
    }

    /**
     * This replica stepped down. Ratis tells {@link #notifyLeaderChanged} only once a new leader
     * is known, which may be this replica again in a later term: the instance must stop now, not
     * run on through an interregnum in which another leader may have written.
     */
    @Override
    public void notifyNotLeader(java.util.Collection<org.apache.ratis.statemachine.TransactionContext> pendingEntries) {
        LOG.info("{}: this replica stepped down at applied {} with {} entries pending", getGroupId(), getLastAppliedTermIndex(),
                pendingEntries == null ? 0 : pendingEntries.size());
        roles.leaderChanged(getGroupId().getUuid().toString(), null);
    }

    @Override
    public void notifyLeaderChanged(org.apache.ratis.protocol.RaftGroupMemberId member,
            org.apache.ratis.protocol.RaftPeerId newLeader) {
        roles.leaderChanged(member.getGroupId().getUuid().toString(), newLeader == null ? null : newLeader.toString());
    }

    /** The replica's store; replaced when a snapshot is installed, so do not keep it. */
    NodeStore store() {
        NodeStore s = store;
        if (s == null) {
            throw new IllegalStateException("replica store " + storeDir + " is not open");
        }
        return s;
    }

    @Override
    public void initialize(RaftServer server, RaftGroupId groupId, RaftStorage raftStorage) throws IOException {
        super.initialize(server, groupId, raftStorage);
        getLifeCycle().startAndTransition(() -> {
            storage.init(raftStorage);
            open();
            Snapshot latest = storage.latest();
            if (latest != null && latest.termIndex().getIndex() > getLastAppliedTermIndex().getIndex()) {
                // A snapshot was installed but the node stopped before the store became it.
                store.close();
                store = null;
                restore(latest);
                open();
            }
        }, IOException.class);
    }

    /** Ratis pauses the replica before it installs a snapshot, and reinitializes it after. */
    @Override
    public void pause() {
        if (getLifeCycle().compareAndTransition(LifeCycle.State.RUNNING, LifeCycle.State.PAUSING)) {
            getLifeCycle().transition(LifeCycle.State.PAUSED);
        }
    }

    private void open() {
        NodeStore s = NodeStore.open(storeDir, replicator);
        TermIndex applied = decode(s.get(NodeStore.Family.META, APPLIED_KEY));
        store = s;
        if (applied != null) {
            setLastAppliedTermIndex(applied);
        }
    }

    @Override
    public CompletableFuture<Message> applyTransaction(TransactionContext trx) {
        LogEntryProto entry = trx.getLogEntry();
        TermIndex ti = TermIndex.valueOf(entry);
        if (ti.getIndex() <= getLastAppliedTermIndex().getIndex()) {
            return CompletableFuture.completedFuture(Message.EMPTY);
        }
        byte[] batch = entry.getStateMachineLogEntry().getLogData().toByteArray();
        NodeStore s = store();
        long lastGroup = s.lastAppliedGroup();
        Message reply = Message.EMPTY;
        if (!s.applyEntry(batch, NodeStore.Family.META, APPLIED_KEY, encode(ti))) {
            long group = NodeStore.groupOf(batch);
            // every replica skips it alike: the same log applied to the same state
            String why = "commit group " + group + " at " + ti + " was built on group " + (group - 1)
                    + ", but the last group applied is " + lastGroup;
            LOG.warn("{}: skipped an entry: {}", getGroupId(), why);
            reply = Message.valueOf(SKIPPED + why);
        }
        updateLastAppliedTermIndex(ti);
        bytesSinceSnapshot += batch.length;
        if (bytesSinceSnapshot >= snapshotEveryBytes && !snapshotAsked) {
            snapshotAsked = true;
            snapshotDue.accept(() -> snapshotAsked = false);
        }
        return CompletableFuture.completedFuture(reply);
    }

    /**
     * What the reply to a proposal says when its entry was skipped ({@link NodeStore#applyEntry}),
     * or null when it was applied.
     */
    static String skipped(Message reply) {
        String content = reply == null ? "" : reply.getContent().toStringUtf8();
        return content.startsWith(SKIPPED) ? content.substring(SKIPPED.length()) : null;
    }

    /**
     * A log entry that is not a write (a configuration or a leader's metadata entry) is applied
     * too: the applied index moves, and is kept in the store, so replicas that applied the same
     * entries have the same bookkeeping whatever entry they stopped at or snapshot they installed.
     */
    @Override
    public void notifyTermIndexUpdated(long term, long index) {
        if (index <= getLastAppliedTermIndex().getIndex()) {
            return; // replayed after a restart: Ratis replays its log from its last snapshot
        }
        super.notifyTermIndexUpdated(term, index);
        NodeStore s = store;
        if (s != null) {
            s.writeReplicatedPut(NodeStore.Family.META, APPLIED_KEY, encode(TermIndex.valueOf(term, index)));
        }
    }

    @Override
    public long takeSnapshot() throws IOException {
        bytesSinceSnapshot = 0;
        TermIndex ti = getLastAppliedTermIndex();
        if (ti.getIndex() < 0) {
            return -1;
        }
        Path dir = storage.dirOf(ti);
        if (!Files.exists(dir)) {
            Path tmp = storage.smDir.resolve("checkpoint.tmp");
            deleteTree(tmp);
            store().checkpoint(tmp);
            Files.move(tmp, dir, StandardCopyOption.ATOMIC_MOVE);
        }
        storage.removeOlderThan(ti);
        return ti.getIndex();
    }

    @Override
    public SnapshotInfo getLatestSnapshot() {
        return storage.getLatestSnapshot();
    }

    @Override
    public StateMachineStorage getStateMachineStorage() {
        return storage;
    }

    /** After Ratis installed a snapshot from the leader: the store becomes that snapshot. */
    @Override
    public void reinitialize() throws IOException {
        Snapshot latest = storage.latest();
        if (latest != null && latest.termIndex().getIndex() > getLastAppliedTermIndex().getIndex()) {
            NodeStore old = store;
            store = null;
            if (old != null) {
                old.close();
            }
            restore(latest);
            open();
            LOG.info("{}: installed snapshot {} from the leader", getGroupId(), latest.termIndex());
        }
        if (getLifeCycleState() == LifeCycle.State.PAUSED) {
            getLifeCycle().transition(LifeCycle.State.STARTING);
            getLifeCycle().transition(LifeCycle.State.RUNNING);
        }
    }

    @Override
    public void close() throws IOException {
        super.close();
        NodeStore s = store;
        store = null;
        if (s != null) {
            s.close();
        }
    }

    /** Replaces the store with a snapshot's files and records the snapshot's index in it. */
    private void restore(Snapshot snapshot) throws IOException {
        deleteTree(storeDir);
        Files.createDirectories(storeDir);
        try (Stream<Path> files = Files.list(snapshot.dir())) {
            for (Path f : (Iterable<Path>) files::iterator) {
                String name = f.getFileName().toString();
                if (name.endsWith(".md5")) {
                    continue;
                }
                // SST files never change once written: link them. The rest (MANIFEST, OPTIONS,
                // CURRENT, WAL) the opened store may write to, so it gets its own copies.
                if (name.endsWith(".sst")) {
                    Files.createLink(storeDir.resolve(name), f);
                } else {
                    Files.copy(f, storeDir.resolve(name));
                }
            }
        }
        try (NodeStore s = NodeStore.open(storeDir)) {
            s.put(NodeStore.Family.META, APPLIED_KEY, encode(snapshot.termIndex()), true);
        }
    }

    static byte[] encode(TermIndex ti) {
        return ByteBuffer.allocate(16).putLong(ti.getTerm()).putLong(ti.getIndex()).array();
    }

    static TermIndex decode(byte[] b) {
        if (b == null) {
            return null;
        }
        ByteBuffer buf = ByteBuffer.wrap(b);
        return TermIndex.valueOf(buf.getLong(), buf.getLong());
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    private record Snapshot(Path dir, TermIndex termIndex) {
    }

    /** The snapshots in the state machine directory, newest last. */
    private static final class CheckpointStorage implements StateMachineStorage {
        private volatile Path smDir;
        /** Ratis asks for the latest snapshot on every append round: list its files once. */
        private volatile FileListSnapshotInfo listed;

        @Override
        public void init(RaftStorage raftStorage) throws IOException {
            smDir = raftStorage.getStorageDir().getStateMachineDir().toPath();
            Files.createDirectories(smDir);
        }

        Path dirOf(TermIndex ti) {
            return smDir.resolve("snapshot." + ti.getTerm() + "_" + ti.getIndex());
        }

        Snapshot latest() {
            Path dir = smDir;
            if (dir == null || !Files.isDirectory(dir)) {
                return null;
            }
            try (Stream<Path> children = Files.list(dir)) {
                return children.map(p -> {
                    Matcher m = SNAPSHOT_DIR.matcher(p.getFileName().toString());
                    return m.matches() && Files.isDirectory(p)
                            ? new Snapshot(p, TermIndex.valueOf(Long.parseLong(m.group(1)), Long.parseLong(m.group(2))))
                            : null;
                }).filter(java.util.Objects::nonNull)
                        .max(Comparator.comparingLong(s -> s.termIndex().getIndex())).orElse(null);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        void removeOlderThan(TermIndex keep) throws IOException {
            try (Stream<Path> children = Files.list(smDir)) {
                for (Path p : children.toList()) {
                    Matcher m = SNAPSHOT_DIR.matcher(p.getFileName().toString());
                    if (m.matches() && Long.parseLong(m.group(2)) < keep.getIndex()) {
                        deleteTree(p);
                    }
                }
            }
        }

        @Override
        public SnapshotInfo getLatestSnapshot() {
            Snapshot s = latest();
            if (s == null) {
                return null;
            }
            FileListSnapshotInfo cached = listed;
            if (cached != null && cached.getTermIndex().equals(s.termIndex())) {
                return cached;
            }
            List<FileInfo> files = new ArrayList<>();
            try (Stream<Path> list = Files.list(s.dir())) {
                list.filter(p -> !p.getFileName().toString().endsWith(".md5")).sorted()
                        .forEach(p -> files.add(new FileInfo(p.toAbsolutePath(), null)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            listed = new FileListSnapshotInfo(files, s.termIndex());
            return listed;
        }

        @Override
        public void format() {
        }

        @Override
        public void cleanupOldSnapshots(SnapshotRetentionPolicy policy) {
            // takeSnapshot keeps only the newest.
        }
    }
}
