package dev.tributary.client;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The consumer's pure parts — {@link StreamMerge} (merge by position below the lowest safe time,
 * dedupe of handed-over copies, the member's low watermark), {@link StreamHandoff} (what is
 * recorded as handled) and {@link StreamGate} (lineage gates, stream states) — driven by a
 * seeded, single-threaded simulation of a consumer group: fake nodes append LCRs above their safe
 * times and send them in chunks; two stream sets follow each other (vnodes kept or merged, or a
 * tablet split); up to four members share the streams by epoch, some of them slow; members
 * release, deliver, commit positions and watermarks (fenced under an old epoch), stop at a limit
 * and leave, or crash (losing what they had not committed; their streams stay unread until the
 * lease expires); every membership change rebalances; nodes join, and decommission handing their
 * LCRs to another node; retention deletes below the group's watermark. After every step it
 * checks: nothing released at or above a node's safe time, per-stream order, no child LCR before
 * its parents' (whichever member reads the parent), no committed position past an LCR no member
 * delivered, the group's watermark at or below every LCR not delivered; at the end one member
 * reading to completion has delivered every LCR ever written. It prints how many steps had two
 * or more members and how many rebalances ran.
 *
 * <p>Seeds: {@code -Dtributary.sim.seeds=N} (default 300; the {@code simulation} profile runs
 * 5,000); a failure names its seed, {@code -Dtributary.sim.seed=S} replays exactly that one.
 */
class ConsumerSimulationTest {
    private static final int STEPS = 600;

    /** An LCR: its stream, its time and a sequence number making its position unique. */
    private record L(int stream, long micros, int seq) implements Comparable<L> {
        @Override
        public int compareTo(L o) {
            int c = Long.compare(micros, o.micros);
            return c != 0 ? c : Integer.compare(seq, o.seq);
        }

        LcrPosition position() {
            return LcrPosition.of(streamId(stream), new UUID(micros, seq), 0);
        }

        static L of(int stream, LcrPosition p) {
            return new L(stream, p.time().getMostSignificantBits(), (int) p.time().getLeastSignificantBits());
        }
    }

    private static byte[] streamId(int stream) {
        return ByteBuffer.allocate(16).putInt(stream).array();
    }

    /** A fake node: its log per stream and its safe time; every LCR it will ever log is at or above the safe time. */
    private static final class Node {
        final int id;
        final Map<Integer, TreeSet<L>> log = new HashMap<>();
        long safe;

        Node(int id, long safe) {
            this.id = id;
            this.safe = safe;
        }
    }

    /** One session's read of a stream from a node: a cursor, a buffer, the safe time it was told. */
    private static final class Read {
        L after;
        final ArrayDeque<L> buffer = new ArrayDeque<>();
        long safe = Long.MIN_VALUE;
        boolean reported;
    }

    /** One session's state of a stream. */
    private static final class Run implements StreamMerge.StreamProgress {
        final int stream;
        final long openedMillis;
        final long closedMillis;
        StreamGate.Status status = StreamGate.Status.WAITING;
        final Map<Integer, Read> reads = new HashMap<>();
        final StreamHandoff<L> handoff;
        L lastReleased;
        long released;
        long delivered;
        /** Recorded by the hand-off, not yet committed. */
        StreamHandoff.Handled pending;

        Run(int stream, long openedMillis, long closedMillis, StreamHandoff<L> handoff, long from) {
            this.stream = stream;
            this.openedMillis = openedMillis;
            this.closedMillis = closedMillis;
            this.handoff = handoff;
            this.released = from;
            this.delivered = from;
        }

        @Override
        public boolean done() {
            return status == StreamGate.Status.DONE;
        }

        @Override
        public boolean waiting() {
            return status == StreamGate.Status.WAITING;
        }

        @Override
        public long deliveredMicros() {
            return delivered;
        }

        @Override
        public long openedMillis() {
            return openedMillis;
        }
    }

