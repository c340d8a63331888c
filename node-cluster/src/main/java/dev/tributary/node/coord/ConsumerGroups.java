package dev.tributary.node.coord;

import dev.tributary.node.errors.ErrorCode;
import dev.tributary.node.errors.InvalidRequestException;
import dev.tributary.node.errors.TributaryException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Properties;
import java.util.function.LongSupplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;

/**
 * Consumer groups in ZooKeeper (see groups.proto for the contract). Under {@code groups/<name>}:
 * the group's log, epoch, lease and low watermark; {@code members/<id>}: each member's lease
 * expiry and low watermark; {@code positions/<stream id hex>}: the committed position of each
 * stream (opaque bytes, the wire's StreamPosition). Every operation of a group runs under the
 * group's mutex ({@code locks/groups/<name>}), so membership changes, the epoch check of a commit
 * and its writes are atomic with respect to each other, whichever node serves them.
 * Thread-safe.
 */
public final class ConsumerGroups {
    /** Used when a join asks for no particular lease. */
    public static final long DEFAULT_LEASE_MILLIS = 10_000;
    /** Positions written per ZooKeeper transaction: well inside its 1 MB request limit (a position is ~100 bytes). */
    private static final int OPS_PER_TRANSACTION = 1000;

    /** The log a group reads: a table's CDC log ("ks.t") or a queue. */
    public record GroupLog(boolean queue, String name) {
        String encode() {
            return (queue ? "queue:" : "table:") + name;
        }

        static GroupLog decode(String s) {
            return s.startsWith("queue:") ? new GroupLog(true, s.substring(6)) : new GroupLog(false, s.substring(6));
        }
    }

    /** A group as it stands: members sorted by id. */
    public record GroupState(String name, GroupLog log, long epoch, List<String> members, long leaseMillis,
            long lowWatermarkMicros, long startMicros) {
    }

    /** @param epoch the group epoch the watermark was reported under: a member's share, and so its watermark, is per epoch */
    private record Member(String id, long expiresMillis, long watermarkMicros, long epoch) {
    }

    /** The committed positions (stream id hex → opaque position) and the epoch they were read at. */
    public record Positions(long epoch, java.util.Map<String, byte[]> byStream) {
    }

    private final CuratorFramework curator;
    private final String root;
    private final LongSupplier clock;
    private final String lockRoot;

    ConsumerGroups(CuratorFramework curator, String clusterRoot, LongSupplier clock) {
        this.curator = curator;
        this.root = clusterRoot + "/groups";
        this.clock = clock;
        this.lockRoot = clusterRoot + "/locks/groups/";
    }

    /**
     * Joins or rejoins {@code member}; creates the group, bound to {@code log} and starting at
     * {@code startMicros} (0: the earliest LCR kept), on first use.
     */
    public GroupState join(String group, GroupLog log, String member, long leaseMillis, long startMicros) {
        return lockedForMember(group, member, "join consumer group " + group, () -> {
            Properties p = read(group);
            long lease = leaseMillis > 0 ? leaseMillis : DEFAULT_LEASE_MILLIS;
            if (p == null) {
                p = new Properties();
                p.setProperty("log", log.encode());
                p.setProperty("epoch", "0");
                p.setProperty("watermark", "0");
                p.setProperty("start", Long.toString(Math.max(0, startMicros)));
                curator.create().creatingParentsIfNeeded().forPath(path(group), encode(p));
                curator.create().forPath(path(group) + "/members");
                curator.create().forPath(path(group) + "/positions");
            } else if (!p.getProperty("log").equals(log.encode())) {
                throw new InvalidRequestException("consumer group " + group + " reads " + GroupLog.decode(p.getProperty("log")).name()
                        + ", not " + log.name() + "; a group reads one log");
            }
            boolean changed = prune(group);
            String mp = path(group) + "/members/" + member;
            Member m = readMember(group, member);
            if (m == null) {
                curator.create().forPath(mp, encodeMember(new Member(member, clock.getAsLong() + lease, 0, -1)));
                changed = true;
            } else {
                curator.setData().forPath(mp, encodeMember(new Member(member, clock.getAsLong() + lease, m.watermarkMicros(),
                        m.epoch())));
            }
            p = read(group);
            p.setProperty("lease", Long.toString(lease));
            if (changed) {
                p.setProperty("epoch", Long.toString(Long.parseLong(p.getProperty("epoch")) + 1));
            }
            curator.setData().forPath(path(group), encode(p));
            return state(group, p);
        });
    }

