package dev.tributary.node.replication;

import dev.tributary.node.errors.ErrorCode;
import dev.tributary.node.errors.TributaryException;
import dev.tributary.node.storage.NodeStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.ratis.RaftConfigKeys;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.GroupManagementRequest;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.protocol.SetConfigurationRequest;
import org.apache.ratis.protocol.SnapshotManagementRequest;
import org.apache.ratis.rpc.SupportedRpcType;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.util.SizeInBytes;
import org.apache.ratis.util.TimeDuration;

/**
 * A node's one Ratis server, hosting a replica of every replica group the node is a member of
 * (docs/REPLICATION.md). Proposals are submitted to the local division only: an entry is built
 * from the leader's own applied state, so it may be appended only where it was built — a node
 * that is not the leader refuses, and the caller routes the write to the leader.
 *
 * <p>Directories: Ratis' logs and snapshots under {@code raftDir/<group uuid>/}, each replica's
 * store under {@code storesDir/<group uuid>/}.
 */
public final class RaftHost implements AutoCloseable {

    /** How elections and proposals are timed; tests shorten them. */
    /**
     * @param snapshotEveryEntries a snapshot (and the purge of the log below it) after this many entries
     * @param snapshotEveryBytes   ... or once the entries applied since the last one hold this many
     *                             bytes, whichever comes first: at 100 rows a transaction, 100,000
     *                             entries were gigabytes of Raft log
     */
    public record Tuning(Duration electionMin, Duration electionMax, Duration proposalTimeout,
            long snapshotEveryEntries, long snapshotEveryBytes) {
        public static Tuning defaults() {
            return new Tuning(Duration.ofMillis(1000), Duration.ofMillis(2000), Duration.ofSeconds(10), 100_000, 64L << 20);
        }
    }

    /** Told of role changes of this node's replicas, by group id (a UUID string). */
    public interface RoleListener {
        /** This replica leads the group and has applied every entry of earlier terms. */
        void leaderReady(String group);

        /** The group has a new leader ({@code null}: none known yet), this replica or another. */
        void leaderChanged(String group, String leader);

        RoleListener NONE = new RoleListener() {
            @Override
            public void leaderReady(String group) {
            }

            @Override
            public void leaderChanged(String group, String leader) {
            }
        };
    }

    /**
     * TLS on the Raft port and on the channels to the other replicas: the node's certificate and
     * PKCS#8 key (PEM), and what it trusts (the client CA, else its own chain); with
     * {@code mutual}, replicas must present a certificate the CA signed.
     */
    public record Tls(java.io.File key, java.io.File cert, java.io.File trust, boolean mutual) {
    }

    /** Closed log segments whose entries a replica keeps in its heap (Ratis' default: 6). */
    static final int SEGMENT_CACHE_SEGMENTS = 2;
    /** ... and their bytes at most (Ratis' default: 200 MB per replica). */
    static final SizeInBytes SEGMENT_CACHE_BYTES = SizeInBytes.valueOf("24MB");
    /**
     * The buffer each replica writes its log through (Ratis' default, 8 MB, allocated off-heap per
     * replica); no entry may be larger, and Ratis requires it to exceed the appender's bound by 8.
     */
    static final long LOG_WRITE_BUFFER_BYTES = 8L << 20;
    /**
     * The most one appendEntries request carries, so the largest entry a group accepts. Ratis'
     * default, 4 MB, refused a capture's append of 8,192 records of larger rows, or one large
     * transaction; the log's write buffer allows 8 MB, so that is the bound. A commit
     * group's entry stays under 3 MB ({@code CommitPipeline}). It is a bound, not a buffer: a
     * request holds the cached entries it sends.
     */
    static final SizeInBytes APPENDER_BUFFER_BYTES = SizeInBytes.valueOf(LOG_WRITE_BUFFER_BYTES - 8);