    /** A group member: its share of the streams under an epoch, and what it handled (lost when it crashes). */
    private static final class Member {
        final int id;
        /** Releases seldom: its streams lag the others', and hold the group's watermark back. */
        final boolean slow;
        Map<Integer, Run> runs = Map.of();
        long epoch = -1;
        long startMicros;
        boolean running;
        /** The handler stopped the member at its limit; it has not committed and left yet. */
        boolean stopping;
        final int limit;
        int handledSoFar;
        /** What this process handled, committed or not: it resumes after it when a stream comes back to it. */
        final Map<Integer, StreamHandoff.Handled> handled = new HashMap<>();
        /** The group's committed positions as this member last fetched them (the gate of a parent read elsewhere). */
        Map<Integer, StreamHandoff.Handled> fetched = Map.of();

        Member(int id, boolean slow, int limit) {
            this.id = id;
            this.slow = slow;
            this.limit = limit;
        }
    }

    /** The group as ZooKeeper holds it: a member's watermark counts only under the epoch it reported it. */
    private record Reported(long watermarkMicros, long epoch) {
    }

    private static final class Sim {
        final long seed;
        final Random rnd;
        /**
         * Streams 0..streams-1 are the first set; streams..total-1 the second's, opened at
         * {@code secondSetMillis}: one child per stream (a vnode kept, or two merged), or two (a
         * tablet split). A key's stream in each set: {@link #streamOf}.
         */
        final int streams;
        final boolean split;
        final int total;
        final int keys;
        final long secondSetMillis;
        /** The parents of each stream of the second set (one: a vnode kept; two: merged). */
        final Map<Integer, List<Integer>> parents = new HashMap<>();
        final List<Node> nodes = new ArrayList<>();
        int nextNodeId;
        long clock = 1_400;
        int seq;
        /** Every LCR ever logged (once, whatever node holds it), and those handed to a handler. */
        final Set<L> written = new HashSet<>();
        final Set<L> handled = new HashSet<>();
        /** Per stream, the newest LCR first handled, for the order check. */
        final Map<Integer, L> newestFirstSeen = new HashMap<>();
        // the group: its epoch, members (a crashed one stays until its lease expires), positions, watermark
        long epoch;
        final Map<Integer, Reported> group = new TreeMap<>();
        final Map<Integer, StreamHandoff.Handled> committed = new HashMap<>();
        long groupWatermark;
        /** The member processes alive, by id. */
        final Map<Integer, Member> live = new TreeMap<>();
        int nextMemberId;
        /** Steps taken with two or more members alive, and rebalances: the run's coverage, printed. */
        int sharedSteps;
        int rebalances;

        Sim(long seed) {
            this.seed = seed;
            this.rnd = new Random(seed);
            this.streams = 1 + rnd.nextInt(5);
            this.split = rnd.nextBoolean();
            this.total = split ? 3 * streams : 2 * streams;
            this.keys = split ? 2 * streams : streams;
            this.secondSetMillis = 2 + rnd.nextInt(2);
            for (int k = 0; k < streams; k++) {
                if (split) {
                    parents.put(streams + 2 * k, List.of(k));
                    parents.put(streams + 2 * k + 1, List.of(k));
                } else {
                    parents.put(streams + k, streams > 1 && rnd.nextBoolean() ? List.of(k, (k + 1) % streams) : List.of(k));
                }
            }
            int n = 1 + rnd.nextInt(3);
            for (int i = 0; i < n; i++) {
                nodes.add(new Node(nextNodeId++, clock));
            }
        }

        void fail(String what) {
            throw new AssertionError("seed " + seed + " (replay: -Dtributary.sim.seed=" + seed + "): " + what);
        }