    /** Renews the member's lease; removes members whose lease ran out. */
    public GroupState heartbeat(String group, String member) {
        return lockedForMember(group, member, "heartbeat in consumer group " + group, () -> {
            Properties p = existing(group);
            boolean changed = prune(group);
            Member m = readMember(group, member);
            if (m == null) {
                bumpIf(changed, group, p);
                throw new InvalidRequestException(ErrorCode.NOT_FOUND, "member " + member + " is not in consumer group " + group
                        + " (its lease ran out); join again");
            }
            curator.setData().forPath(path(group) + "/members/" + member,
                    encodeMember(new Member(member, clock.getAsLong() + lease(p), m.watermarkMicros(), m.epoch())));
            bumpIf(changed, group, p);
            return state(group, p);
        });
    }

    /** Removes the member at once. */
    public GroupState leave(String group, String member) {
        return lockedForMember(group, member, "leave consumer group " + group, () -> {
            Properties p = existing(group);
            boolean changed = prune(group);
            if (readMember(group, member) != null) {
                curator.delete().forPath(path(group) + "/members/" + member);
                changed = true;
            }
            bumpIf(changed, group, p);
            return state(group, p);
        });
    }

    /**
     * Commits positions (stream id → opaque position) and the member's low watermark, if the
     * member is in the group under {@code epoch}.
     *
     * @return the group's low watermark after the commit
     * @throws TributaryException FENCED when the member left or the epoch moved on
     */
    public long commit(String group, String member, long epoch, List<byte[]> streamIds, List<byte[]> positions,
            long watermarkMicros) {
        return lockedForMember(group, member, "commit in consumer group " + group, () -> {
            Properties p = existing(group);
            Member m = readMember(group, member);
            long current = Long.parseLong(p.getProperty("epoch"));
            if (m == null || m.expiresMillis() < clock.getAsLong()) {
                throw new TributaryException(ErrorCode.FENCED, "member " + member + " of consumer group " + group
                        + " has no lease; its commit is refused. Join again");
            }
            if (epoch != current) {
                throw new TributaryException(ErrorCode.FENCED, "member " + member + " of consumer group " + group
                        + " commits under epoch " + epoch + " but the group is at epoch " + current
                        + "; read the new assignment first");
            }
            // a few ZooKeeper transactions for all of them: a member committing hundreds of streams
            // must not hold the group's lock (and its own heartbeat) for hundreds of round trips
            java.util.Set<String> existing = new java.util.HashSet<>(curator.getChildren().forPath(path(group) + "/positions"));
            List<org.apache.curator.framework.api.transaction.CuratorOp> ops = new ArrayList<>();
            for (int i = 0; i < streamIds.size(); i++) {
                String name = HexFormat.of().formatHex(streamIds.get(i));
                String sp = path(group) + "/positions/" + name;
                ops.add(existing.add(name) ? curator.transactionOp().create().forPath(sp, positions.get(i))
                        : curator.transactionOp().setData().forPath(sp, positions.get(i)));
            }
            for (int from = 0; from < ops.size(); from += OPS_PER_TRANSACTION) {
                curator.transaction().forOperations(ops.subList(from, Math.min(ops.size(), from + OPS_PER_TRANSACTION)));
            }
            // within an epoch a member's watermark only rises; under a new epoch its share changed
            // (it may have taken over a stream that is behind), so its report replaces the old one
            long wm = m.epoch() == current ? Math.max(m.watermarkMicros(), watermarkMicros) : watermarkMicros;
            curator.setData().forPath(path(group) + "/members/" + member,
                    encodeMember(new Member(member, m.expiresMillis(), wm, current)));
            // the group has passed what every member has passed under the current epoch; a member
            // that has not reported under it holds the group where it was (it resumes from
            // committed positions, each at or above the group's watermark when committed)
            long low = Long.MAX_VALUE;
            for (Member x : members(group)) {
                low = Math.min(low, x.epoch() == current ? x.watermarkMicros() : 0);
            }
            long stored = Long.parseLong(p.getProperty("watermark"));
            if (low != Long.MAX_VALUE && low > stored) {
                p.setProperty("watermark", Long.toString(low));
                curator.setData().forPath(path(group), encode(p));
                stored = low;
            }
            return stored;
        });
    }

    /** The committed positions and the group's epoch. */
    public Positions positions(String group) {
        return locked(group, "read consumer group " + group, () -> {
            Properties p = existing(group);
            java.util.Map<String, byte[]> out = new java.util.TreeMap<>();
            for (String s : curator.getChildren().forPath(path(group) + "/positions")) {
                out.put(s, curator.getData().forPath(path(group) + "/positions/" + s));
            }
            return new Positions(Long.parseLong(p.getProperty("epoch")), out);
        });
    }