    private final RaftPeerId self;
    private final RaftServer server;
    /** The TLS configuration every Ratis server and client of this host is built with (empty: plaintext). */
    private final org.apache.ratis.conf.Parameters parameters;
    private final String host;
    private final Tuning tuning;
    private final ClientId clientId = ClientId.randomId();
    private final AtomicLong callIds = new AtomicLong();
    /** Runs the snapshots asked for by size, one at a time. */
    private final java.util.concurrent.ExecutorService snapshots = java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "tributary-raft-snapshots");
        t.setDaemon(true);
        return t;
    });

    private RaftHost(RaftPeerId self, RaftServer server, String host, Tuning tuning, org.apache.ratis.conf.Parameters parameters) {
        this.parameters = parameters;
        this.self = self;
        this.server = server;
        this.host = host;
        this.tuning = tuning;
    }

    /**
     * Starts the server on {@code listen} (port 0 picks one; see {@link #address()}); the groups it
     * held before a restart come back with their logs and stores.
     */
    public static RaftHost start(String nodeId, InetSocketAddress listen, Path raftDir, Path storesDir,
            Tuning tuning) {
        return start(nodeId, listen, raftDir, storesDir, tuning, RoleListener.NONE);
    }

    /** As above, telling {@code roles} when this node's replicas gain or lose leadership. */
    public static RaftHost start(String nodeId, InetSocketAddress listen, Path raftDir, Path storesDir,
            Tuning tuning, RoleListener roles) {
        return start(nodeId, listen, raftDir, storesDir, tuning, roles, null);
    }

    /** As above, with TLS on the Raft port and to the other replicas ({@code tls} null: plaintext). */
    public static RaftHost start(String nodeId, InetSocketAddress listen, Path raftDir, Path storesDir,
            Tuning tuning, RoleListener roles, Tls tls) {
        org.apache.ratis.conf.Parameters parameters = new org.apache.ratis.conf.Parameters();
        if (tls != null) {
            GrpcConfigKeys.TLS.setConf(parameters, new org.apache.ratis.grpc.GrpcTlsConfig(tls.key(), tls.cert(), tls.trust(),
                    tls.mutual()));
        }
        RaftProperties p = new RaftProperties();
        RaftConfigKeys.Rpc.setType(p, SupportedRpcType.GRPC);
        GrpcConfigKeys.Server.setHost(p, listen.getHostString());
        GrpcConfigKeys.Server.setPort(p, listen.getPort());
        RaftServerConfigKeys.setStorageDir(p, List.of(raftDir.toFile()));
        RaftServerConfigKeys.Rpc.setTimeoutMin(p, TimeDuration.valueOf(tuning.electionMin().toMillis(), TimeUnit.MILLISECONDS));
        RaftServerConfigKeys.Rpc.setTimeoutMax(p, TimeDuration.valueOf(tuning.electionMax().toMillis(), TimeUnit.MILLISECONDS));
        // a group of one grows to three in one change when a keyspace of factor 3 arrives: two new
        // members at once are a majority of the new configuration, which Ratis refuses by default
        RaftServerConfigKeys.LeaderElection.setMemberMajorityAdd(p, true);
        RaftServerConfigKeys.Snapshot.setAutoTriggerEnabled(p, true);
        RaftServerConfigKeys.Snapshot.setAutoTriggerThreshold(p, tuning.snapshotEveryEntries());
        // The log below a snapshot is not needed once every replica has the snapshot or the
        // entries; a replica further behind gets the snapshot.
        RaftServerConfigKeys.Log.setPurgeUptoSnapshotIndex(p, true);
        RaftServerConfigKeys.Log.setSegmentSizeMax(p, SizeInBytes.valueOf("8MB"));
        // Memory (RSS <= 512 MB per node, docs/BENCHMARKS.md): Ratis keeps up to 6 closed segments
        // (200 MB) of entries in the heap per group for its appenders, and a node hosts a replica
        // of every group of its factor. Applied entries are in the store and the followers of a
        // healthy group are within the open segment, so two closed segments per group are kept; a
        // follower further behind is sent entries read back from the log file.
        RaftServerConfigKeys.Log.setSegmentCacheNumMax(p, SEGMENT_CACHE_SEGMENTS);
        RaftServerConfigKeys.Log.setSegmentCacheSizeMax(p, SEGMENT_CACHE_BYTES);
        // The appender's buffer bounds what one appendEntries carries, and Ratis refuses a proposal
        // whose entry is larger ("Log entry size ... exceeds the max buffer limit")
        RaftServerConfigKeys.Log.setWriteBufferSize(p, SizeInBytes.valueOf(LOG_WRITE_BUFFER_BYTES));
        RaftServerConfigKeys.Log.Appender.setBufferByteLimit(p, APPENDER_BUFFER_BYTES);
        RaftServerConfigKeys.Log.Appender.setInstallSnapshotEnabled(p, true);
        // Ratis' default backs off to 5 s per attempt after 30 failed ones, and counts the
        // follower's first "send from index i" answer as one more: a replica back after a short
        // outage then gets one request every 5 s, lags by minutes, and its leader loses the
        // majority as soon as another replica fails. A dead peer is cheap to retry once a second.
        RaftServerConfigKeys.Log.Appender.setRetryPolicy(p, "1ms,10, 100ms,20, 1s,1000000");
        // after stepping down, Ratis waits 10 s by default before this replica stands again; a
        // group with one replica left besides it would have no leader for that long
        RaftServerConfigKeys.LeaderElection.setLeaderStepDownWaitTime(p,
                TimeDuration.valueOf(tuning.electionMax().toMillis(), TimeUnit.MILLISECONDS));
        // the registry runs when a group is added or found on disk at start, after the host exists
        java.util.concurrent.atomic.AtomicReference<RaftHost> host = new java.util.concurrent.atomic.AtomicReference<>();
        try {
            RaftServer server = RaftServer.newBuilder()
                    .setServerId(RaftPeerId.valueOf(nodeId))
                    .setProperties(p)
                    .setParameters(parameters)
                    .setStateMachineRegistry(gid -> new GroupStateMachine(storesDir.resolve(gid.getUuid().toString()),
                            new GroupReplicator(host, gid), roles, tuning.snapshotEveryBytes(),
                            asked -> host.get().snapshotSoon(gid, asked)))
                    .build();
            host.set(new RaftHost(RaftPeerId.valueOf(nodeId), server, listen.getHostString(), tuning, parameters));
            server.start();
            return host.get();
        } catch (IOException e) {
            throw new UncheckedIOException("start the Raft server of " + nodeId + " on " + listen, e);
        }
    }

    /** The address peers reach the server on: its listen host, and the port it picked if asked for 0. */
    public InetSocketAddress address() {
        return new InetSocketAddress(host, server.getServerRpc().getInetSocketAddress().getPort());
    }

    public String nodeId() {
        return self.toString();
    }

    /**
     * A group's Ratis id, the same on every node: a group named by a UUID (an instance's host id)
     * has that UUID, so role changes name it back; any other name is hashed to one.
     */
    public static RaftGroupId groupId(String groupName) {
        try {
            return RaftGroupId.valueOf(UUID.fromString(groupName));
        } catch (IllegalArgumentException notAUuid) {
            return RaftGroupId.valueOf(UUID.nameUUIDFromBytes(("tributary-group:" + groupName).getBytes(StandardCharsets.UTF_8)));
        }
    }

    public static RaftPeer peer(String nodeId, InetSocketAddress address) {
        return peer(nodeId, address, 0);
    }

    /**
     * A member; Ratis hands leadership to the caught-up member of the highest priority, so the
     * group of a node's own instance gives that node the highest and the instance comes home.
     */
    public static RaftPeer peer(String nodeId, InetSocketAddress address, int priority) {
        return RaftPeer.newBuilder().setId(nodeId).setAddress(address.getHostString() + ":" + address.getPort())
                .setPriority(priority).build();
    }

    /** The members of the group's current Raft configuration, as this replica knows it. */
    public java.util.Set<String> members(String groupName) {
        try {
            java.util.Set<String> out = new java.util.TreeSet<>();
            for (RaftPeer p : server.getDivision(groupId(groupName)).getRaftConf().getCurrentPeers()) {
                out.add(p.getId().toString());
            }
            return out;
        } catch (IOException e) {
            return java.util.Set.of();
        }
    }

    /** Starts this node's replica of a group (a new group, or a member added to one). */
    public void join(String groupName, List<RaftPeer> members) {
        RaftGroup group = RaftGroup.valueOf(groupId(groupName), members);
        call(() -> server.groupManagement(GroupManagementRequest.newAdd(clientId, self, callIds.incrementAndGet(),
                group)), "add replica of group " + groupName);
    }

    /** Stops and deletes this node's replica of a group (after it was removed from the group). */
    public void leave(String groupName) {
        call(() -> server.groupManagement(GroupManagementRequest.newRemove(clientId, self, callIds.incrementAndGet(),
                groupId(groupName), true, false)), "remove replica of group " + groupName);
    }

    /** The groups this node holds a replica of (their ids, UUID strings). */
    public java.util.Set<String> groups() {
        java.util.Set<String> out = new java.util.TreeSet<>();
        try {
            for (RaftGroupId g : server.getGroupIds()) {
                out.add(g.getUuid().toString());
            }
        } catch (RuntimeException e) {
            // the server is closing
        }
        return out;
    }

    /**
     * Whether this node's replica of the group exists but was closed by Ratis: a member that
     * campaigned before the leader added it is told by the others to shut down. Its storage stays.
     */
    public boolean closedReplica(String groupName) {
        try {
            return !server.getDivision(groupId(groupName)).getInfo().isAlive();
        } catch (IOException e) {
            return false;
        }
    }

    /** Starts again a replica Ratis closed, from its storage (see {@link #closedReplica}). */
    public void restartReplica(String groupName, List<RaftPeer> members) {
        call(() -> server.groupManagement(GroupManagementRequest.newRemove(clientId, self, callIds.incrementAndGet(),
                groupId(groupName), false, false)), "unload the closed replica of group " + groupName);
        join(groupName, members);
    }

    /** Whether this node hosts a replica of the group. */
    public boolean hosts(String groupName) {
        try {
            server.getDivision(groupId(groupName));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Asks the group's leader to hand leadership to this node. Ratis does that by itself for a
     * member of higher priority only once it is exactly caught up, which under steady writes it
     * never is; a transfer makes the leader hold new writes until this node has caught up.
     */
    public void takeLeadership(String groupName, Duration timeout) {
        RaftGroup group;
        try {
            group = server.getDivision(groupId(groupName)).getGroup();
        } catch (IOException e) {
            throw new TributaryException(ErrorCode.UNAVAILABLE, "this node holds no replica of group " + groupName, e);
        }
        RaftProperties p = new RaftProperties();
        RaftConfigKeys.Rpc.setType(p, SupportedRpcType.GRPC);
        try (org.apache.ratis.client.RaftClient c = org.apache.ratis.client.RaftClient.newBuilder().setProperties(p)
                .setParameters(parameters).setRaftGroup(group).setClientId(ClientId.randomId()).build()) {
            RaftClientReply r = c.admin().transferLeadership(self, timeout.toMillis());
            if (!r.isSuccess()) {
                throw new TributaryException(ErrorCode.UNAVAILABLE, "leadership of group " + groupName + " did not move to "
                        + self + ": " + r.getException(), r.getException());
            }
        } catch (IOException e) {
            throw new TributaryException(ErrorCode.UNAVAILABLE, "leadership of group " + groupName + " did not move to "
                    + self + ": " + e.getMessage(), e);
        }
    }

    /** A group as this node's replica of it stands: its role here (lower case), term and log indexes. */
    public record GroupStatus(String group, String role, long term, long commitIndex, long appliedIndex) {
    }

    /** Every group this node holds a replica of; one closing meanwhile is left out. */
    public List<GroupStatus> status() {
        List<GroupStatus> out = new java.util.ArrayList<>();
        for (String g : groups()) {
            try {
                var division = server.getDivision(groupId(g));
                var info = division.getInfo();
                out.add(new GroupStatus(g, info.getCurrentRole().name().toLowerCase(java.util.Locale.ROOT), info.getCurrentTerm(),
                        division.getRaftLog().getLastCommittedIndex(), info.getLastAppliedIndex()));
            } catch (IOException | RuntimeException e) {
                // the replica left or is closing: not in this scrape
            }
        }
        return out;
    }

    /** The group's leader as this replica knows it, or null. */
    public String leader(String groupName) {
        try {
            RaftPeerId id = server.getDivision(groupId(groupName)).getInfo().getLeaderId();
            return id == null ? null : id.toString();
        } catch (IOException e) {
            return null;
        }
    }

    /** Whether this node leads the group and has applied every entry of earlier terms. */
    public boolean leads(String groupName) {
        try {
            var info = server.getDivision(groupId(groupName)).getInfo();
            return info.isLeader() && info.isLeaderReady();
        } catch (IOException e) {
            return false;
        }
    }

    /** This node's replica of the group's store; replaced when a snapshot is installed, so do not keep it. */
    public NodeStore store(String groupName) {
        return stateMachine(groupName).store();
    }

    public long appliedIndex(String groupName) {
        return stateMachine(groupName).getLastAppliedTermIndex().getIndex();
    }

    private GroupStateMachine stateMachine(String groupName) {
        try {
            return (GroupStateMachine) server.getDivision(groupId(groupName)).getStateMachine();
        } catch (IOException e) {
            throw new TributaryException(ErrorCode.UNAVAILABLE, "this node holds no replica of group " + groupName, e);
        }
    }

    /**
     * Proposes one entry (a serialized WriteBatch) to a group this node leads. Completes with the
     * entry's log index once a majority holds it and this replica applied it; fails with
     * UNAVAILABLE when this node is not the leader or no majority answered within the proposal
     * timeout — then the entry may still commit later, which is what idempotency keys are for — or
     * when the entry committed but every replica skipped it (a commit group's entry built on a group
     * they do not hold, {@link NodeStore#propose(long, List)}): then it certainly was not applied
     * ({@link TributaryException#notApplied()}).
     */
    public CompletableFuture<Long> propose(String groupName, byte[] entry) {
        return propose(groupId(groupName), groupName, entry);
    }

    /** A replicated store's write: proposed, and waited for until applied here. */
    private void replicate(RaftGroupId gid, byte[] batch) {
        try {
            propose(gid, gid.getUuid().toString(), batch).join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof TributaryException te) {
                throw te;
            }
            throw e;
        }
    }

    /** A replica store's writes, proposed to its group on this host (the host exists once a store opens). */
    private record GroupReplicator(java.util.concurrent.atomic.AtomicReference<RaftHost> host, RaftGroupId gid)
            implements NodeStore.Replicator {
        @Override
        public void replicate(byte[] batchData) {
            host.get().replicate(gid, batchData);
        }

        @Override
        public CompletableFuture<Void> propose(byte[] batchData) {
            return host.get().propose(gid, gid.getUuid().toString(), batchData).thenApply(index -> null);
        }
    }

    private CompletableFuture<Long> propose(RaftGroupId gid, String groupName, byte[] entry) {
        RaftClientRequest request = RaftClientRequest.newBuilder()
                .setClientId(clientId).setServerId(self).setGroupId(gid)
                .setCallId(callIds.incrementAndGet())
                .setMessage(Message.valueOf(ByteString.copyFrom(entry)))
                .setType(RaftClientRequest.writeRequestType())
                .build();
        CompletableFuture<RaftClientReply> reply;
        try {
            reply = server.submitClientRequestAsync(request);
        } catch (IOException e) {
            return CompletableFuture.failedFuture(unavailable(groupName, e));
        }
        return reply.orTimeout(tuning.proposalTimeout().toMillis(), TimeUnit.MILLISECONDS).handle((r, err) -> {
            if (err != null) {
                Throwable cause = err instanceof CompletionException && err.getCause() != null ? err.getCause() : err;
                throw unavailable(groupName, cause);
            }
            if (!r.isSuccess()) {
                throw unavailable(groupName, r.getException());
            }
            String skipped = GroupStateMachine.skipped(r.getMessage());
            if (skipped != null) {
                throw TributaryException.beforeApplying(ErrorCode.UNAVAILABLE, "replica group " + groupName
                        + " did not apply the entry proposed on " + self + ": " + skipped + "; retry");
            }
            return r.getLogIndex();
        });
    }

    private TributaryException unavailable(String groupName, Throwable cause) {
        String why = cause instanceof TimeoutException
                ? "no majority of its replicas acknowledged within " + tuning.proposalTimeout().toMillis() + " ms"
                : String.valueOf(cause.getMessage());
        return new TributaryException(ErrorCode.UNAVAILABLE,
                "replica group " + groupName + " did not accept the write on " + self + ": " + why, cause);
    }

    /**
     * Changes a group's members (Raft joint consensus); must run where the group's leader is.
     * A new member catches up from the leader's log or, if that was purged, its snapshot.
     */
    /**
     * Asks this replica of {@code gid} for a snapshot, off the state machine's thread (Ratis takes
     * it there, after the entries already applied); the log below it is purged.
     */
    private void snapshotSoon(RaftGroupId gid, Runnable asked) {
        snapshots.execute(() -> {
            try {
                // a creation gap of 1: Ratis' default skips a snapshot within 1,024 entries of the last
                call(() -> server.snapshotManagement(SnapshotManagementRequest.newCreate(clientId, self, gid,
                        callIds.incrementAndGet(), tuning.proposalTimeout().toMillis(), 1)), "snapshot of group " + gid.getUuid());
            } catch (RuntimeException e) {
                // the next entries ask again; the entry-count trigger stays as a backstop
                org.slf4j.LoggerFactory.getLogger(RaftHost.class).warn("{}", e.getMessage());
            } finally {
                asked.run();
            }
        });
    }

    public void reconfigure(String groupName, List<RaftPeer> members) {
        SetConfigurationRequest request = new SetConfigurationRequest(clientId, self, groupId(groupName),
                callIds.incrementAndGet(), SetConfigurationRequest.Arguments.newBuilder().setServersInNewConf(members).build());
        call(() -> server.setConfiguration(request), "reconfigure group " + groupName);
    }

    @FunctionalInterface
    private interface AdminCall {
        RaftClientReply run() throws IOException;
    }

    private static void call(AdminCall call, String what) {
        RaftClientReply reply;
        try {
            reply = call.run();
        } catch (IOException e) {
            throw new TributaryException(ErrorCode.UNAVAILABLE, what + " failed: " + e.getMessage(), e);
        }
        if (!reply.isSuccess()) {
            throw new TributaryException(ErrorCode.UNAVAILABLE, what + " failed: " + reply.getException(),
                    reply.getException());
        }
    }

    @Override
    public void close() {
        snapshots.shutdownNow();
        try {
            server.close();
        } catch (IOException e) {
            throw new UncheckedIOException("close the Raft server of " + self, e);
        }
    }
}