        void run(int steps) {
            int first = 1 + rnd.nextInt(3);
            for (int i = 0; i < first; i++) {
                joinMember(Integer.MAX_VALUE);
            }
            for (int step = 0; step < steps; step++) {
                int r = rnd.nextInt(1000);
                Member m = live.isEmpty() ? null : List.copyOf(live.values()).get(rnd.nextInt(live.size()));
                if (r < 250) {
                    write();
                } else if (r < 380) {
                    advanceSafeTime();
                } else if (r < 680) {
                    if (m != null) {
                        send(m);
                    }
                } else if (r < 830) {
                    if (m != null && (!m.slow || rnd.nextInt(10) == 0)) {
                        release(m);
                    }
                } else if (r < 870) {
                    if (m != null && m.stopping) {
                        leave(m); // a member stopped at its limit commits and leaves when its loop notices
                    } else if (m != null) {
                        commit(m);
                    }
                } else if (r < 878) {
                    if (m != null && m.stopping) {
                        leave(m);
                    } else if (m != null) {
                        crash(m);
                    }
                } else if (r < 884) {
                    if (m != null) {
                        stopAtLimit(m);
                    }
                } else if (r < 900) {
                    if (group.size() < 4) {
                        joinMember(rnd.nextInt(4) > 0 ? Integer.MAX_VALUE : 1 + rnd.nextInt(100));
                    }
                } else if (r < 908) {
                    expireLeases();
                } else if (r < 940) {
                    retention();
                } else if (r < 960) {
                    if (nodes.size() < 4) {
                        join();
                    }
                } else if (r < 975) {
                    if (nodes.size() > 1) {
                        decommission();
                    }
                } else {
                    write();
                }
                check();
                if (live.size() > 1) {
                    sharedSteps++;
                }
            }
            // the end: writes stop, every node's safe time passes everything, every member process
            // dies and its lease expires, and one member reads the rest to the end
            for (Node n : nodes) {
                n.safe = clock + 1_000_000;
            }
            for (Member m : List.copyOf(live.values())) {
                crash(m);
            }
            expireLeases();
            Member last = joinMember(Integer.MAX_VALUE);
            for (int i = 0; i < 10_000 && !handled.containsAll(written); i++) {
                send(last);
                release(last);
                check();
            }
            Set<L> missing = new TreeSet<>(written);
            missing.removeAll(handled);
            if (!missing.isEmpty()) {
                fail("never delivered: " + missing);
            }
        }

        void write() {
            Node n = nodes.get(rnd.nextInt(nodes.size()));
            clock += rnd.nextInt(50);
            long t = Math.max(n.safe, clock - rnd.nextInt(20)); // a write in the past, but never below the safe time
            L l = new L(streamOf(rnd.nextInt(keys), t), t, seq++);
            n.log.computeIfAbsent(l.stream, k -> new TreeSet<>()).add(l);
            written.add(l);
        }

        /** A key's stream at time t: in the first set before the second set's timestamp, then in the second. */
        int streamOf(int key, long t) {
            if (t < secondSetMillis * 1000) {
                return split ? key / 2 : key;
            }
            return streams + key;
        }

        long closedMillis(int stream) {
            return stream < streams ? secondSetMillis : Long.MAX_VALUE;
        }

        void advanceSafeTime() {
            Node n = nodes.get(rnd.nextInt(nodes.size()));
            n.safe = Math.max(n.safe, clock - rnd.nextInt(30));
        }

        /** Nodes send a member chunks of its streams: each the LCRs after the read's cursor below the node's safe time. */
        void send(Member m) {
            for (Run run : m.runs.values()) {
                if (run.status != StreamGate.Status.ACTIVE) {
                    continue; // not read
                }
                for (Node n : nodes) {
                    if (rnd.nextBoolean()) {
                        sendChunk(n, run);
                    }
                }
            }
        }

        void sendChunk(Node n, Run run) {
            Read read = run.reads.get(n.id);
            TreeSet<L> log = n.log.getOrDefault(run.stream, new TreeSet<>());
            int max = 1 + rnd.nextInt(4);
            List<L> page = new ArrayList<>();
            for (L l : read.after == null ? log : log.tailSet(read.after, false)) {
                if (l.micros >= n.safe || page.size() == max) {
                    break;
                }
                page.add(l);
            }
            boolean cut = page.size() == max;
            read.buffer.addAll(page);
            if (!page.isEmpty()) {
                read.after = page.get(page.size() - 1);
            }
            read.safe = Math.max(read.safe, cut ? page.get(page.size() - 1).micros : n.safe);
            read.reported = true;
        }