    /** The log a group reads (one znode read), or empty when there is no such group. */
    public java.util.Optional<GroupLog> log(String group) {
        try {
            Properties p = read(group);
            return p == null ? java.util.Optional.empty() : java.util.Optional.of(GroupLog.decode(p.getProperty("log")));
        } catch (Exception e) {
            throw new TributaryException(ErrorCode.UNAVAILABLE, "could not read consumer group " + group + " from ZooKeeper: "
                    + e, e);
        }
    }

    /** Every group, as it stands (members whose lease ran out are still listed until the group is next used). */
    public List<GroupState> all() {
        try {
            if (curator.checkExists().forPath(root) == null) {
                return List.of();
            }
            List<GroupState> out = new ArrayList<>();
            for (String g : curator.getChildren().forPath(root)) {
                Properties p = read(g);
                if (p != null) {
                    out.add(state(g, p));
                }
            }
            return out;
        } catch (KeeperException.NoNodeException e) {
            return List.of();
        } catch (Exception e) {
            throw new TributaryException(ErrorCode.UNAVAILABLE, "could not read the consumer groups from ZooKeeper: " + e, e);
        }
    }

    // ------------------------------------------------------------------ znodes

    /** {@link #locked}, for one of the group's members. */
    private <T> T lockedForMember(String group, String member, String what, TopologyLock.Body<T> body) {
        // the names become znode paths: an empty or '/'-bearing one is the client's error, not ZooKeeper's
        checkName("group", group);
        checkName("member id", member);
        return locked(group, what, body);
    }

    private <T> T locked(String group, String what, TopologyLock.Body<T> body) {
        checkName("group", group);
        return new TopologyLock(curator, lockRoot + group, "the lock of consumer group " + group).run(what, body);
    }

    private static void checkName(String what, String name) {
        if (name == null || name.isEmpty() || name.contains("/") || name.length() > 200) {
            throw new InvalidRequestException("a consumer " + what + " must be 1 to 200 characters without '/', got '" + name + "'");
        }
    }

    private String path(String group) {
        return root + "/" + group;
    }

    private Properties read(String group) throws Exception {
        try {
            Properties p = new Properties();
            p.load(new java.io.StringReader(new String(curator.getData().forPath(path(group)), StandardCharsets.UTF_8)));
            return p;
        } catch (KeeperException.NoNodeException e) {
            return null;
        }
    }

    private Properties existing(String group) throws Exception {
        Properties p = read(group);
        if (p == null) {
            throw new InvalidRequestException(ErrorCode.NOT_FOUND, "consumer group " + group + " does not exist");
        }
        return p;
    }

    private static byte[] encode(Properties p) throws java.io.IOException {
        java.io.StringWriter w = new java.io.StringWriter();
        p.store(w, null);
        return w.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static long lease(Properties p) {
        return Long.parseLong(p.getProperty("lease", Long.toString(DEFAULT_LEASE_MILLIS)));
    }

    private void bumpIf(boolean changed, String group, Properties p) throws Exception {
        if (changed) {
            p.setProperty("epoch", Long.toString(Long.parseLong(p.getProperty("epoch")) + 1));
            curator.setData().forPath(path(group), encode(p));
        }
    }

    /** Removes members whose lease ran out; whether any was. */
    private boolean prune(String group) throws Exception {
        boolean any = false;
        long now = clock.getAsLong();
        for (Member m : members(group)) {
            if (m.expiresMillis() < now) {
                curator.delete().forPath(path(group) + "/members/" + m.id());
                any = true;
            }
        }
        return any;
    }

    private List<Member> members(String group) throws Exception {
        List<Member> out = new ArrayList<>();
        for (String id : curator.getChildren().forPath(path(group) + "/members")) {
            Member m = readMember(group, id);
            if (m != null) {
                out.add(m);
            }
        }
        return out;
    }

    private Member readMember(String group, String id) throws Exception {
        try {
            String[] parts = new String(curator.getData().forPath(path(group) + "/members/" + id), StandardCharsets.UTF_8).split(",");
            return new Member(id, Long.parseLong(parts[0]), Long.parseLong(parts[1]), Long.parseLong(parts[2]));
        } catch (KeeperException.NoNodeException e) {
            return null;
        }
    }

    private static byte[] encodeMember(Member m) {
        return (m.expiresMillis() + "," + m.watermarkMicros() + "," + m.epoch()).getBytes(StandardCharsets.UTF_8);
    }

    private GroupState state(String group, Properties p) throws Exception {
        List<String> ids = new ArrayList<>();
        for (Member m : members(group)) {
            ids.add(m.id());
        }
        Collections.sort(ids);
        return new GroupState(group, GroupLog.decode(p.getProperty("log")), Long.parseLong(p.getProperty("epoch")), ids,
                lease(p), Long.parseLong(p.getProperty("watermark")), Long.parseLong(p.getProperty("start", "0")));
    }
}