        void release(Member m) {
            for (Run run : m.runs.values()) {
                if (run.status != StreamGate.Status.ACTIVE) {
                    continue;
                }
                long bound = Long.MAX_VALUE;
                boolean all = true;
                for (Node n : nodes) {
                    Read r = run.reads.get(n.id);
                    all &= r.reported;
                    bound = Math.min(bound, r.safe);
                }
                if (!all || bound <= run.released) {
                    continue;
                }
                for (Node n : nodes) {
                    if (bound > n.safe) {
                        fail("stream " + run.stream + " released below " + bound + ", above node " + n.id
                                + "'s safe time " + n.safe);
                    }
                }
                List<ArrayDeque<L>> buffers = new ArrayList<>();
                for (Node n : nodes) {
                    buffers.add(run.reads.get(n.id).buffer);
                }
                StreamMerge.Released<L> taken = StreamMerge.release(buffers, bound, run.lastReleased, L::micros);
                run.lastReleased = taken.last();
                run.released = bound;
                StreamHandoff.Outcome o = run.handoff.deliver(taken.lcrs(), bound, () -> m.running);
                if (o.failure() instanceof AssertionError e) {
                    throw e; // a check in handle failed: the hand-off takes it for the handler's failure
                }
                if (o.handled() != null) {
                    run.pending = further(run.pending, o.handled());
                    m.handled.merge(run.stream, o.handled(), Sim::further);
                }
                if (o.complete()) {
                    run.delivered = Math.max(run.delivered, bound);
                }
                if (o.failure() != null) {
                    progress(m);
                    // the limit: the member stops, but its event loop may release more before it
                    // notices; it then commits what it handled and leaves (leave)
                    m.running = false;
                    m.stopping = true;
                }
            }
            progress(m);
        }

        /** The further of two recorded progresses; an empty delivery (no LCR) keeps the last LCR known. */
        static StreamHandoff.Handled further(StreamHandoff.Handled a, StreamHandoff.Handled b) {
            if (a == null || b == null) {
                return a == null ? b : a;
            }
            StreamHandoff.Handled f = b.throughMicros() >= a.throughMicros() ? b : a;
            return f.last() != null ? f : new StreamHandoff.Handled(a.last() != null ? a.last() : b.last(), f.throughMicros());
        }

        /** Opens the streams whose parents are delivered far enough, finishes the complete ones (StreamGate). */
        void progress(Member m) {
            for (boolean changed = true; changed; ) {
                changed = false;
                for (Run run : m.runs.values()) {
                    if (run.status == StreamGate.Status.WAITING && gateOpen(m, run)) {
                        run.status = run.status.to(StreamGate.Status.ACTIVE);
                        changed = true;
                    } else if (run.status == StreamGate.Status.ACTIVE
                            && StreamGate.complete(run.closedMillis, 0, run.delivered)) {
                        run.status = run.status.to(StreamGate.Status.DONE);
                        changed = true;
                    }
                }
            }
        }

        /** A parent this member reads gates by its delivery; one another member reads, by the positions last fetched. */
        boolean gateOpen(Member m, Run run) {
            List<StreamGate.Parent> ps = new ArrayList<>();
            for (int p : parents.getOrDefault(run.stream, List.of())) {
                Run parent = m.runs.get(p);
                StreamHandoff.Handled stored = m.fetched.get(p);
                ps.add(parent != null ? StreamGate.Parent.readHere(parent.status, parent.delivered)
                        : StreamGate.Parent.elsewhere(true, stored == null ? Long.MIN_VALUE : stored.throughMicros(),
                                closedMillis(p)));
            }
            return StreamGate.open(run.openedMillis, ps, m.startMicros);
        }

        void handle(Member m, L l) {
            if (m.handledSoFar >= m.limit) {
                throw new IllegalStateException("limit");
            }
            m.handledSoFar++;
            for (int p : parents.getOrDefault(l.stream, List.of())) {
                for (L w : written) {
                    if (w.stream == p && !handled.contains(w)) {
                        fail("stream " + l.stream + "'s " + l + " handed over before its parent's " + w);
                    }
                }
            }
            if (l.micros >= groupWatermark && !written.contains(l)) {
                fail("delivered an LCR nobody wrote: " + l);
            }
            if (handled.add(l)) {
                L newest = newestFirstSeen.get(l.stream);
                if (newest != null && newest.compareTo(l) > 0) {
                    fail("stream " + l.stream + ": " + l + " first delivered after " + newest);
                }
                newestFirstSeen.put(l.stream, l);
            }
        }

        /**
         * A member commits what it recorded and its watermark (ConsumerGroups.commit): refused when
         * the epoch moved on or its lease is gone; the group's watermark is the lowest any member
         * reported under the current epoch, and a member that has not reported under it holds the
         * group where it was.
         */
        void commit(Member m) {
            Reported mine = group.get(m.id);
            if (mine == null || m.epoch != epoch) {
                return; // fenced: what it handled since its last commit is read again by the stream's next owner
            }
            for (Run run : m.runs.values()) {
                if (run.pending != null) {
                    committed.merge(run.stream, run.pending, Sim::further);
                    run.pending = null;
                }
            }
            long wm = StreamMerge.lowWatermark(clock, m.runs.values());
            group.put(m.id, new Reported(mine.epoch() == epoch ? Math.max(mine.watermarkMicros(), wm) : wm, epoch));
            long low = Long.MAX_VALUE;
            for (Reported x : group.values()) {
                low = Math.min(low, x.epoch() == epoch ? x.watermarkMicros() : 0);
            }
            groupWatermark = Math.max(groupWatermark, low);
            m.fetched = Map.copyOf(committed);
        }

        /** A member stopped at its limit commits what it handled and leaves the group. */
        void leave(Member m) {
            commit(m);
            live.remove(m.id);
            group.remove(m.id);
            rebalance();
        }

        /** SIGKILL: nothing more is committed; the member stays in the group, its streams unread, until its lease expires. */
        void crash(Member m) {
            m.running = false;
            live.remove(m.id);
        }

        /** A member with a limit stops by itself at the limit (see release). */
        void stopAtLimit(Member m) {
            m.running = false;
            leave(m);
        }

        /** The leases of crashed members expire: they leave the group. */
        void expireLeases() {
            if (group.keySet().removeIf(id -> !live.containsKey(id))) {
                rebalance();
            }
        }

        Member joinMember(int limit) {
            Member m = new Member(nextMemberId++, rnd.nextInt(4) == 0, limit);
            live.put(m.id, m);
            group.put(m.id, new Reported(0, -1));
            rebalance();
            return m;
        }

        /**
         * The group's membership changed: a new epoch and shares. Each live member closes its
         * session (its commit, under the old epoch, is fenced) and opens one for its new share.
         */
        void rebalance() {
            epoch++;
            rebalances++;
            for (Member m : live.values()) {
                commit(m);
                openSession(m);
            }
        }

        /** Stream s's owner under the current epoch: the shares move as the epoch does. */
        boolean assigned(Member m, int stream) {
            List<Integer> ids = List.copyOf(group.keySet());
            return ids.get(Math.floorMod(stream * 31 + (int) epoch, ids.size())) == m.id;
        }

        void openSession(Member m) {
            m.epoch = epoch;
            m.running = !m.stopping && m.handledSoFar < m.limit;
            m.fetched = Map.copyOf(committed);
            m.startMicros = Math.max(0, groupWatermark);
            Map<Integer, Run> runs = new HashMap<>();
            for (int s = 0; s < total; s++) {
                if (!assigned(m, s)) {
                    continue;
                }
                StreamHandoff.Handled c = further(committed.get(s), m.handled.get(s));
                long from = c == null ? m.startMicros : c.throughMicros();
                boolean first = s < streams;
                Run run = new Run(s, first ? Long.MIN_VALUE : secondSetMillis, closedMillis(s),
                        new StreamHandoff<>(new StreamHandoff.Lcrs<>() {
                    @Override
                    public LcrPosition handle(L l) {
                        Sim.this.handle(m, l);
                        return l.position();
                    }

                    @Override
                    public long micros(L l) {
                        return l.micros;
                    }
                }), from);
                L after = c == null || c.last() == null ? null : L.of(s, c.last());
                if (after == null && c == null && groupWatermark > 0) {
                    after = new L(s, groupWatermark, -1); // from the watermark on
                } else if (after == null && c != null) {
                    after = new L(s, c.throughMicros(), -1); // handled through a time with no LCR yet
                }
                for (Node n : nodes) {
                    Read r = new Read();
                    r.after = after;
                    run.reads.put(n.id, r);
                }
                run.lastReleased = after;
                if (first) {
                    run.status = run.status.to(run.closedMillis * 1000 <= from ? StreamGate.Status.DONE
                            : StreamGate.Status.ACTIVE);
                }
                runs.put(s, run);
            }
            m.runs = runs;
            progress(m);
        }

        /** Deletes on every node what the group's watermark has passed. */
        void retention() {
            for (Node n : nodes) {
                for (TreeSet<L> log : n.log.values()) {
                    log.removeIf(l -> l.micros < groupWatermark);
                }
            }
        }

        /**
         * A node joins. It logs nothing below the safe times the others reported (it registered
         * after their membership reads, which bound them), and a member learns of it with the
         * first batch whose safe time its registration bounds: until it has heard from it, that
         * node holds every stream back.
         */
        void join() {
            long safe = Long.MIN_VALUE;
            for (Node n : nodes) {
                safe = Math.max(safe, n.safe);
            }
            Node n = new Node(nextNodeId++, safe);
            nodes.add(n);
            for (Member m : live.values()) {
                for (Run run : m.runs.values()) {
                    Read r = new Read();
                    r.after = run.lastReleased;
                    run.reads.put(n.id, r);
                }
            }
        }

        /** A node leaves: its LCRs go to another node at their positions; every member reads the others again. */
        void decommission() {
            Node gone = nodes.remove(rnd.nextInt(nodes.size()));
            Node to = nodes.get(rnd.nextInt(nodes.size()));
            to.safe = Math.max(to.safe, gone.safe); // it took the leaver's writes: nothing below comes any more
            gone.log.forEach((s, log) -> to.log.computeIfAbsent(s, k -> new TreeSet<>()).addAll(log));
            for (Member m : live.values()) {
                for (Run run : m.runs.values()) {
                    run.reads.remove(gone.id);
                    for (Read r : run.reads.values()) {
                        r.buffer.clear();
                        r.after = run.lastReleased;
                        r.safe = Long.MIN_VALUE;
                        r.reported = false;
                    }
                }
            }
        }

        void check() {
            // no gap: a committed position never passes an LCR that no member handed to the handler
            for (Map.Entry<Integer, StreamHandoff.Handled> e : committed.entrySet()) {
                for (L l : written) {
                    if (l.stream == e.getKey() && !handled.contains(l) && (l.micros < e.getValue().throughMicros()
                            || e.getValue().last() != null && l.compareTo(L.of(l.stream, e.getValue().last())) <= 0)) {
                        fail("stream " + l.stream + "'s committed position " + e.getValue() + " passed " + l
                                + ", never delivered");
                    }
                }
            }
            for (L l : written) {
                if (!handled.contains(l) && l.micros < groupWatermark) {
                    fail("the group's watermark " + groupWatermark + " passed " + l + ", never delivered");
                }
            }
        }
    }

    @Test
    void seededRuns() {
        String one = System.getProperty("tributary.sim.seed");
        if (one != null) {
            long seed = Long.parseLong(one);
            System.out.println("ConsumerSimulationTest: replaying seed " + seed);
            new Sim(seed).run(STEPS);
            return;
        }
        int seeds = Integer.getInteger("tributary.sim.seeds", 300);
        long base = new Random().nextLong();
        System.out.println("ConsumerSimulationTest: " + seeds + " seeds from " + base);
        long shared = 0;
        long rebalances = 0;
        for (int i = 0; i < seeds; i++) {
            Sim sim = new Sim(base + i);
            sim.run(STEPS);
            shared += sim.sharedSteps;
            rebalances += sim.rebalances;
        }
        System.out.println("ConsumerSimulationTest: " + shared + " of " + (long) STEPS * seeds + " steps with two or more members, "
                + rebalances + " rebalances");
    }
}
